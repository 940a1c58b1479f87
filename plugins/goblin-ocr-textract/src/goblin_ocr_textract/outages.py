"""Remembering, for a while, that Textract cannot be reached or refuses the credentials.

A page sent to an endpoint that is down waits out every retry (some twenty seconds
with the default backoff) before it gives up; the next page would wait as long
again, and a long scan would spend its whole ``limits.timeout`` on a service that
is not there, leaving no time for the local OCR backends after it. So once a call
fails in a way the next one would too (no connection, no answer, server errors
after every retry, credentials refused), pages for the same endpoint with the same
credentials are not sent for ``OUTAGE_SECONDS``; after that the service is asked
again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from botocore.exceptions import (
    ClientError,
    ConnectTimeoutError,
    EndpointConnectionError,
    NoCredentialsError,
    ReadTimeoutError,
)

#: Seconds an endpoint found down, or refusing the credentials, is left alone.
OUTAGE_SECONDS = 60.0

#: Error codes that say the credentials will not do, whatever the page.
REFUSED_CODES = frozenset({
    "UnrecognizedClientException",
    "InvalidSignatureException",
    "SignatureDoesNotMatch",
    "InvalidClientTokenId",
    "ExpiredTokenException",
    "ExpiredToken",
    "AccessDeniedException",
    "AccessDenied",
    "SubscriptionRequiredException",
})
_UNREACHABLE = (EndpointConnectionError, ConnectTimeoutError, ReadTimeoutError,
                NoCredentialsError)

ServiceKey = tuple[str, ...]


def service_key(options: Mapping[str, Any], *more: str) -> ServiceKey:
    """What tells one Textract apart from another: the endpoint, region, profile and key
    given in ``[textract]`` (the environment's credentials are the same for the whole
    process), and ``more`` (a whole-document job's bucket, whose S3 may fail alone).

    >>> service_key({"endpoint_url": "http://127.0.0.1:4566", "region": "us-east-1"})
    ('http://127.0.0.1:4566', 'us-east-1', '', '')
    """
    return (str(options.get("endpoint_url", "")), str(options.get("region", "")),
            str(options.get("profile", "")), str(options.get("access_key_id", "")), *more)


def is_outage(error: BaseException) -> bool:
    """True for a failure the next page would meet too: the endpoint unreachable, not
    answering or answering server errors (once the retries are spent), or the credentials
    refused. Throttling is not one: it passes as the pages slow down."""
    if isinstance(error, _UNREACHABLE):
        return True
    if not isinstance(error, ClientError):
        return False
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
    code = error.response.get("Error", {}).get("Code", "")
    return code in REFUSED_CODES or (isinstance(status, int) and status >= 500)


class Outages:
    """The services found unusable, each until when and why."""

    def __init__(self) -> None:
        self._until: dict[ServiceKey, tuple[float, str]] = {}

    def record(self, key: ServiceKey, error: BaseException) -> bool:
        """Note ``error`` against ``key`` when it is an outage (True); other errors are
        not (False)."""
        if not is_outage(error):
            return False
        self._until[key] = (time.monotonic() + OUTAGE_SECONDS, str(error))
        return True

    def current(self, key: ServiceKey) -> str:
        """Why ``key``'s service is not to be asked now; "" when it may be."""
        until, why = self._until.get(key, (0.0, ""))
        if time.monotonic() < until:
            return why
        self._until.pop(key, None)
        return ""
