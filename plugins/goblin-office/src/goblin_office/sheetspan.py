"""The rectangle an xlsx sheet's cells span, read before calamine loads the sheet.

calamine holds a sheet as one dense grid from its first used cell to its last:
two cells, at A1 and XFD1048576, make a grid of 17 billion cells, and the
allocation failure aborts the whole process (Rust does not raise). The cell
references are scanned from the sheet XML a chunk at a time, the way the
number formats are, so a sheet too wide for a dense grid goes to a streaming
reader instead.
"""

from __future__ import annotations

import re
import struct
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

from lxml import etree

from goblin_core.errors import CorruptDocument
from goblin_office.containers import MEMBER_ERRORS, open_member

CHUNK = 1 << 20
# an error cell's type attribute (#DIV/0!, #N/A...), as Excel and other writers quote it
ERROR_MARKERS = (b't="e"', b"t='e'")
# a formula that ends its cell with no value after it (or an empty one): the workbook was
# saved by a program that writes formulas without calculating them
UNCALCULATED_FORMULA = re.compile(
    rb"</(?:\w+:)?f>\s*(?:<(?:\w+:)?v\s*/>|<(?:\w+:)?v>\s*</(?:\w+:)?v>)?\s*</(?:\w+:)?c>")
_CELL_REF = re.compile(rb"""<(?:\w+:)?c\s[^>]*?\br=["']([A-Z]{1,3})([0-9]{1,7})["']""")
# a cell holding a shared string, and the string's index
_SHARED_CELL = re.compile(rb"""<(?:\w+:)?c\s[^>]*?\bt=["']s["'][^>]*>\s*<(?:\w+:)?v>(\d{1,10})<""")
# in the shared strings part: where a string starts, and the text of each run in it
# (a phonetic reading, rPh, holds a t of its own too: counting it only errs high)
_SHARED_TOKEN = re.compile(rb"<(?:\w+:)?si\b|<(?:\w+:)?t(?:\s[^>]*)?>([^<]*)")


def has_error_cell(window: bytes) -> bool:
    """Whether a piece of sheet XML may hold an error cell."""
    return any(marker in window for marker in ERROR_MARKERS)


def has_uncalculated_formula(window: bytes) -> bool:
    """Whether a piece of sheet XML holds a formula cell with no value."""
    return b"f>" in window and UNCALCULATED_FORMULA.search(window) is not None


def column_index(letters: bytes) -> int:
    """0-based column of a reference's letters (A -> 0, XFD -> 16383)."""
    column = 0
    for letter in letters:
        column = column * 26 + letter - 64
    return column - 1


def tag_windows(stream: IO[bytes]) -> Iterator[tuple[bytes, int]]:
    """(window, cut) pairs covering ``stream``: every tag that starts before ``cut`` ends in
    the window; a tag cut by the chunk boundary is carried into the next window."""
    tail = b""
    while True:
        chunk = stream.read(CHUNK)
        window = tail + chunk
        # a tag that starts before the last "<" ends before it
        cut = window.rfind(b"<") if chunk else len(window)
        cut = len(window) if cut < 0 or window.find(b">", cut) >= 0 else cut
        yield window, cut
        if not chunk:
            return
        tail = window[cut:]


@dataclass
class Span:
    """First and last row and column of the referenced cells (0-based), empty when none;
    ``errors`` when the sheet may hold an error cell, or a formula cell with no value
    (calamine reads both as empty)."""

    top: int = -1
    bottom: int = -1
    left: int = -1
    right: int = -1
    errors: bool = False
    #: how many cells the sheet writes (a styled empty cell too)
    count: int = 0
    #: how many cells show each shared string (by index)
    shared: Counter[int] = field(default_factory=Counter)

    @property
    def cells(self) -> int:
        if self.top < 0:
            return 0
        return (self.bottom - self.top + 1) * (self.right - self.left + 1)

    @property
    def reference(self) -> str:
        first, last = column_letters(self.left), column_letters(self.right)
        return f"{first}{self.top + 1}:{last}{self.bottom + 1}"

    def add(self, row: int, column: int) -> None:
        if self.top < 0:
            self.top = self.bottom = row
            self.left = self.right = column
            return
        self.top, self.bottom = min(self.top, row), max(self.bottom, row)
        self.left, self.right = min(self.left, column), max(self.right, column)


def sheet_span(archive: zipfile.ZipFile, path: str) -> Span:
    """The rectangle around every ``<c r="...">`` of the sheet part ``path``, and whether
    one of them is an error cell."""
    span = Span()
    columns: dict[bytes, int] = {}
    with open_member(archive, path) as stream:
        for window, cut in tag_windows(stream):
            span.errors = span.errors or has_error_cell(window) \
                or has_uncalculated_formula(window)
            for match in _CELL_REF.finditer(window, 0, cut):
                letters, row = match.groups()
                column = columns.get(letters)
                if column is None:
                    column = columns[letters] = column_index(letters)
                span.add(int(row) - 1, column)
                span.count += 1
            span.shared.update(int(index) for index in _SHARED_CELL.findall(window, 0, cut))
    return span


