"""The few BIFF12 records of an .xlsb goblin reads itself (MS-XLSB, section 2.4).

python-calamine reads an .xlsb's cells but gives an error cell (``BrtCellError``) as
empty and drops a formula whose last result was an error (``BrtFmlaError``)
altogether, where the .xlsx reader shows ``#DIV/0!`` or ``#N/A``. The sheet part is
a flat stream of records, each a type and a size written as 7-bit varints and then
its payload, so the error cells are found in one pass over the headers.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from goblin_office.cells import error_text

_ROW_HEADER = 0x00  # BrtRowHdr: the row of the cell records after it
_CELL_ERROR = 0x03  # BrtCellError
_FORMULA_ERROR = 0x0B  # BrtFmlaError
_END_SHEET_DATA = 0x92  # BrtEndSheetData: no cell follows
_BUNDLE_SHEET = 0x9C  # BrtBundleSh: a sheet of the workbook
_END_BUNDLE_SHEETS = 0x90
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


def bundle_sheets(workbook: bytes) -> Iterator[tuple[str, str]]:
    """(sheet name, relationship id) of each sheet listed in ``xl/workbook.bin``."""
    for kind, start, size in records(workbook):
        if kind == _END_BUNDLE_SHEETS:
            return
        if kind != _BUNDLE_SHEET or size < 8:
            continue
        payload = memoryview(workbook)[start : start + size]
        # hsState and iTabID (4 bytes each), then strRelID and strName
        relation, position = _wide_string(payload, 8)
        name, _ = _wide_string(payload, position)
        if relation is not None and name is not None:
            yield name, relation


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
