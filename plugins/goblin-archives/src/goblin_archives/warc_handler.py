"""WARC web archives (ISO 28500, what crawlers and Common Crawl write): each page or file
captured becomes a member named after its URL.

A ``response`` record holds an HTTP response: its payload, with the chunked transfer
and gzip or deflate content coding undone, is the member. ``resource`` and
``conversion`` records hold content as it is. Requests, metadata, revisits (a
pointer to an earlier capture) and responses other than 2xx (redirects, errors)
carry no document and are left out. Records are read one after the other, so a
member's stream is valid until the next member is listed, as in a tar.
"""

from __future__ import annotations

import functools
import mimetypes
import posixpath
import re
from collections.abc import Iterator
from typing import Any, BinaryIO
from urllib.parse import unquote, urlsplit

from goblin_archives.guarded import DECODE_ERRORS, GuardedStream, Readable, translated
from goblin_archives.http_payload import DECODERS, Dechunked, Decoded, LineReadable
from goblin_archives.scratch import ByteMeter
from goblin_archives.volumes import whole_file
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member
from goblin_core.errors import CorruptDocument, UnsafeArchive
from goblin_core.source import Source

WARC_MIME = "application/warc"
_DOCUMENT_RECORDS = frozenset({"response", "resource", "conversion"})
#: Name of the member for a URL ending in "/" (a folder's page).
_INDEX = "index"
_NOT_A_NAME = re.compile(r"[^\w.\-]")


class WarcHandler(BaseEngine):
    """WARC 1.0 and 1.1, plain or gzipped record by record, through warcio."""

    name = "archive.warc"
    formats = (WARC_MIME,)
    priority = 50

    def available(self) -> tuple[bool, str]:
        try:
            import warcio  # noqa: F401
        except ImportError:
            return False, "warcio is not installed: pip install warcio"
        return True, ""

    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        from warcio.exceptions import ArchiveLoadFailed

        display = source.display_name
        # warcio meets a header cut mid-line with AttributeError on a missing field
        damaged = (ArchiveLoadFailed, AttributeError, *DECODE_ERRORS)
        cut: list[_RecordPayload] = []
        with whole_file(source) as (opener, size):
            stream = opener()
            meter = ByteMeter(limits, max(size, 1), display)
            # The records as stored, gzip undone: skipped ones expand too (a bomb in a
            # metadata record), and are counted by a meter of their own.
            stored = ByteMeter(limits, max(size, 1), display)
            read = skipped = 0
            try:
                iterator = _quiet_iterator()(stream, stored)
                # warcio lets go of its reader once the records end
                reader = iterator.reader
                records = iter(iterator)
                while True:
                    try:
                        reader.parsing = True
                        record = next(records, None)
                    except CutHeader as exc:
                        gzip_cut = _GZIP_CUT if reader.gzip_cut else ""
                        raise CorruptDocument(
                            f"record {read + 1} is unreadable (the data ends inside its "
                            f"header, {exc}{gzip_cut}); the WARC is truncated or damaged "
                            f"after {read} record{'' if read == 1 else 's'}",
                            file=display) from None
                    except damaged as exc:
                        raise CorruptDocument(
                            f"record {read + 1} is unreadable ({type(exc).__name__}: {exc}); "
                            f"the WARC is truncated or damaged after {read} record"
                            f"{'' if read == 1 else 's'}",
                            file=display) from exc
                    finally:
                        reader.parsing = False
                    if record is None:
                        break
                    read += 1
                    meter.check_total()
                    if _is_document(record):
                        yield _member(record, display, meter, cut)
                    else:
                        skipped += 1
                        _check_skipped(skipped, limits, display)
            finally:
                stream.close()
        if cut:
            raise CorruptDocument(f"the capture of {cut[0].name} is cut short: "
                                  f"{cut[0].missing:,} bytes of its record are missing; "
                                  "the WARC is truncated", file=display)
        if reader.gzip_cut:
            raise CorruptDocument(f"the WARC is truncated{_GZIP_CUT}", file=display)


