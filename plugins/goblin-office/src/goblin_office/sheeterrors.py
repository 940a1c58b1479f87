"""The error cells (#DIV/0!, #N/A, #REF!...) of an xlsx sheet, which python-calamine reads as empty.

A spreadsheet shows an error where a formula fails, and a blank in its place
reads as "no value". Only sheets whose XML holds an error cell at all (seen
while their span is scanned) are read a second time, a row at a time, for the
``<c t="e">`` elements; no tree is built.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Iterator
from typing import IO

from goblin_office.sheetspan import CHUNK, column_index, has_error_cell

_ERROR_CELL = re.compile(
    # an error cell's start tag (not self-closing: that one holds no value), then its body
    rb"""<(?:\w+:)?c\s(?=[^>]*?\bt=["']e["'])[^>]*?\br=["']([A-Z]{1,3})([0-9]{1,7})["']"""
    rb"[^>]*(?<!/)>(.*?)</(?:\w+:)?c>",
    re.S,
)
_VALUE = re.compile(rb"<(?:\w+:)?v>([^<]*)</(?:\w+:)?v>")


def error_cells(archive: zipfile.ZipFile, path: str) -> dict[tuple[int, int], str]:
    """(row, column), 0-based, -> the error an error cell of the sheet part ``path`` shows."""
    found: dict[tuple[int, int], str] = {}
    with archive.open(path) as stream:
        for window in _row_windows(stream):
            if not has_error_cell(window):
                continue
            for match in _ERROR_CELL.finditer(window):
                letters, row, body = match.groups()
                value = _VALUE.search(body)
                if value is not None and value.group(1).strip():
                    text = value.group(1).decode("utf-8", "replace").strip()
                    found[int(row) - 1, column_index(letters)] = text
    return found


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
    """``rows`` (from row 0, from ``first_column``) with the error cells filled in."""
    by_row: dict[int, list[tuple[int, str]]] = {}
    for (row, column), text in errors.items():
        by_row.setdefault(row, []).append((column - first_column, text))
    for number, cells in enumerate(rows):
        for column, text in by_row.get(number, ()):
            if column < 0:
                continue
            if column >= len(cells):
                cells.extend([""] * (column + 1 - len(cells)))
            if not cells[column]:
                cells[column] = text
        yield cells
