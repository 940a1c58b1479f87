"""Streams that decode to gigabytes, found in a PDF's bytes before any reader opens it.

PDFium, pypdf, pdfminer and pdftotext decode a stream whole when they need it: a page's
content, a form, a font, the object streams that hold the document's objects. Two
megabytes of Flate data can inflate to two gigabytes of spaces, and half a megabyte of LZW
data to 700 MB, which a reader holds in memory at once and parses into several times as
much, inside one call nothing can interrupt. So before the PDF is opened, every stream
whose filters could make it larger than ``pdf.max_stream_size`` is decoded here through
the filters its dictionary names, counting the bytes and keeping none, and a document
holding one that does is refused.

Each filter grows data by at most a known ratio (Deflate about 1032, LZW 2560), so a
stream too small to reach the limit through its filters is not decoded: on ordinary PDFs
only big fonts and content streams are. An encrypted PDF's streams are decrypted first,
since PDFium opens most of them without a password. Images and embedded files are left
out: text extraction never decodes an image (page renders for OCR have their own pixel
limit), and embedded files are children under the archive limits.

The same pass tells which streams are damaged part-way. A reader decodes a Flate stream
up to the damage and keeps what came before it without a word: a page drawing its first
lines only, an attachment cut to its first bytes, both taken for whole. So each page
content stream and embedded file in the clear is inflated here (those the bomb check
inflates are not inflated twice), keeping nothing, and those that do not inflate to their
end are named for the parser to report. What that pass found is kept for the page census
(:mod:`goblin_pdf.page_weight`), which reads the same bytes next: the streams with their
dictionaries, and the size and ``Do`` count of each stream inflated whole, so it neither
parses the dictionaries nor inflates those streams again.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

from goblin_core.errors import FileTooLarge
from goblin_core.source import Source
from goblin_pdf.pdf_bytes import (
    OBJECT,
    OBJECT_START,
    ZLIB_HEADER,
    StreamTable,
    chunks,
    mapped,
)
from goblin_pdf.pypdf_warnings import pypdf_warnings_held
from goblin_pdf.stream_filters import (
    CHUNK,
    FLATE,
    decodes_past,
    filter_chain,
    filter_names,
    filter_reference,
    most_decoded,
)

_NOT_INFLATED = re.compile(rb"/Subtype\s*/Image\b|/Type\s*/EmbeddedFile\b")
#: Keys a page content stream's dictionary does not have: a font program's (/Length1,
#: /Subtype), an image's or a form's (/Subtype), an ICC profile's (/N), an object or
#: cross-reference stream's and metadata's (/Type). Checking only what is left keeps the
#: fonts, the largest streams of most PDFs, from being inflated for nothing.
_NOT_PAGE_CONTENT = re.compile(rb"/(?:Type|Subtype|Length[123]|N)(?![^\s/\[\]()<>{}%])")
_EMBEDDED_FILE = re.compile(rb"/Type\s*/EmbeddedFile\b")


def refuse_stream_bombs(source: Source, limit: int, password: str | None = None
                        ) -> frozenset[int]:
    """FileTooLarge when a stream of the PDF inflates past ``limit`` bytes (0: no check).
    An encrypted PDF's streams are decrypted with ``password`` (or none) to be counted.

    Returns the object numbers of the page content streams and embedded files in the
    clear whose Flate data is damaged part-way (a reader keeps only what comes before the
    damage); none when the check is off."""
    return check_streams(source, limit, password)[0]


def check_streams(source: Source, limit: int, password: str | None = None
                  ) -> tuple[frozenset[int], StreamTable | None]:
    """As ``refuse_stream_bombs``, with the streams found in the PDF's bytes on the way
    (None when the check is off), for the page census to read the same bytes with."""
    if limit <= 0:
        return frozenset(), None
    damaged: set[int] = set()
    with source.open() as stream, mapped(stream) as data:
        table = StreamTable(data)
        encrypted = data.find(b"/Encrypt") >= 0
        # encrypted data is no Flate data until decrypted: only its size is judged here
        found = _oversized(data, table, limit, None if encrypted else damaged)
        if found is None and encrypted:
            found = _oversized_encrypted(stream, data, table, limit, password)
    if found is not None:
        raise FileTooLarge(
            f"{found} inflates past pdf.max_stream_size ({limit:,} bytes): a decompression "
            "bomb, not opened; raise pdf.max_stream_size to read it",
            file=source.display_name,
        )
    return frozenset(damaged), table


def _oversized(data: Any, table: StreamTable, limit: int,
               damaged: set[int] | None = None) -> str | None:
    """Which stream decodes past ``limit`` ("object 12"), or None. The numbers of the page
    content streams and embedded files found damaged on the way go into ``damaged``, and
    what each inflated whole makes into ``table.inflated``."""
    objects = _ObjectsInClear(data)
    # the census counts Do only in a PDF with forms, which names /Form somewhere
    draws = data.find(b"/Form") >= 0
    for _, start, end, dictionary in table.streams(data):
        chain = _chain(dictionary, data, start, end, objects)
        number = OBJECT.match(dictionary)
        if damaged is not None and number is not None and chain == [FLATE] and \
                _kept_whole(dictionary, number.end()):
            size, said, whole = _inflated(data, start, end, limit, draws)
            if size > limit and not _NOT_INFLATED.search(dictionary):
                return f"object {int(number[1])}"
            if size <= limit:
                table.inflated[start] = size, said
            if not whole:
                damaged.add(int(number[1]))
            continue
        if most_decoded(end - start, chain) <= limit or _NOT_INFLATED.search(dictionary):
            continue
        if decodes_past(chunks(data, start, end), chain, dictionary, limit):
            return f"object {int(number[1])}" if number else f"the stream at byte {start:,}"
    return None


def _kept_whole(dictionary: bytes, keys_at: int) -> bool:
    """Whether a stream is a page's content or an embedded file, by its dictionary (its
    keys from ``keys_at``, after the object's header)."""
    return _EMBEDDED_FILE.search(dictionary) is not None or \
        _NOT_PAGE_CONTENT.search(dictionary, keys_at) is None


