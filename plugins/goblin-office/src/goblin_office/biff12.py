"""The BIFF12 records of an .xlsb goblin reads itself (MS-XLSB, section 2.4).

python-calamine reads an .xlsb's cells but gives an error cell (``BrtCellError``) as
empty and drops a formula whose last result was an error (``BrtFmlaError``)
altogether, where the .xlsx reader shows ``#DIV/0!`` or ``#N/A``. It also copies a
shared string into every cell that shows it, so a few kilobytes of cells showing one
long string ask for gigabytes. The sheet part is a flat stream of records, each a
type and a size written as 7-bit varints and then its payload, so the error cells
and the shared strings' uses are found in one pass over the headers, and a workbook
calamine cannot hold is read here, cell by cell, each shared string kept once.
(pyxlsb pads every row to the width the sheet declares and reads no inline string,
so it is no reader for such a workbook.)
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from goblin_office.cells import cell_text, error_text
from goblin_office.dateformat import serial_value

_ROW_HEADER = 0x00  # BrtRowHdr: the row of the cell records after it
# The cell records: a Cell (column, then style and flags: 8 bytes), then the value
_CELL_BLANK = 0x01
_CELL_RK = 0x02  # a number packed in 30 bits (RkNumber)
_CELL_ERROR = 0x03  # BrtCellError
_CELL_BOOL = 0x04
_CELL_REAL = 0x05
_CELL_STRING = 0x06  # the string in the cell (XLWideString)
_CELL_SHARED_STRING = 0x07  # BrtCellIsst: an index into the shared strings
_FORMULA_STRING = 0x08  # a formula's last result, the formula after it
_FORMULA_NUMBER = 0x09
_FORMULA_BOOL = 0x0A
_FORMULA_ERROR = 0x0B  # BrtFmlaError
_SHARED_STRING_ITEM = 0x13  # BrtSSTItem: flags, then the string (XLWideString)
_END_SHARED_STRINGS = 0xA0  # BrtEndSst: the last of the shared strings
_END_SHEET_DATA = 0x92  # BrtEndSheetData: no cell follows
_BUNDLE_SHEET = 0x9C  # BrtBundleSh: a sheet of the workbook
_WORKBOOK_PROPERTIES = 0x99  # BrtWbProp: its first flag says the 1904 date system
# the styles part: BrtFmt (a number format's id and code), then the cell formats
# (BrtXF, the second field the number format's id) between their begin and end records
_NUMBER_FORMAT, _STYLE = 0x2C, 0x2F
_BEGIN_CELL_STYLES, _END_CELL_STYLES = 0x269, 0x26A
_END_BUNDLE_SHEETS = 0x90
# BrtBundleSh's hsState; a value the format does not define leaves the sheet shown
_SHEET_STATES = {0: "visible", 1: "hidden", 2: "veryHidden"}
_ROWS, _COLUMNS = 1 << 20, 1 << 14  # an Excel 2007+ sheet's size


def records(data: bytes) -> Iterator[tuple[int, int, int]]:
    """(record type, payload start, payload size) of each record of a BIFF12 part, up to
    the first one cut short or malformed."""
    # this runs once per cell of a sheet, so the varints are decoded inline
    end = len(data)
    position = 0
    while position < end:
        kind = data[position]
        position += 1
        if kind & 0x80:  # a type takes at most two bytes
            if position >= end or data[position] & 0x80:
                return
            kind = (kind & 0x7F) | data[position] << 7
            position += 1
        size = shift = 0
        while True:  # a size takes at most four bytes
            if position >= end or shift > 21:
                return
            byte = data[position]
            position += 1
            size |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
        if position + size > end:
            return
        yield kind, position, size
        position += size


def bundle_sheets(workbook: bytes) -> Iterator[tuple[str, str, str]]:
    """(sheet name, relationship id, state) of each sheet listed in ``xl/workbook.bin``,
    the state spelt as ``xl/workbook.xml`` spells it: visible, hidden or veryHidden."""
    for kind, start, size in records(workbook):
        if kind == _END_BUNDLE_SHEETS:
            return
        if kind != _BUNDLE_SHEET or size < 8:
            continue
        payload = memoryview(workbook)[start : start + size]
        # hsState and iTabID (4 bytes each), then strRelID and strName
        (state,) = struct.unpack_from("<I", payload, 0)
        relation, position = _wide_string(payload, 8)
        name, _ = _wide_string(payload, position)
        if relation is not None and name is not None:
            yield name, relation, _SHEET_STATES.get(state, "visible")


def _wide_string(payload: memoryview, position: int) -> tuple[str | None, int]:
    """An XLWideString (a 4-byte count of UTF-16 units, then the units); None when
    the payload is too short or the string is the null one (count 0xFFFFFFFF)."""
    if position + 4 > len(payload):
        return None, position
    (count,) = struct.unpack_from("<I", payload, position)
    start, stop = position + 4, position + 4 + 2 * count
    if count == 0xFFFFFFFF or stop > len(payload):
        return None, start
    return bytes(payload[start:stop]).decode("utf-16-le", "replace"), stop


def error_cells(sheet: bytes) -> dict[tuple[int, int], str]:
    """(row, column), 0-based -> the error each error cell of a worksheet part shows,
    a formula's last result included."""
    found: dict[tuple[int, int], str] = {}
    row = 0
    for kind, start, size in records(sheet):
        if kind == _ROW_HEADER and size >= 4:
            (row,) = struct.unpack_from("<I", sheet, start)
        elif kind in (_CELL_ERROR, _FORMULA_ERROR) and size >= 9:
            # a Cell (column, then style and flags: 8 bytes), then the BErr code
            (column,) = struct.unpack_from("<I", sheet, start)
            # a damaged record must not pad a row out to billions of cells
            if column < _COLUMNS and row < _ROWS:
                found[row, column] = error_text(sheet[start + 8])
        elif kind == _END_SHEET_DATA:
            break
    return found