def shared_string_counts(sheet: bytes) -> Counter[int]:
    """How many cells of a sheet part's bytes show each shared string, by index."""
    return Counter(int(index) for index in _SHARED_CELL.findall(sheet))


def shared_string_lengths(archive: zipfile.ZipFile, path: str) -> list[int]:
    """The length of each string of a shared strings part, in index order, read a chunk
    at a time (a string cut by a chunk boundary may count short). A part whose deflate
    stream breaks is counted as far as it inflates: that is all a reader mending the
    workbook (``salvaged_shared_strings``) keeps of it."""
    lengths: list[int] = []
    with open_member(archive, path) as stream:
        try:
            for window, cut in tag_windows(stream):
                for match in _SHARED_TOKEN.finditer(window, 0, cut):
                    if match[1] is None:
                        lengths.append(0)
                    elif lengths:
                        lengths[-1] += len(match[1])
        except CorruptDocument:
            pass
    return lengths


def inflated_prefix(archive: zipfile.ZipFile, path: str) -> bytes:
    """Member ``path``'s bytes as far as they inflate: all of them when it is whole. A
    deflate stream that breaks midway is inflated again from its raw bytes a little at a
    time, since ``zipfile`` gives nothing of the read that meets the damage."""
    info = archive.getinfo(path)
    try:
        with archive.open(info) as stream:
            return stream.read()
    except MEMBER_ERRORS:
        pass
    if info.compress_type != zipfile.ZIP_DEFLATED or archive.fp is None:
        return b""
    archive.fp.seek(info.header_offset)
    header = archive.fp.read(_LOCAL_HEADER_SIZE)
    if len(header) < _LOCAL_HEADER_SIZE:
        return b""
    name_length, extra_length = struct.unpack_from("<HH", header, 26)
    archive.fp.seek(info.header_offset + _LOCAL_HEADER_SIZE + name_length + extra_length)
    raw = archive.fp.read(info.compress_size)
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    inflated: list[bytes] = []
    left = info.file_size  # as checked against the container limits
    for start in range(0, len(raw), _INFLATE_STEP):
        try:
            piece = inflater.decompress(raw[start : start + _INFLATE_STEP], left)
        except zlib.error:
            break
        inflated.append(piece)
        left -= len(piece)
        if left <= 0 or inflater.eof:
            break
    return b"".join(inflated)


_LOCAL_HEADER_SIZE = 30
# the raw bytes fed to the inflater at once: what is lost before the damage at most
_INFLATE_STEP = 256
_MAIN_NAMESPACE = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_SST_START = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)sst\b[^>]*>")
# where a shared string ends: its closing tag, or the whole of an empty one
_SI_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?si\s*>|<(?:[A-Za-z_][\w.-]*:)?si\s*/>")


@dataclass
class SalvagedStrings:
    """A shared strings part rebuilt from the complete strings of a damaged one."""

    #: the well-formed part: the strings kept, then empty ones up to the count asked for
    part: bytes
    #: how many strings, from index 0, were kept
    kept: int


def salvaged_shared_strings(
    body: bytes, needed: int, complete: bool = True
) -> SalvagedStrings:
    """The shared strings part ``body`` (cut short, or damaged after some strings) with the
    strings that end before the damage, and empty ones after them up to index
    ``needed - 1``, so every cell that shows a string still finds one. With ``complete``
    false, or when not even the part's opening tag is left, none is kept."""
    opening = _SST_START.search(body) if complete else None
    if opening is None:
        start, prefix = b'<sst xmlns="' + _MAIN_NAMESPACE + b'">', b""
    else:
        start, prefix = body[: opening.end()], opening[1]
    kept = 0
    end = len(start)
    if opening is not None:
        for match in _SI_END.finditer(body, opening.end()):
            end, kept = match.end(), kept + 1
    padding = b"<" + prefix + b"si/>"
    return SalvagedStrings(
        start + body[len(start):end] + padding * max(0, needed - kept)
        + b"</" + prefix + b"sst>", kept)


_ROW_END = re.compile(rb"</((?:[A-Za-z_][\w.-]*:)?)row\s*>")
_ROW_NUMBER = re.compile(rb"""<(?:[A-Za-z_][\w.-]*:)?row\s[^>]*?\br=["'](\d{1,7})["']""")


@dataclass
class SalvagedSheet:
    """A sheet part closed after the last row that ends before its damage."""

    part: bytes
    #: the number (1-based) of the last row kept, 0 when it gives none
    last_row: int


