"""mbox mailboxes: each message a child read by the mail reader, an index as the page.

The standard library's ``mailbox`` splits the file at its ``From `` lines;
each message goes back through the pipeline as ``box.mbox/0001.eml``, so its
headers, body and attachments come out as any ``.eml``'s do. The mailbox's
own page is a table of the messages (date, sender, subject).
"""

from __future__ import annotations

import email.errors
import email.header
import email.parser
import email.policy
import logging
import mailbox

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder
from goblin_office.mail import MAX_HEADER_CHARS, mail_date

log = logging.getLogger(__name__)

_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.compat32)


class MboxParser(BaseEngine):
    """A Unix mailbox: messages as ``.eml`` children, their date, sender and subject as a table."""

    name = "office.mbox"
    formats = (fmt.MBOX,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        limit = int(config.get("limits", "max_members", 10_000))
        try:
            box = mailbox.mbox(source.path(), create=False)
        except (OSError, mailbox.Error) as exc:
            raise CorruptDocument(f"the mailbox cannot be opened ({exc})",
                                  file=source.display_name) from exc
        rows = [("Date", "From", "Subject")]
        children = []
        metadata: dict[str, object] = {}
        try:
            keys = box.keys()
            for number, key in enumerate(keys, start=1):
                if number > limit:
                    metadata["truncated"] = (
                        f"messages after message {limit:,} of {len(keys):,} not read: "
                        "limits.max_members"
                    )
                    log.warning("%s: %s", source.display_name, metadata["truncated"])
                    break
                data = box.get_bytes(key)
                rows.append(_index_row(data))
                children.append(source.child(f"{number:04d}.eml", data))
        except (OSError, mailbox.Error, ValueError) as exc:
            raise CorruptDocument(f"the mailbox cannot be read ({exc})",
                                  file=source.display_name) from exc
        finally:
            box.close()
        if not children:
            raise CorruptDocument("no message found (no 'From ' separator line)",
                                  file=source.display_name)
        page = PageBuilder(engine=self.name)
        page.add_table(rows, header_rows=1)
        metadata["messages"] = len(keys)
        document = TextDocument([page.build()], metadata=metadata, attachments=children)
        if "truncated" in metadata:
            document.warnings = [("Truncated", str(metadata["truncated"]))]
        return document


def _index_row(data: bytes) -> tuple[str, str, str]:
    headers = _HEADERS.parsebytes(data)

    def field(name: str) -> str:
        # decoding encoded words takes time quadratic in the header's length
        value = str(headers.get(name, ""))[:MAX_HEADER_CHARS]
        text = str(email.header.make_header(email.header.decode_header(value))) if value else ""
        return " ".join(text.split())

    try:
        date = field("Date")
        return mail_date(date) or date, field("From"), field("Subject")
    except (ValueError, LookupError, email.errors.HeaderParseError) as exc:
        log.debug("message headers unreadable: %s", exc)
        return "", str(headers.get("From", "")), str(headers.get("Subject", ""))
