"""AWS credentials kept out of the log lines botocore writes for a Textract call.

At debug level (``goblin -vv``) botocore logs each request it signs: the canonical
request and the headers sent, with the session token whole and the access key id in
``Authorization``. A log pasted into a bug report would hand them on. Records of the
loggers that write them are rewritten with those values masked before any handler
sees them.
"""

from __future__ import annotations

import logging
import re

#: botocore's and urllib3's loggers that write request lines or headers.
LOGGERS = ("botocore.auth", "botocore.endpoint", "botocore.hooks", "botocore.parsers",
           "botocore.httpsession", "botocore.credentials", "botocore.retryhandler",
           "urllib3.connectionpool")
MASK = "****"

_SECRETS = re.compile(
    # the token in a canonical request line, and as a header in a dict's repr
    r"(?P<lead>x-amz-security-token:\s*|'x-amz-security-token':\s*b?')(?P<secret>[^'\s]+)"
    # the access key id named in the Authorization header
    r"|(?P<lead2>Credential=)(?P<secret2>[A-Za-z0-9]+)",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """``text`` with session tokens and access key ids masked.

    >>> redact("x-amz-security-token:IQoJb3Jp\\nhost:textract")
    'x-amz-security-token:****\\nhost:textract'
    >>> redact("{'X-Amz-Security-Token': b'IQoJ', 'Authorization': b'AWS4-HMAC-SHA256 "
    ...        "Credential=AKIAEXAMPLE/20260101/us-east-1/textract/aws4_request'}")[:85]
    "{'X-Amz-Security-Token': b'****', 'Authorization': b'AWS4-HMAC-SHA256 Credential=****"
    """
    return _SECRETS.sub(lambda found: (found.group("lead") or found.group("lead2")) + MASK,
                        text)


class CredentialsFilter(logging.Filter):
    """Masks credentials in a record's message; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = redact(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


def mask_credentials_in_logs() -> None:
    """Put a CredentialsFilter on each logger of ``LOGGERS`` that has none yet."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, CredentialsFilter) for f in logger.filters):
            logger.addFilter(CredentialsFilter())
