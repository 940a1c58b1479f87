"""The error cells (#DIV/0!, #N/A, #REF!...) of an xlsx or xlsb sheet, which python-calamine
reads as empty, and the formula cells of an xlsx sheet that hold no value.

A spreadsheet shows an error where a formula fails, and a blank in its place
reads as "no value". Only xlsx sheets whose XML holds an error cell at all (seen
while their span is scanned) are read a second time, a row at a time, for the
``<c t="e">`` elements; no tree is built. An xlsb sheet's records are walked once
(``biff12``).

A workbook written by a program that does not calculate (openpyxl, many report
generators) keeps each formula without its result: the cell shows the formula
(``=SUM(B2:B3)``) rather than a blank where a total should be. A formula shared
from another cell is written only there, so such a cell stays empty.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from html import unescape
from typing import IO

from goblin_office import biff12
from goblin_office.containers import open_member, read_member
from goblin_office.sheetspan import (
    CHUNK,
    column_index,
    has_error_cell,
    has_uncalculated_formula,
)

_ERROR_CELL = re.compile(
    # an error cell's start tag (not self-closing: that one holds no value), then its body
    rb"""<(?:\w+:)?c\s(?=[^>]*?\bt=["']e["'])[^>]*?\br=["']([A-Z]{1,3})([0-9]{1,7})["']"""
    rb"[^>]*(?<!/)>(.*?)</(?:\w+:)?c>",
    re.S,
)
_VALUE = re.compile(rb"<(?:\w+:)?v>([^<]*)</(?:\w+:)?v>")
_UNCALCULATED_CELL = re.compile(
    # a cell whose body is a formula with its text, then no value or an empty one
    rb"""<(?:\w+:)?c\s[^>]*?\br=["']([A-Z]{1,3})([0-9]{1,7})["'][^>]*(?<!/)>\s*"""
    rb"<(?:\w+:)?f(?:\s[^>]*)?(?<!/)>([^<]+)</(?:\w+:)?f>\s*"
    rb"(?:<(?:\w+:)?v\s*/>|<(?:\w+:)?v>\s*</(?:\w+:)?v>)?\s*</(?:\w+:)?c>"
)

# (package, sheet part) -> (row, column), 0-based -> the error the cell shows
ErrorReader = Callable[[zipfile.ZipFile, str], dict[tuple[int, int], str]]


def error_cells(archive: zipfile.ZipFile, path: str) -> dict[tuple[int, int], str]:
    """(row, column), 0-based, -> the error an error cell of the sheet part ``path`` shows."""
    found: dict[tuple[int, int], str] = {}
    with open_member(archive, path) as stream:
        for window in _row_windows(stream):
            if has_error_cell(window):
                for match in _ERROR_CELL.finditer(window):
                    letters, row, body = match.groups()
                    value = _VALUE.search(body)
                    if value is not None and value.group(1).strip():
                        text = value.group(1).decode("utf-8", "replace").strip()
                        found[int(row) - 1, column_index(letters)] = text
            if has_uncalculated_formula(window):
                for match in _UNCALCULATED_CELL.finditer(window):
                    letters, row, formula = match.groups()
                    text = unescape(formula.decode("utf-8", "replace").strip())
                    found.setdefault((int(row) - 1, column_index(letters)), f"={text}")
    return found


def uncalculated_warnings(sheet: str, found: dict[tuple[int, int], str]) -> list[tuple[str, str]]:
    """The ``UncalculatedFormulas`` warning for sheet ``sheet`` when the cells ``error_cells``
    ``found`` there hold formulas saved without their results, else none."""
    formulas = sum(text.startswith("=") for text in found.values())
    if not formulas:
        return []
    return [("UncalculatedFormulas", (
        f"sheet {sheet!r}: {formulas:,} formula cell(s) hold no value (the workbook was saved "
        "without calculating them); each shows its formula instead"))]


def xlsb_error_cells(archive: zipfile.ZipFile, path: str) -> dict[tuple[int, int], str]:
    """(row, column), 0-based, -> the error an error cell of the xlsb sheet part ``path`` shows."""
    return biff12.error_cells(read_member(archive, path, archive.filename or path))


def _row_windows(stream: IO[bytes]) -> Iterator[bytes]:
    """Pieces of the stream that end where a row tag ends, so no cell is cut in two."""
    tail = b""
    while True:
        chunk = stream.read(CHUNK)
        window = tail + chunk
        if not chunk:
            yield window
            return
        end = window.rfind(b"row>")
        if end < 0:
            tail = window
            continue
        end += len(b"row>")
        yield window[:end]
        tail = window[end:]


def with_errors(
    rows: Iterable[list[str]], errors: dict[tuple[int, int], str], first_column: int
) -> Iterator[list[str]]:
    """``rows`` (from row 0, from ``first_column``) with the error cells filled in, and
    the rows after the last one that hold only error cells (calamine drops an xlsb
    formula whose result is an error)."""
    by_row: dict[int, list[tuple[int, str]]] = {}
    for (row, column), text in errors.items():
        by_row.setdefault(row, []).append((column - first_column, text))
    number = -1
    for number, cells in enumerate(rows):
        yield _filled(cells, by_row.get(number, ()))
    for row in range(number + 1, max(by_row, default=-1) + 1):
        yield _filled([], by_row.get(row, ()))


def _filled(cells: list[str], errors: Iterable[tuple[int, str]]) -> list[str]:
    for column, text in errors:
        if column < 0:
            continue
        if column >= len(cells):
            cells.extend([""] * (column + 1 - len(cells)))
        if not cells[column]:
            cells[column] = text
    return cells