_GZIP_CUT = ("; gzip decompression failed: the compressed file ended before the "
             "end-of-stream marker was reached")


class CutHeader(Exception):
    """The data ended inside a record's header block (its WARC or HTTP headers)."""


def _check_skipped(skipped: int, limits: ArchiveLimits, display: str) -> None:
    """Refuse a WARC of more records without a document than limits.max_members.

    Requests, metadata and redirects list no member, so the core's member count
    never sees them: a million of them would be parsed one by one for minutes.
    """
    if skipped > limits.max_members:
        raise UnsafeArchive(
            f"more than limits.max_members ({limits.max_members:,}) records that carry no "
            "document (requests, metadata, revisits, redirects); stopped (raise the limit "
            "to read it)", file=display)


#: Bytes one header block may take: a record's WARC headers, a capture's HTTP headers or a
#: chunk-size line. Real ones take a few kilobytes (web servers refuse more than 8 to 64
#: KiB); warcio reads a line whole, however long, and a header line of a gigabyte of
#: gzipped filler took a gigabyte of memory.
HEADER_BYTES = 1 << 20


@functools.cache
def _quiet_iterator() -> type:
    from warcio.archiveiterator import ArchiveIterator
    from warcio.bufferedreaders import DecompressingBufferedReader

    class MeteredReader(DecompressingBufferedReader):
        """warcio's reader of the WARC, counting every byte it decodes on ``meter`` and
        refusing a header block longer than HEADER_BYTES."""

        def __init__(self, stream: BinaryIO, meter: ByteMeter) -> None:
            super().__init__(stream)
            self.meter = meter
            self.header = 0  # bytes of the header block being read, line by line
            #: Set while a record's headers are parsed: the data ending then cuts one.
            self.parsing = False
            #: Whether the data ended inside a gzip member (warcio reads on as if it ended).
            self.gzip_cut = False

        def _process_read(self, data: bytes) -> None:
            if not data and self.decompressor is not None \
                    and not getattr(self.decompressor, "eof", True):
                self.gzip_cut = True
            super()._process_read(data)
            if self.buff_size:
                self.meter.read(self.buff_size)

        def read(self, length: int | None = None) -> bytes:
            self.header = 0
            return bytes(super().read(length))

        def readline(self, length: int | None = None) -> bytes:
            room = HEADER_BYTES - self.header + 1
            wanted = min(length, room) if length else room
            line = bytes(super().readline(wanted))
            ended = not line.endswith(b"\n") and len(line) < wanted
            if self.parsing and ended and (line or self.header):
                # warcio takes what a header block holds when the data ends: a record
                # cut there would be read as a record of a few fields, or none.
                raise CutHeader(f"{self.header + len(line):,} bytes of it, without an end")
            self.header = 0 if not line.strip() else self.header + len(line)
            if self.header > HEADER_BYTES:
                raise CorruptDocument(
                    f"a header runs past {HEADER_BYTES:,} bytes without ending (real ones "
                    "take a few kilobytes); the WARC is damaged, not read further",
                    file=self.meter.display)
            return line

    class QuietIterator(ArchiveIterator):
        """warcio writes a warning about a wrong Content-Length straight to stderr, into
        the terminal or the JSON output of whoever called goblin; the record that
        follows is read all the same."""

        INC_RECORD = ""

        def __init__(self, stream: BinaryIO, meter: ByteMeter) -> None:
            super().__init__(stream, no_record_parse=False)
            # Nothing is read before the first record is asked for: the reader can change.
            self.reader = MeteredReader(self.fh, meter)

    return QuietIterator


def _is_document(record: Any) -> bool:
    if record.rec_type not in _DOCUMENT_RECORDS:
        return False
    if record.rec_type == "response":
        status = record.http_headers.get_statuscode() if record.http_headers else None
        return status is None or str(status).startswith("2")
    return True


