"""mbox mailboxes: each message a child read by the mail reader, an index as the page.

The file is split at its envelope lines (``From alice@example.com Mon Jan  1 00:00:00
2024``) after a blank line, as mutt and Thunderbird split it: many writers (mboxo) leave a
body line that starts with "From " unescaped, and the standard library's ``mailbox``,
which splits at every such line, cut those messages in two. Each message goes back
through the pipeline as ``box.mbox/0001.eml``, so its headers, body and attachments come
out as any ``.eml``'s do, the ``>From `` quoting of its body lines undone. The
mailbox's own page is a table of the messages (date, sender, subject).
"""

from __future__ import annotations

import email.errors
import email.header
import email.parser
import email.policy
import logging
import re
from collections.abc import Iterator
from typing import BinaryIO

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder
from goblin_office.mail import MAX_HEADER_CHARS, header_text, mail_date

log = logging.getLogger(__name__)

_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.compat32)

_MONTH = rb"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
# The envelope line as mutt's is_from() reads it: "From ", the sender (a return path,
# MAILER-DAEMON, Thunderbird's "-"; it may be missing), then an asctime date: weekday,
# month and day (or day and month) and time. What follows, the zone and the year, is
# written in either order (Gmail's exports: "+0000 2024") and not looked at.
_ENVELOPE = re.compile(
    rb"From +(?:(?:\"[^\"\r\n]*\"|[^ \t\r\n\"])+[ \t]+)?"
    rb"(?i:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?[ \t]+"
    rb"(?:" + _MONTH + rb"[ \t]+\d{1,2}|\d{1,2}[ \t-]+" + _MONTH + rb"(?:[ \t-]+\d{2,4})?)"
    rb"[ \t,]+\d{1,2}:\d{2}(?::\d{2})?(?:\s|$)"
)
# a line is read in pieces of this size at most, so a huge one is never held whole
_LINE_PIECE = 64 * 1024
_BLANK_LINES = (b"\n", b"\r\n")


class MboxParser(BaseEngine):
    """A Unix mailbox: messages as ``.eml`` children, their date, sender and subject as a table."""

    name = "office.mbox"
    formats = (fmt.MBOX,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        limit = int(config.get("limits", "max_members", 10_000))
        rows = [("Date", "From", "Subject")]
        children = []
        metadata: dict[str, object] = {}
        count = 0
        try:
            with source.open() as stream:
                spans: list[tuple[int, int]] = []
                for span in message_spans(stream):
                    count += 1
                    if count <= limit:
                        spans.append(span)
                for number, (start, stop) in enumerate(spans, start=1):
                    stream.seek(start)
                    data = unquoted_from_lines(stream.read(stop - start))
                    rows.append(_index_row(data))
                    children.append(source.child(f"{number:04d}.eml", data))
        except (OSError, ValueError) as exc:
            raise CorruptDocument(f"the mailbox cannot be read ({exc})",
                                  file=source.display_name) from exc
        if not children:
            raise CorruptDocument("no message found (no 'From ' separator line)",
                                  file=source.display_name)
        if count > limit:
            metadata["truncated"] = (
                f"messages after message {limit:,} of {count:,} not read: limits.max_members"
            )
            log.warning("%s: %s", source.display_name, metadata["truncated"])
        page = PageBuilder(engine=self.name)
        page.add_table(rows, header_rows=1)
        metadata["messages"] = count
        document = TextDocument([page.build()], metadata=metadata, attachments=children)
        if "truncated" in metadata:
            document.warnings = [("Truncated", str(metadata["truncated"]))]
        return document


def message_spans(stream: BinaryIO) -> Iterator[tuple[int, int]]:
    """(start, stop) offsets of each message of a mailbox, its envelope line left out.

    A message starts after an envelope line (see ``_ENVELOPE``) at the start of the file
    or after a blank line, and ends before that blank line; any other line that starts
    with "From " is body text. The first message's envelope line need not be preceded by
    a blank line, and one the file starts with need not have the envelope's shape: nothing
    is before it to lose.

    >>> import io
    >>> box = b"From a@x Mon Jan  1 00:00:00 2024\\nS: 1\\n\\nFrom here on\\n\\n"
    >>> box += b"From b@x Tue Jan  2 00:00:00 2024\\nS: 2\\n"
    >>> [box[start:stop] for start, stop in message_spans(io.BytesIO(box))]
    [b'S: 1\\n\\nFrom here on\\n', b'S: 2\\n']
    """
    position = 0
    start: int | None = None
    blank_at: int | None = None  # where the line before this one starts, when it is blank
    at_line_start = True
    while line := stream.readline(_LINE_PIECE):
        end = position + len(line)
        # the first message's envelope may follow text that is no message at all
        after_blank = blank_at is not None or start is None
        if at_line_start and line.startswith(b"From ") and (
            position == 0 or (after_blank and _ENVELOPE.match(line) is not None)
        ):
            if start is not None and blank_at is not None:
                yield start, blank_at
            while not line.endswith(b"\n") and (line := stream.readline(_LINE_PIECE)):
                end += len(line)  # the rest of an envelope line longer than a piece
            start = end
        blank_at = position if at_line_start and line in _BLANK_LINES else None
        at_line_start = line.endswith(b"\n")
        position = end
    if start is not None:
        yield start, position


_QUOTED_FROM = re.compile(rb"^>(>*From )", re.M)


def unquoted_from_lines(message: bytes) -> bytes:
    """``message`` with the quoting mbox writers add to body lines undone, one level, as
    mboxrd readers do: a line written as ``>From `` (so that it could not be taken for
    an envelope line) reads ``From `` again, ``>>From `` reads ``>From ``. An mboxo
    writer quotes only ``From `` lines, so there a line its author began with
    ``>From `` loses its ``>`` too; the format leaves no way to tell the two apart.

    >>> unquoted_from_lines(b"S: 1\\n\\n>From here on\\n>>From a quote\\n")
    b'S: 1\\n\\nFrom here on\\n>From a quote\\n'
    """
    return _QUOTED_FROM.sub(rb"\1", message)


def _index_row(data: bytes) -> tuple[str, str, str]:
    headers = _HEADERS.parsebytes(data)

    def field(name: str) -> str:
        # as written (8-bit bytes kept), and cut: decoding encoded words takes time
        # quadratic in the header's length
        value = next((str(v) for k, v in headers.raw_items() if k.lower() == name.lower()), "")
        return header_text(value[:MAX_HEADER_CHARS], headers.get_content_charset())

    try:
        date = field("Date")
        return mail_date(date) or date, field("From"), field("Subject")
    except (ValueError, LookupError, email.errors.HeaderParseError) as exc:
        log.debug("message headers unreadable: %s", exc)
        return "", str(headers.get("From", "")), str(headers.get("Subject", ""))