def salvaged_sheet(body: bytes) -> SalvagedSheet | None:
    """The sheet part ``body``, cut short or as far as it inflated, closed after its last
    whole row; None when no row ends in it."""
    last = None
    for match in _ROW_END.finditer(body, 0, _well_formed_length(body)):
        last = match
    if last is None:
        return None
    prefix = last[1]
    start = body.rfind(b"<" + prefix + b"row", 0, last.start())
    numbered = _ROW_NUMBER.match(body, start) if start >= 0 else None
    closing = b"</" + prefix + b"sheetData></" + prefix + b"worksheet>"
    return SalvagedSheet(body[: last.end()] + closing, int(numbered[1]) if numbered else 0)


_CELL = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)c\b([^>]*?)(?<!/)>(.*?)</\1c\s*>", re.S)
_CELL_TYPE = re.compile(rb"""\bt\s*=\s*["']([^"']*)["']""")
_CELL_VALUE = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?)v\s*>([^<]*)</\1v\s*>")
#: a number as calamine parses a cell's value: no spaces around it, no unit after it
_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


@dataclass
class MendedSheet:
    """A sheet part whose number cells that hold no number were mended."""

    part: bytes
    #: the references of the cells mended (A1, C7...), in the part's order
    cells: list[str]


def mended_number_cells(body: bytes) -> MendedSheet | None:
    """The sheet part ``body`` with each number cell whose value is no number (blank,
    spaces around a number, a number with a unit or a word written after it, as some
    exporters write) mended: a number between spaces is the number, blanks leave the
    cell empty, anything else is kept as the text it is. calamine refuses the whole
    sheet over one such cell. None when the part has none."""
    cells: list[str] = []

    def mend(cell: re.Match[bytes]) -> bytes:
        prefix, attributes, inner = cell[1], cell[2], cell[3]
        kind = _CELL_TYPE.search(attributes)
        if kind is not None and kind[1] not in (b"", b"n"):
            return cell[0]
        value = _CELL_VALUE.search(inner)
        if value is None or _NUMBER.fullmatch(value[2]):
            return cell[0]
        reference = re.search(rb"""\br\s*=\s*["']([^"']*)["']""", attributes)
        cells.append(reference[1].decode("ascii", "replace") if reference else "?")
        written = value[2].strip()
        if _NUMBER.fullmatch(written):
            inner = inner[: value.start(2)] + written + inner[value.end(2) :]
        elif not written:
            inner = inner[: value.start()] + inner[value.end() :]
        elif re.search(rb"<" + re.escape(prefix) + rb"f\b", inner):
            # a formula's result: its text, as a formula giving text keeps it
            attributes = _CELL_TYPE.sub(b"", attributes) + b' t="str"'
            inner = inner[: value.start(2)] + written + inner[value.end(2) :]
        else:
            attributes = _CELL_TYPE.sub(b"", attributes) + b' t="inlineStr"'
            inner = (inner[: value.start()] + b"<" + prefix + b"is><" + prefix + b"t>"
                     + written + b"</" + prefix + b"t></" + prefix + b"is>"
                     + inner[value.end() :])
        return b"<" + prefix + b"c" + attributes + b">" + inner + b"</" + prefix + b"c>"

    mended = _CELL.sub(mend, body)
    return MendedSheet(mended, cells) if cells else None


def _well_formed_length(body: bytes) -> int:
    """How much of ``body`` is read as XML before a syntax error (all of it when there is
    none before its end): damage that inflates, as a broken deflate stream may, into
    bytes that are no XML, is not kept. A column counting characters, not bytes, only
    places the error earlier."""
    parser = etree.XMLPullParser(events=("end",), resolve_entities=False, no_network=True,
                                 huge_tree=True, load_dtd=False)
    try:
        for start in range(0, len(body), CHUNK):
            parser.feed(body[start : start + CHUNK])
            for _event, element in parser.read_events():
                element.clear()  # only where the XML breaks is wanted, not its tree
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        offset = 0
        for _ in range(max(line - 1, 0)):
            offset = body.find(b"\n", offset) + 1
            if offset <= 0:
                return len(body)
        return offset + max(column - 1, 0)
    return len(body)


def column_letters(column: int) -> str:
    """The letters of a 0-based column (0 -> A, 16383 -> XFD)."""
    letters = ""
    number = column + 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def copies_refused(name: str, cells: int, total: int) -> CorruptDocument:
    """The refusal of a workbook whose ``cells`` show shared strings ``total`` characters
    long in all: more than a document may hold, which calamine would spell out before
    a single row could be cut."""
    return CorruptDocument(
        f"its cells show shared strings {cells:,} times over, {total:,} characters, more "
        "than limits.max_output_chars; calamine would copy each one into every cell, so "
        "a reader that keeps one copy of each takes it",
        file=name,
    )