def _member(record: Any, display: str, meter: ByteMeter, cut: list[_RecordPayload]) -> Member:
    uri = record.rec_headers.get_header("WARC-Target-URI") or ""
    mime = _content_type(record)
    name = member_name(uri, mime, record.rec_headers.get_header("WARC-Record-ID") or "")
    declared = None if record.http_headers else record.length

    def opener() -> BinaryIO:
        with translated(f"{display}/{name}", "reading the record"):
            inner = _RecordPayload(record, name, cut)
        return GuardedStream(inner, f"{display}/{name}", meter=meter)  # type: ignore[return-value]

    return Member(name=name, open=opener, size=declared)


class _RecordPayload:
    """A record's payload that leaves the archive open when closed (warcio's streams
    close the one the records are read from, and the next record is in it), and that
    notes in ``cut`` a record whose file ends before the length its header declares:
    the member keeps what was there, the handler reports the cut once it is read."""

    def __init__(self, record: Any, name: str, cut: list[_RecordPayload]) -> None:
        self._stream = _payload(record)
        self._raw = record.raw_stream
        self._cut = cut
        self.name = name
        self.missing = 0

    def read(self, size: int = -1, /) -> bytes:
        data = bytes(self._stream.read(size))
        if not data and size != 0 and not self.missing:
            self.missing = max(getattr(self._raw, "limit", 0), 0)
            if self.missing:
                self._cut.append(self)
        return data

    def close(self) -> None:
        return None


def _payload(record: Any) -> Readable:
    """The record's content: an HTTP body with its transfer and content codings undone."""
    raw: LineReadable = record.raw_stream
    if not record.http_headers:
        return raw
    headers = record.http_headers
    chunked = (headers.get_header("Transfer-Encoding") or "").strip().lower() == "chunked"
    body: Readable = Dechunked(raw) if chunked else raw
    coding = (headers.get_header("Content-Encoding") or "").strip().lower()
    return Decoded(body, coding) if coding in DECODERS else body


def _content_type(record: Any) -> str:
    if record.http_headers:
        value = record.http_headers.get_header("Content-Type") or ""
    else:
        value = record.rec_headers.get_header("Content-Type") or ""
    return value.split(";", 1)[0].strip().lower()


def member_name(uri: str, mime: str, record_id: str = "") -> str:
    """A path for the capture of ``uri``: host, then the URL's path, a query kept as part
    of the last name, and an extension from the content type when the path has none.

    ``..`` in a URL's path is resolved as a browser does, never above the host.

    >>> member_name("https://example.com/docs/", "text/html")
    'example.com/docs/index.html'
    >>> member_name("http://example.com/a/b/../report.pdf?v=2", "application/pdf")
    'example.com/a/report.pdf_v=2.pdf'
    >>> member_name("urn:x-goblin:notes", "text/plain", "<urn:uuid:1234>")
    'urn_x-goblin_notes.txt'
    >>> member_name("http://../etc/passwd", "text/plain")
    '__/etc/passwd.txt'
    """
    parts = urlsplit(uri)
    query = unquote(parts.query)
    if parts.hostname:
        host = _one_folder(parts.hostname)
        folder, leaf = posixpath.split(posixpath.normpath("/" + unquote(parts.path)))
        if parts.path.endswith("/") or not leaf:
            folder, leaf = posixpath.join(folder, leaf), _INDEX
    else:  # a URN, or a record without a target: one name, no folders
        host, folder, leaf, query = "", "", _one_folder(uri or record_id or "record"), ""
    if query:
        leaf = f"{leaf}_{query}".replace("/", "_")
    if not posixpath.splitext(leaf)[1] or query:
        leaf += _EXTENSIONS.get(mime) or mimetypes.guess_extension(mime) or ""
    return posixpath.join(host, folder.lstrip("/"), leaf)


def _one_folder(text: str) -> str:
    """``text`` as one path component: no separators, never "." or ".." climbing out."""
    name = _NOT_A_NAME.sub("_", text.strip("<>"))
    return name if name.strip(".") else "_" * len(name)


# The common types whose extension mimetypes spells unusually (.htm, .jpe) or not at all.
_EXTENSIONS = {"text/html": ".html", "text/plain": ".txt", "image/jpeg": ".jpg",
               "application/xhtml+xml": ".xhtml", "application/json": ".json"}