def shared_strings(part: bytes) -> list[str]:
    """The strings of an .xlsb shared strings part, in index order (their runs and
    phonetic text left out)."""
    return read_shared_strings(part)[0]


def read_shared_strings(part: bytes) -> tuple[list[str], bool]:
    """``shared_strings``, and whether the part runs to its end record: False when it
    is cut short or damaged, and strings after those read are lost."""
    view = memoryview(part)
    found = []
    for kind, start, size in records(part):
        if kind == _SHARED_STRING_ITEM:
            text, _ = _wide_string(view[start : start + size], 1)
            found.append(text or "")
        elif kind == _END_SHARED_STRINGS:
            return found, True
    return found, False


def shared_string_uses(sheet: bytes) -> Counter[int]:
    """How many cells of a worksheet part show each shared string, by index."""
    uses: Counter[int] = Counter()
    for kind, start, size in records(sheet):
        if kind == _CELL_SHARED_STRING and size >= 12:
            uses[struct.unpack_from("<I", sheet, start + 8)[0]] += 1
        elif kind == _END_SHEET_DATA:
            break
    return uses


@dataclass
class SheetReading:
    """What ``sheet_rows`` met, once its rows are all read."""

    #: whether the sheet part ran to its end-of-cells record (False: cut short or damaged)
    whole: bool = False
    #: cells showing a shared string ``strings`` does not hold (a part cut short)
    missing_strings: int = 0
    #: rows yielded
    rows: int = 0


@dataclass(frozen=True)
class DateStyles:
    """The cell styles of a workbook that show numbers as dates or times: style index ->
    whether its format counts elapsed time (``[h]:mm``); and its date system."""

    styles: Mapping[int, bool]
    date1904: bool = False

    def value(self, style: int, number: float) -> Any:
        """A number cell's value: the date or time its style shows, else the number."""
        elapsed = self.styles.get(style)
        if elapsed is None:
            return number
        return serial_value(number, date1904=self.date1904, elapsed=elapsed)


def number_formats(styles: bytes) -> tuple[dict[int, str], list[int]]:
    """The number format codes a styles part defines (id -> code) and the number format
    id of each cell style, in order."""
    codes: dict[int, str] = {}
    cell_styles: list[int] = []
    inside = False
    view = memoryview(styles)
    for kind, start, size in records(styles):
        if kind == _NUMBER_FORMAT and size >= 6:
            code, _ = _wide_string(view[start:start + size], 2)
            if code is not None:
                codes[struct.unpack_from("<H", styles, start)[0]] = code
        elif kind == _BEGIN_CELL_STYLES:
            inside = True
        elif kind == _END_CELL_STYLES:
            inside = False
        elif kind == _STYLE and inside and size >= 4:
            cell_styles.append(struct.unpack_from("<H", styles, start + 2)[0])
    return codes, cell_styles


