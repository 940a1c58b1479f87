"""The number format of each xlsx cell, for cells written as Excel shows them.

python-calamine gives cell values without their styles. The styles are cheap
to get without loading the workbook a second time: ``styles.xml`` maps a
style index to a format code (``cellXfs`` -> ``numFmtId`` -> ``numFmts`` or the
built-in table), and the sheet XML is scanned with one regular expression for
the ``<c>`` elements whose ``s`` attribute names a style worth rendering, in
document order, a chunk at a time (openpyxl takes ten times longer and holds
the sheet). Cells with General, text or (unless asked) date formats are not
even matched.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import IO, Any

from goblin_core.errors import CorruptDocument, GoblinError
from goblin_core.source import Source
from goblin_office import biff12
from goblin_office.cells import cell_text
from goblin_office.containers import open_member, read_member
from goblin_office.dateformat import excel_serial
from goblin_office.numberformat import NumberFormat, compile_format, general_text
from goblin_office.olecheck import open_compound_file
from goblin_office.safexml import attr, children, descendants
from goblin_office.sheetextras import WorkbookXml
from goblin_office.sheetspan import CHUNK, column_index, inflated_prefix, tag_windows

log = logging.getLogger(__name__)

# ECMA-376 Part 1, 18.8.30: the formats ids 0-49 stand for without a numFmt element
# (ids 5-8 and 23-36 are locale-dependent and left to the file's own numFmts).
BUILTIN_FORMATS = {
    0: "General",
    1: "0",
    2: "0.00",
    3: "#,##0",
    4: "#,##0.00",
    9: "0%",
    10: "0.00%",
    11: "0.00E+00",
    12: "# ?/?",
    13: "# ??/??",
    14: "m/d/yyyy",
    15: "d-mmm-yy",
    16: "d-mmm",
    17: "mmm-yy",
    18: "h:mm AM/PM",
    19: "h:mm:ss AM/PM",
    20: "h:mm",
    21: "h:mm:ss",
    22: "m/d/yyyy h:mm",
    37: "#,##0 ;(#,##0)",
    38: "#,##0 ;[Red](#,##0)",
    39: "#,##0.00;(#,##0.00)",
    40: "#,##0.00;[Red](#,##0.00)",
    45: "mm:ss",
    46: "[h]:mm:ss",
    47: "mmss.0",
    48: "##0.0E+0",
    49: "@",
}
_MAX_ALTERNATIVES = 512
_REF = re.compile(rb"""\sr=["']([A-Z]{1,3})([0-9]{1,7})["']""")
_STYLE = re.compile(rb"""\ss=["']([0-9]{1,6})["']""")


class WorkbookFormats:
    """Number formats of an xlsx package's cells, sheet by sheet (the package stays open)."""

    def __init__(
        self,
        archive: zipfile.ZipFile,
        styles: dict[int, NumberFormat],
        sheets: dict[str, str],
        name: str,
    ) -> None:
        self.archive = archive
        self.styles = styles
        self.sheets = sheets
        self.name = name
        self._by_id = {str(i).encode(): f for i, f in styles.items()}
        longest_first: list[bytes] = sorted(self._by_id, key=len, reverse=True)
        ids = b"|".join(longest_first)
        if len(self._by_id) > _MAX_ALTERNATIVES:
            ids = rb"[0-9]{1,6}"  # a huge alternation compiles slowly: match any, filter after
        # Excel, LibreOffice, openpyxl and XlsxWriter write r, then s: one match gives all
        self._canonical = re.compile(
            rb'<c r="([A-Z]{1,3})([0-9]{1,7})"(?: t="\w+")? s="(' + ids + rb')"'
        )
        self._any_order = re.compile(rb"<(?:\w+:)?c\s[^>]*?\bs=[\"'](?:" + ids + rb")[\"'][^>]*>")
        self._columns: dict[bytes, int] = {}

    @classmethod
    def load(cls, reader: WorkbookXml, *, dates: bool) -> WorkbookFormats | None:
        """The formats of an open, checked xlsx package, or None when no cell needs one.

        The package must stay open while ``cells`` is read. A damaged styles part
        costs only the display formats: the cells are kept.
        """
        try:
            styles = _styles(reader, dates)
            sheets = dict(reader.sheets()) if styles else {}
        except GoblinError as exc:
            log.warning("%s: number formats skipped: %s", reader.name, exc)
            return None
        if not styles or not sheets:
            return None
        return cls(reader.archive, styles, sheets, reader.name)

    def cells(
        self, sheet: str, archive: zipfile.ZipFile | None = None
    ) -> Iterator[tuple[int, int, NumberFormat]]:
        """(row, column, format) of the formatted cells of ``sheet``, 0-based, in order;
        read from ``archive`` when given (a mended copy of the package), else from the
        package the formats were loaded from."""
        path = self.sheets.get(sheet)
        if path is None:
            return
        try:
            yield from self._scan(path, archive or self.archive)
        except (CorruptDocument, zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError,
                KeyError) as exc:
            # the cells themselves come from calamine; only their formats stop here
            log.warning("%s: number formats of %r stop: %s", self.name, sheet, exc)

    def _scan(
        self, path: str, archive: zipfile.ZipFile
    ) -> Iterator[tuple[int, int, NumberFormat]]:
        pattern: re.Pattern[bytes] | None = None
        with open_member(archive, path, self.name) as stream:
            for window, cut in tag_windows(stream):
                pattern = pattern or _pick(self._canonical, self._any_order, window)
                if pattern is self._canonical:
                    yield from self._canonical_cells(window, cut)
                elif not (yield from self._any_order_cells(window, cut)):
                    return

    def _canonical_cells(self, window: bytes, cut: int) -> Iterator[tuple[int, int, NumberFormat]]:
        columns = self._columns
        for match in self._canonical.finditer(window, 0, cut):
            letters, row, style = match.groups()
            found = self._by_id.get(style)
            if found is None:
                continue
            column = columns.get(letters)
            if column is None:
                column = columns[letters] = column_index(letters)
            yield int(row) - 1, column, found

    def _any_order_cells(
        self, window: bytes, cut: int
    ) -> Generator[tuple[int, int, NumberFormat], None, bool]:
        """Cells of a writer with another attribute order; False when one has no reference."""
        for match in self._any_order.finditer(window, 0, cut):
            tag = match.group(0)
            found, style = _REF.search(tag), _STYLE.search(tag)
            if found is None:
                log.debug("%s: a cell without a reference; formats stop", self.name)
                return False
            if style is not None and style.group(1) in self._by_id:
                row, column = int(found.group(2)) - 1, column_index(found.group(1))
                yield row, column, self._by_id[style.group(1)]
        return True


def _styles(reader: WorkbookXml, dates: bool) -> dict[int, NumberFormat]:
    """Style index -> compiled format, for the styles that change how a value reads."""
    return {index: compiled for index, compiled in _xf_formats(reader).items()
            if dates or not compiled.is_date}


def _xf_formats(reader: WorkbookXml) -> dict[int, NumberFormat]:
    """Style index -> compiled format, for every style whose format is not General."""
    path = _styles_path(reader)
    if path is None:
        return {}
    root = reader.xml(path)
    codes = dict(BUILTIN_FORMATS)
    for formats in descendants(root, "numFmts"):
        for element in children(formats, "numFmt"):
            number = attr(element, "numFmtId")
            if number.isdigit():
                codes[int(number)] = attr(element, "formatCode")
    found: dict[int, NumberFormat] = {}
    for xfs in descendants(root, "cellXfs"):
        for index, xf in enumerate(children(xfs, "xf")):
            compiled = _compiled(codes, attr(xf, "numFmtId", "0"))
            if compiled is not None:
                found[index] = compiled
        break
    return found


def xlsb_date_styles(reader: WorkbookXml) -> biff12.DateStyles | None:
    """The date styles of an open, checked .xlsb package (``styles.bin``), and its date
    system; None when it has no styles part or one that does not read."""
    path = next((target for kind, target in reader.rels("xl/workbook.bin").values()
                 if kind.endswith("/styles") and target in reader.names), None)
    path = path or ("xl/styles.bin" if "xl/styles.bin" in reader.names else None)
    if path is None:
        return None
    try:
        defined, cell_styles = biff12.number_formats(inflated_prefix(reader.archive, path))
        date1904 = biff12.date1904(read_member(reader.archive, "xl/workbook.bin",
                                               reader.name))
    except (GoblinError, zipfile.BadZipFile, zlib.error, EOFError, OSError, KeyError) as exc:
        log.warning("%s: date styles not read: %s", reader.name, exc)
        return None
    codes = BUILTIN_FORMATS | defined
    dates: dict[int, bool] = {}
    for index, number in enumerate(cell_styles):
        compiled = compile_format(codes.get(number, ""))
        if compiled is not None and compiled.is_date:
            dates[index] = any(token.kind == "elapsed" for token in compiled.sections[0].tokens)
    return biff12.DateStyles(dates, date1904)


def _compiled(codes: dict[int, str], number: str) -> NumberFormat | None:
    if not number.isdigit():
        return None
    code = codes.get(int(number))
    return compile_format(code) if code else None


def _styles_path(reader: WorkbookXml) -> str | None:
    names = reader.names
    for kind, target in reader.rels("xl/workbook.xml").values():
        if kind.endswith("/styles") and target in names:
            return target
    return "xl/styles.xml" if "xl/styles.xml" in names else None


def _pick(canonical: re.Pattern[bytes], any_order: re.Pattern[bytes], head: bytes) -> Any:
    """The canonical pattern when every cell of the first chunk starts ``<c r="..." ``."""
    cells = head.count(b"<c ")
    return canonical if cells and head.count(b'<c r="') == cells else any_order


def display_rows(
    rows: Iterable[Sequence[Any]],
    styled: Iterator[tuple[int, int, NumberFormat]],
    *,
    first_column: int = 0,
    dates: bool = False,
    comma: bool = False,
) -> Iterator[list[str]]:
    """Rows of values as text, the ``styled`` cells (row, column, format) as Excel shows them.

    ``rows`` start at row 0 and at column ``first_column``, as calamine yields them;
    a cell a format cannot render keeps the consistent rendering.
    """
    pending = next(styled, None)
    for number, row in enumerate(rows):
        texts = [general_text(v, comma) for v in row] if comma else [cell_text(v) for v in row]
        while pending is not None and pending[0] < number:
            pending = next(styled, None)
        while pending is not None and pending[0] == number:
            column = pending[1] - first_column
            if 0 <= column < len(row):
                shown = pending[2].render(row[column], dates=dates, comma=comma)
                if shown is not None:
                    texts[column] = shown
            pending = next(styled, None)
        yield texts


# a date cell's opening tag (its style, a date format showing the date first), the
# formula before its value, its value
_DATE_CELL = (rb"(<(?:\w+:)?c\s[^>]*?\bs=[\"'](?:(%s)|%s)[\"'][^>]*>)"
              rb"(?:<(?:\w+:)?f\b[^>]*/>|<(?:\w+:)?f\b[^>]*>[^<]*</(?:\w+:)?f>)?"
              rb"<(?:\w+:)?v(?:\s[^>]*)?>(%s)</(?:\w+:)?v>")
# the serials calamine gives otherwise than Excel shows them: negative ones, 60 (29
# February 1900), and, under a format that shows the date, those under 1 (the
# condition: the style matched is one of those); and what a part holding one has
# somewhere (a window without any is not scanned)
_NEGATIVE_OR_60 = rb"-[^<]*|60(?:\.[0-9]*)?"
_UNDER_ONE = rb"|(?(2)(?:0(?:\.[^<]*)?|\.[^<]*|[0-9.]+[eE]-[^<]*)|(?!))"
_HINTS: tuple[bytes, ...] = (b">-", b">60")
_UNDER_ONE_HINTS = (b">0", b">.", b"E-", b"e-")
_LEAP_DAY_1900 = (1900, 2, 28)  # the day calamine gives for serial 60 too

# a sheet's cells that may hold such a serial, in document order: (row, column, serial)
Serials = Iterator[tuple[int, int, float]]


class _SheetSerials:
    """Rows corrected from the serials a workbook stores in its date cells, where calamine
    gives a value otherwise than Excel shows it.

    calamine turns every serial under 1 into a time of day: a negative one (a date
    difference gone below zero, which Excel shows as ``#####``) reads as a wrong time
    (-0.25 as 18:00, -1 as midnight); serial 60, Excel's 29 February 1900, reads as the
    28th, as 59 does; and a time shown with its date reads as 30 December 1899 (Excel:
    0 January 1900, or 1 January 1904 in the 1904 date system). A sheet's stored cells
    are read for those serials (``_serials``), in document order as calamine yields its
    rows, only once the sheet holds a value calamine may have given for one; the rows
    before the next one found pass untouched.
    """

    date1904 = False
    display = False

    def _serials(self, sheet: str, archive: zipfile.ZipFile | None) -> Serials | None:
        raise NotImplementedError

    def corrected(
        self, sheet: str, rows: Iterable[list[Any]], first_column: int = 0,
        archive: zipfile.ZipFile | None = None,
    ) -> Iterator[list[Any]]:
        """``rows`` as calamine yields them (from row 0, from column ``first_column``), each
        value it could not give as Excel shows it replaced (``excel_serial``); ``archive``
        is a mended copy of an xlsx package to read the sheet from."""
        lookup = _SerialLookup(lambda: self._serials(sheet, archive))
        dated = {dt.time} if self.date1904 else {dt.time, dt.date, dt.datetime}
        rows = iter(rows)
        for number, row in enumerate(rows):
            if dated.isdisjoint(map(type, row)):
                yield row
                continue
            next_row = lookup.next_row(number)
            if next_row is None:
                yield row
                break  # no such cell left in the sheet
            if next_row == number:
                for column, value in enumerate(row):
                    if _ambiguous(value, self.date1904):
                        serial = lookup.serial(number, column + first_column)
                        if serial is not None:
                            row[column] = excel_serial(serial, value, date1904=self.date1904,
                                                       with_date=self.display)
            yield row
        yield from rows


class DateSerials(_SheetSerials):
    """The serials of an xlsx's date cells (see ``_SheetSerials``), found in its sheet parts
    with one regular expression for the date cells holding one calamine misreads."""

    def __init__(
        self, archive: zipfile.ZipFile, style_ids: set[bytes], dated_ids: set[bytes],
        sheets: dict[str, str], name: str, *, date1904: bool, display: bool,
    ) -> None:
        self.archive = archive
        self.sheets = sheets
        self.name = name
        self.date1904 = date1904
        self.display = display
        self.style_ids = style_ids
        # a time of day under a format without its date reads as calamine gives it
        shown_with_date = style_ids & dated_ids if display else set()
        values, self.hints = _NEGATIVE_OR_60, _HINTS
        if shown_with_date:
            values, self.hints = values + _UNDER_ONE, _HINTS + _UNDER_ONE_HINTS
        self.cell = re.compile(_DATE_CELL % (_alternatives(shown_with_date),
                                             _alternatives(style_ids - shown_with_date),
                                             values))

    @classmethod
    def load(cls, reader: WorkbookXml, *, display: bool) -> DateSerials | None:
        """The date cells' serials of an open, checked xlsx package, or None when no style
        formats a date (calamine then gives no date) or the parts cannot tell.
        ``display``: values are shown under their formats (times with their date too)."""
        try:
            formats = _xf_formats(reader)
            ids = {str(index).encode() for index, compiled in formats.items()
                   if compiled.is_date}
            dated = {str(index).encode() for index, compiled in formats.items()
                     if compiled.shows_date}
            if not ids:
                return None
            sheets = dict(reader.sheets())
            date1904 = any(attr(properties, "date1904").lower() in ("1", "true")
                           for properties in descendants(reader.xml("xl/workbook.xml"),
                                                         "workbookPr"))
        except GoblinError as exc:
            log.warning("%s: date serials not read: %s", reader.name, exc)
            return None
        return cls(reader.archive, ids, dated, sheets, reader.name, date1904=date1904,
                   display=display)

    def _serials(self, sheet: str, archive: zipfile.ZipFile | None) -> Serials | None:
        path = self.sheets.get(sheet)
        return None if path is None else self._scan(path, archive or self.archive)

    def _scan(self, path: str, archive: zipfile.ZipFile) -> Serials:
        try:
            with open_member(archive, path, self.name) as stream:
                for window, cut in _cell_windows(stream):
                    if not any(hint in window for hint in self.hints):
                        continue
                    for match in self.cell.finditer(window, 0, cut):
                        tag, _, value = match.groups()
                        found, style = _REF.search(tag), _STYLE.search(tag)
                        if found is None or style is None or \
                                style.group(1) not in self.style_ids:
                            continue
                        try:
                            serial = float(value)
                        except ValueError:
                            continue
                        yield int(found.group(2)) - 1, column_index(found.group(1)), serial
        except (CorruptDocument, zipfile.BadZipFile, zlib.error, EOFError, OSError,
                ValueError, KeyError) as exc:
            # the values stay as calamine gives them
            log.warning("%s: date serials of %s stop: %s", self.name, path, exc)


# BIFF8 records: BOF (its version), BOUNDSHEET (a sheet's BOF offset and name), DATEMODE
# (the 1904 system), FILEPASS (the records after it are encrypted), EOF; and the records
# of number cells: NUMBER, RK, MULRK (a run of RK cells), FORMULA (its cached result)
_BOF8, _BOUNDSHEET, _DATEMODE, _FILEPASS, _EOF = 0x0809, 0x0085, 0x0022, 0x002F, 0x000A
_NUMBER, _RK, _MULRK, _FORMULA = 0x0203, 0x027E, 0x00BD, 0x0006
_BIFF8 = 0x0600
_CELL = struct.Struct("<HH")  # row, column
_DOUBLE = struct.Struct("<d")
_RK_CELL = struct.Struct("<HI")  # format, RK number
_U16 = struct.Struct("<H")


class BiffDateSerials(_SheetSerials):
    """The serials of an .xls's number cells (see ``_SheetSerials``), read from the
    records of the sheet's substream in its Workbook stream, which is read only when a
    sheet holds a value calamine may have misread. BIFF8 only (Excel 97 and later);
    encrypted records are left alone."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._stream: bytes | None = None
        self._sheets: dict[str, int] = {}

    def _serials(self, sheet: str, archive: zipfile.ZipFile | None) -> Serials | None:
        if self._stream is None:
            self._stream = self._read() or b""
        offset = self._sheets.get(sheet)
        return None if offset is None else self._scan(self._stream, offset)

    def _read(self) -> bytes | None:
        """The Workbook stream, its sheets' offsets and date system read; None when it is
        no BIFF8 stream, or encrypted."""
        try:
            with self.source.open() as stream, \
                    open_compound_file(stream, self.source.display_name) as ole:
                data = bytes(ole.openstream("Workbook").read())
        except Exception as exc:  # olefile raises OSError, ValueError, IndexError...
            log.debug("%s: date serials not read: %s", self.source.display_name, exc)
            return None
        for number, (kind, body, length) in enumerate(_substream(data, 0)):
            if number == 0 and (kind != _BOF8 or length < 2
                                or _U16.unpack_from(data, body)[0] != _BIFF8):
                return None
            if kind == _FILEPASS:
                return None
            if kind == _BOUNDSHEET and length >= 8:
                name = _short_string(data[body + 6:body + length])
                if name is not None:
                    self._sheets[name] = struct.unpack_from("<I", data, body)[0]
            elif kind == _DATEMODE and length >= 2:
                self.date1904 = _U16.unpack_from(data, body)[0] == 1
        return data

    def _scan(self, substream: bytes, offset: int) -> Serials:
        """(row, column, serial) of the number cells holding a negative serial or 60 in the
        sheet whose substream starts at ``offset``."""
        for kind, body, length in _substream(substream, offset):
            if length < 10:
                continue
            row, column = _CELL.unpack_from(substream, body)
            if kind == _NUMBER and length >= 14:
                values = [(column, _DOUBLE.unpack_from(substream, body + 6)[0])]
            elif kind == _FORMULA and length >= 14:
                if substream[body + 12:body + 14] == b"\xff\xff":
                    continue  # a string, boolean, error or empty result
                values = [(column, _DOUBLE.unpack_from(substream, body + 6)[0])]
            elif kind == _RK:
                values = [(column, biff12.rk_number(_RK_CELL.unpack_from(substream,
                                                                         body + 4)[1]))]
            elif kind == _MULRK:
                values = [(column + index, biff12.rk_number(_RK_CELL.unpack_from(
                    substream, start)[1])) for index, start in
                          enumerate(range(body + 4, body + length - 2 - 5, 6))]
            else:
                continue
            for place, serial in values:
                if _misread(serial):
                    yield row, place, float(serial)


def _substream(data: bytes, offset: int) -> Iterator[tuple[int, int, int]]:
    """(type, body offset, body length) of the records from ``offset`` to the substream's
    EOF record, or to the first one cut short."""
    head = _CELL  # a record starts with its type and length, two 16-bit numbers
    while offset + head.size <= len(data):
        kind, length = head.unpack_from(data, offset)
        start = offset + head.size
        if start + length > len(data):
            return
        yield kind, start, length
        if kind == _EOF:
            return
        offset = start + length


class XlsbDateSerials(_SheetSerials):
    """The serials of an .xlsb's number cells (see ``_SheetSerials``), read from the
    records of the sheet part when a sheet holds a value calamine may have misread."""

    def __init__(self, archive: zipfile.ZipFile, sheets: dict[str, str], name: str) -> None:
        self.archive = archive
        self.sheets = sheets
        self.name = name
        self._system_read = False

    def _serials(self, sheet: str, archive: zipfile.ZipFile | None) -> Serials | None:
        path = self.sheets.get(sheet)
        if path is None:
            return None
        try:
            if not self._system_read:
                self._system_read = True
                self.date1904 = biff12.date1904(read_member(self.archive, "xl/workbook.bin",
                                                            self.name))
            part = inflated_prefix(self.archive, path)
        except (GoblinError, zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            log.warning("%s: date serials of %s not read: %s", self.name, path, exc)
            return None
        return ((row, column, serial) for row, column, serial in biff12.number_cells(part)
                if _misread(serial))


def _misread(serial: float) -> bool:
    """A serial calamine gives otherwise than Excel shows it in any date format: a
    negative one, or 29 February 1900 (see ``_SheetSerials``)."""
    return serial < 0 or 60 <= serial < 61


def _short_string(data: bytes) -> str | None:
    """A BIFF8 ShortXLUnicodeString (a sheet's name): a count of characters, a flag
    (compressed Latin-1 or UTF-16), the characters."""
    if len(data) < 2:
        return None
    count, wide = data[0], data[1] & 1
    text = data[2:2 + count * (2 if wide else 1)]
    return text.decode("utf-16-le" if wide else "latin-1", "replace")


def _alternatives(style_ids: set[bytes]) -> bytes:
    """A pattern matching the style indexes ``style_ids`` (none: nothing)."""
    if not style_ids:
        return b"(?!)"
    if len(style_ids) > _MAX_ALTERNATIVES:
        return rb"[0-9]{1,6}"  # a huge alternation compiles slowly: match any, filter after
    longest_first: list[bytes] = sorted(style_ids, key=len, reverse=True)
    return b"|".join(longest_first)


def _ambiguous(value: Any, date1904: bool) -> bool:
    """A value calamine may have given for a serial it cannot show (see _SheetSerials)."""
    kind = type(value)
    if kind is dt.time:
        return True
    if date1904 or kind not in (dt.date, dt.datetime):
        return False
    return (value.year, value.month, value.day) == _LEAP_DAY_1900


class _SerialLookup:
    """A sheet's serials (``Serials``), read forward on demand from the first call."""

    def __init__(self, start: Callable[[], Serials | None]) -> None:
        self._start = start
        self._cells: Serials | None = None
        self._pending: tuple[int, int, float] | None = None

    def next_row(self, row: int = 0) -> int | None:
        """The row of the next cell on row ``row`` or after; None when none is left."""
        if self._cells is None:
            self._cells = self._start() or iter(())
            self._pending = next(self._cells, None)
        while self._pending is not None and self._pending[0] < row:
            self._pending = next(self._cells, None)
        return None if self._pending is None else self._pending[0]

    def serial(self, row: int, column: int) -> float | None:
        """The serial stored at (row, column), 0-based; None when there is none such."""
        self.next_row(row)
        assert self._cells is not None
        while self._pending is not None and self._pending[:2] < (row, column):
            self._pending = next(self._cells, None)
        if self._pending is None or self._pending[:2] != (row, column):
            return None
        return self._pending[2] if math.isfinite(self._pending[2]) else None


def _cell_windows(stream: IO[bytes]) -> Iterator[tuple[bytes, int]]:
    """(window, cut) pairs covering ``stream``: every cell that starts before ``cut`` ends
    in the window, what follows the last closed cell carried into the next window (when a
    window closes none, what follows its last tag, so the carry stays a chunk or two)."""
    tail = b""
    while True:
        chunk = stream.read(CHUNK)
        window = tail + chunk
        if not chunk:
            yield window, len(window)
            return
        closed = max(window.rfind(b"</c>") + 4, window.rfind(b":c>") + 3)
        cut = closed if closed > 3 else window.rfind(b"<")
        cut = cut if cut > 0 else len(window)
        yield window, cut
        tail = window[cut:]
