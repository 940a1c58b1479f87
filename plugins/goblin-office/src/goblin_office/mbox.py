"""mbox mailboxes: each message a child read by the mail reader, an index as the page.

The file is split at its envelope lines (``From alice@example.com Mon Jan  1 00:00:00
2024``) after a blank line, as mutt and Thunderbird split it: many writers (mboxo) leave a
body line that starts with "From " unescaped, and the standard library's ``mailbox``,
which splits at every such line, cut those messages in two. Each message goes back
through the pipeline as ``box.mbox/0001.eml``, so its headers, body and attachments come
out as any ``.eml``'s do, the ``>From `` quoting of its body lines undone. The
mailbox's own page is a table of the messages (date, sender, subject), read from each
message's headers; a message's whole text is read from the file only when its turn as a
child comes, so a mailbox of gigabytes is read in the memory of its largest message.
"""

from __future__ import annotations

import email.errors
import email.header
import email.parser
import email.policy
import logging
import mmap
import re
from collections.abc import Iterator
from typing import BinaryIO

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
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
        largest = int(config.get("limits", "max_member_size", 1024**3))
        rows = [("Date", "From", "Subject")]
        metadata: dict[str, object] = {}
        spans: list[tuple[int, int]] = []
        count = 0
        try:
            with source.open() as stream:
                for span in message_spans(stream):
                    count += 1
                    if count <= limit:
                        spans.append(span)
                # only the headers are read now: a message's whole text is read when its
                # turn as a child comes, so a mailbox of gigabytes is never held at once
                for start, stop in spans:
                    rows.append(_index_row(_header_block(stream, start, stop)))
        except (OSError, ValueError) as exc:
            raise CorruptDocument(f"the mailbox cannot be read ({exc})",
                                  file=source.display_name) from exc
        if not spans:
            raise CorruptDocument("no message found (no 'From ' separator line)",
                                  file=source.display_name)
        warnings: list[tuple[str, str]] = []
        if count > limit:
            metadata["truncated"] = (
                f"messages after message {limit:,} of {count:,} not read: limits.max_members"
            )
            log.warning("%s: %s", source.display_name, metadata["truncated"])
            warnings.append(("Truncated", str(metadata["truncated"])))
        page = PageBuilder(engine=self.name)
        page.add_table(rows, header_rows=1)
        metadata["messages"] = count
        document = _Mailbox([page.build()], metadata, source, spans, largest)
        document.warnings = warnings
        return document


class _Mailbox(TextDocument):
    """The index page, and the messages read from the mailbox one at a time as the
    pipeline takes them: each is let go before the next is read."""

    def __init__(self, pages: list[PageContent], metadata: dict[str, object], source: Source,
                 spans: list[tuple[int, int]], largest: int) -> None:
        super().__init__(pages, metadata=metadata)
        self._source = source
        self._spans = spans
        self._largest = largest  # limits.max_member_size

    def attachments(self) -> Iterator[Source]:
        with self._source.open() as stream:
            for number, (start, stop) in enumerate(self._spans, start=1):
                name = f"{number:04d}.eml"
                if stop - start > self._largest:
                    size = _unquoted_size(stream, start, stop)
                    if size > self._largest:
                        yield Source.from_bytes(
                            _unread(size), f"{self._source.display_name}/{name}",
                            depth=self._source.depth + 1, parent=self._source.display_name)
                        continue
                stream.seek(start)
                yield self._source.child(name, unquoted_from_lines(stream.read(stop - start)))


def _unread(size: int) -> memoryview:
    """A stand-in of ``size`` bytes for a message over ``limits.max_member_size``.

    The pipeline refuses an attachment over that limit by its size alone, before reading
    a byte of it, and reports it (a refused member, a ``FileTooLarge`` error): reading
    the message to hand it over would cost the memory the limit is there to spare. The
    stand-in is an anonymous mapping, so its pages take no memory while never touched.
    """
    return memoryview(mmap.mmap(-1, size))


def _unquoted_size(stream: BinaryIO, start: int, stop: int) -> int:
    """The size of the message at ``start:stop`` once ``unquoted_from_lines`` has undone
    its ``>From `` quoting, read a piece at a time."""
    stream.seek(start)
    size = stop - start
    at_line_start = True
    while stream.tell() < stop and (
            line := stream.readline(min(_LINE_PIECE, stop - stream.tell()))):
        if at_line_start and _QUOTED_FROM.match(line):
            size -= 1
        at_line_start = line.endswith(b"\n")
    return size


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


# the index reads no more of a message than this in search of its headers' end
_INDEX_HEAD_BYTES = 1024 * 1024
_HEADERS_END = re.compile(rb"\n\r?\n")


def _header_block(stream: BinaryIO, start: int, stop: int) -> bytes:
    """The message at ``start:stop`` of ``stream`` up to the blank line that ends its
    headers, read a piece at a time and no further than ``_INDEX_HEAD_BYTES``.

    >>> import io
    >>> _header_block(io.BytesIO(b"xxS: 1\\r\\n\\r\\nbody\\r\\n"), 2, 18)
    b'S: 1\\r\\n\\r\\n'
    """
    stream.seek(start)
    # the line end before the first line stands for the one the envelope line ended
    # with, so a blank first line ends the headers as the parser ends them
    block = bytearray(b"\n")
    wanted = min(stop - start, _INDEX_HEAD_BYTES) + 1
    while len(block) < wanted:
        piece = stream.read(min(_LINE_PIECE, wanted - len(block)))
        if not piece:
            break
        searched_from = max(0, len(block) - 2)
        block += piece
        if found := _HEADERS_END.search(block, searched_from):
            return bytes(block[1:found.end()])
    return bytes(block[1:])


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