def _inflated(data: Any, start: int, end: int, limit: int, draws: bool = False
              ) -> tuple[int, int | None, bool]:
    """How many bytes a stream's Flate data inflates to (counted up to just past
    ``limit``), with ``draws`` how often they say ``Do`` (else None), and whether it is
    sound: False when inflating fails on the way (a damaged block), where a reader stops
    and keeps what came before. Data that merely ends early without an error (a missing
    checksum, which some writers leave out) counts as sound: the readers take all of it."""
    inflater = zlib.decompressobj()
    size = said = 0
    last = b""  # the byte before each piece, for a "Do" split between two
    try:
        for piece in chunks(data, start, end):
            while piece and not inflater.eof:
                out = inflater.decompress(piece, CHUNK)
                size += len(out)
                if size > limit:
                    return size, None, True
                if draws:
                    said += out.count(b"Do") + (last == b"D" and out[:1] == b"o")
                    last = out[-1:] or last
                piece = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error:
        return size, said if draws else None, _only_checksum_wrong(data, start, end)
    return size, said if draws else None, True


#: Bytes that may follow a stream's deflate data before its end: the 4-byte checksum,
#: line ends and padding some writers add.
_TRAILING = 16


def _only_checksum_wrong(data: Any, start: int, end: int) -> bool:
    """Whether Flate data zlib refused is whole, its checksum alone wrong: the deflate
    data ends at the stream's end, and a reader, which does not check the sum, has
    all of it. Damage in the middle ends the deflate data early or breaks it."""
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate after the 2-byte header
    fed = 0
    try:
        for piece in chunks(data, start + 2, end):
            fed += len(piece)
            while piece and not inflater.eof:
                inflater.decompress(piece, CHUNK)
                piece = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error:
        return False
    after = end - start - 2 - fed + len(inflater.unused_data)
    return not inflater.eof or after <= _TRAILING