def sheet_rows(
    sheet: bytes, strings: Sequence[str], reading: SheetReading | None = None,
    dates: DateStyles | None = None,
) -> Iterator[list[str]]:
    """The rows of a worksheet part as cell texts, from row 0 and column 0, a missing
    row or cell empty; a cell showing a shared string holds the one copy in ``strings``;
    a number under a date style (``dates``) as the date or time it shows, in ISO 8601.
    Rows out of order follow the row before them, and cells out of the sheet's size are
    left out: a damaged record must not pad the sheet to billions of cells. ``reading``
    is told whether the part was whole and which strings it lacked."""
    reading = reading if reading is not None else SheetReading()
    for row in _sheet_rows(sheet, strings, reading, dates or DateStyles({})):
        reading.rows += 1
        yield row


def _sheet_rows(sheet: bytes, strings: Sequence[str], reading: SheetReading,
                dates: DateStyles) -> Iterator[list[str]]:
    view = memoryview(sheet)
    row: list[str] = []
    row_number = 0
    for kind, start, size in records(sheet):
        if kind == _ROW_HEADER and size >= 4:
            (number,) = struct.unpack_from("<I", sheet, start)
            if number == row_number:
                continue
            yield row
            row = []
            if row_number < number < _ROWS:
                for _ in range(row_number + 1, number):
                    yield []
                row_number = number
            else:
                row_number += 1
        elif _CELL_RK <= kind <= _FORMULA_ERROR and size >= 8:
            column, style = struct.unpack_from("<II", sheet, start)
            text = _cell_value(kind, view, start + 8, start + size, strings, dates,
                               style & 0xFFFFFF)
            if kind == _CELL_SHARED_STRING and not text and size >= 12 \
                    and struct.unpack_from("<I", sheet, start + 8)[0] >= len(strings):
                reading.missing_strings += 1
            if column < _COLUMNS and text:
                if column >= len(row):
                    row.extend([""] * (column + 1 - len(row)))
                row[column] = text
        elif kind == _END_SHEET_DATA:
            reading.whole = True
            break
    yield row


def _cell_value(kind: int, view: memoryview, start: int, end: int,
                strings: Sequence[str], dates: DateStyles, style: int) -> str:
    """The text of a cell record's value, which runs from ``start`` to ``end``, under
    its cell style ``style``."""
    size = end - start
    if kind == _CELL_SHARED_STRING:
        (index,) = struct.unpack_from("<I", view, start) if size >= 4 else (len(strings),)
        return strings[index] if index < len(strings) else ""
    if kind in (_CELL_STRING, _FORMULA_STRING):
        text, _ = _wide_string(view[start:end], 0)
        return text or ""
    if kind in (_CELL_REAL, _FORMULA_NUMBER) and size >= 8:
        return cell_text(dates.value(style, struct.unpack_from("<d", view, start)[0]))
    if kind == _CELL_RK and size >= 4:
        return cell_text(dates.value(style, rk_number(struct.unpack_from("<I", view, start)[0])))
    if kind in (_CELL_BOOL, _FORMULA_BOOL) and size >= 1:
        return cell_text(bool(view[start]))
    if kind in (_CELL_ERROR, _FORMULA_ERROR) and size >= 1:
        return error_text(view[start])
    return ""


def number_cells(sheet: bytes) -> Iterator[tuple[int, int, float]]:
    """(row, column, value) of the number cells of a worksheet part (an RK or real
    number, a formula's number result), in the order the part holds them."""
    row = 0
    for kind, start, size in records(sheet):
        if kind == _ROW_HEADER and size >= 4:
            (row,) = struct.unpack_from("<I", sheet, start)
        elif kind == _CELL_RK and size >= 12:
            column, _, rk = struct.unpack_from("<III", sheet, start)
            yield row, column, float(rk_number(rk))
        elif kind in (_CELL_REAL, _FORMULA_NUMBER) and size >= 16:
            column, _, value = struct.unpack_from("<IId", sheet, start)
            yield row, column, value
        elif kind == _END_SHEET_DATA:
            return


def date1904(workbook: bytes) -> bool:
    """Whether ``xl/workbook.bin`` says the workbook counts dates from 1904."""
    for kind, start, size in records(workbook):
        if kind == _WORKBOOK_PROPERTIES and size >= 4:
            return bool(struct.unpack_from("<I", workbook, start)[0] & 1)
    return False


def rk_number(rk: int) -> float | int:
    """An RkNumber: bit 0 says the value was multiplied by 100, bit 1 that the other 30
    bits are a signed integer rather than the high bits of a double."""
    if rk & 0x02:
        value: float | int = (rk >> 2) - (1 << 30) if rk & 0x80000000 else rk >> 2
    else:
        value = struct.unpack("<d", struct.pack("<Q", (rk & 0xFFFFFFFC) << 32))[0]
    if rk & 0x01:
        return value / 100
    return value