def _chain(dictionary: bytes, data: Any, start: int, end: int,
           objects: _ObjectsInClear) -> list[bytes]:
    """The filters a stream is decoded through. A ``/Filter`` given by reference is read
    from the object it names in the PDF's bytes; when that object is not in the clear,
    the data tells: Flate when it starts with a zlib header, twice when what that inflates
    to starts with one again."""
    chain = filter_chain(dictionary)
    if chain is not None:
        return chain
    reference = filter_reference(dictionary)
    held = objects.value(reference) if reference is not None else None
    if held is not None:
        return filter_names(held)
    if not ZLIB_HEADER.match(data, start):
        return []
    return [FLATE, FLATE] if _nested(data, start, end) else [FLATE]


class _ObjectsInClear:
    """Where each object outside object streams starts in a PDF's bytes, found in one
    pass the first time one is asked for."""

    _FILTER_VALUE = re.compile(rb"\[[^\]]*\]|/[^\s/\[\]()<>{}%]+")

    def __init__(self, data: Any) -> None:
        self._data = data
        self._starts: dict[tuple[int, int], int] | None = None

    def value(self, key: tuple[int, int]) -> bytes | None:
        """Object ``key``'s value when it is a name or an array of names, else None."""
        if self._starts is None:
            self._starts = {(int(found[1]), int(found[2])): found.end()
                            for found in OBJECT_START.finditer(self._data)}
        at = self._starts.get(key)
        found = self._FILTER_VALUE.match(self._data, at) if at is not None else None
        return found[0] if found is not None else None


def _oversized_encrypted(stream: Any, data: Any, table: StreamTable, limit: int,
                         password: str | None) -> str | None:
    """As ``_oversized``, for a PDF whose streams are encrypted: pypdf decrypts each one
    that could hold a bomb, without decoding it (an empty user password opens most
    encrypted PDFs, and the readers would inflate what it hides)."""
    from pypdf import PdfReader

    try:
        stream.seek(0)
        with pypdf_warnings_held():
            reader = PdfReader(stream, strict=False)
            if not reader.is_encrypted or not reader.decrypt(password or ""):
                return None  # no reader opens it without the right password either
    except Exception:  # damaged, or encrypted some other way: PDFium gives the verdict
        return None
    objects = _ObjectsInClear(data)
    for _, start, end, dictionary in table.streams(data):
        header = OBJECT.search(dictionary)
        if header is None:
            continue
        # Decrypted data is as long as the encrypted data, give or take a cipher block.
        chain = filter_chain(dictionary)
        bound = chain if chain is not None else [FLATE, FLATE]
        if most_decoded(end - start, bound) <= limit:
            continue
        raw = _decrypted(reader, int(header[1]))
        if raw is None:
            continue
        if chain is None:
            chain = _chain(dictionary, raw, 0, len(raw), objects)
        if decodes_past(chunks(raw, 0, len(raw)), chain, dictionary, limit):
            return f"object {int(header[1])}"
    return None


def _decrypted(reader: Any, number: int) -> bytes | None:
    """Object ``number``'s stream data, decrypted and still encoded; None for an image,
    an embedded file, or what pypdf cannot read."""
    try:
        found = reader.get_object(number)
        if found is None or found.get("/Subtype") == "/Image" or \
                found.get("/Type") == "/EmbeddedFile":
            return None
        raw = getattr(found, "_data", None)
    except Exception:  # a damaged object: the readers fail on it as pypdf did
        return None
    return raw if isinstance(raw, bytes) else None


def _nested(data: Any, start: int, end: int) -> bool:
    """Whether a stream's Flate data inflates to more Flate data (a few bytes tell)."""
    try:
        head = zlib.decompressobj().decompress(bytes(data[start:min(end, start + 512)]), 2)
    except zlib.error:
        return False
    return ZLIB_HEADER.match(head) is not None
