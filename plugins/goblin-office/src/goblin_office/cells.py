"""Spreadsheet cell values written the same way for every engine.

Integers without ``.0``, floats in their shortest round-trip form, dates and
times in ISO 8601, booleans as TRUE/FALSE, errors as Excel shows them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from typing import Any


def cell_text(value: Any) -> str:
    """One cell as text.

    >>> [cell_text(v) for v in (3.0, 0.1 + 0.2, dt.datetime(2024, 1, 31), True, None)]
    ['3', '0.30000000000000004', '2024-01-31', 'TRUE', '']
    """
    kind = type(value)
    # the common types first, by exact type: this runs once per cell
    if kind is str:
        return value
    if kind is float:
        if value.is_integer() and -1e16 < value < 1e16:
            return str(int(value))
        return repr(value)
    if kind is int:
        return str(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return cell_text(float(value))
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0) and value.tzinfo is None:
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds" if not value.microsecond else "auto")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return _duration_text(value)
    return str(value)


def _duration_text(value: dt.timedelta) -> str:
    seconds = int(value.total_seconds())
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"


# python-calamine gives an ODS time of 24 hours or more as its raw ISO 8601 value
_ISO_DURATION = re.compile(r"(-?)PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d*)?)S)?")


def iso_durations(row: list[str]) -> list[str]:
    """A row with its ISO 8601 durations (``PT27H17M54S``) written as H:MM:SS.

    >>> iso_durations(["PT27H17M54S", "Prazo", "3"])
    ['27:17:54', 'Prazo', '3']
    """
    return [_iso_duration(cell) if "PT" in cell[:3] else cell for cell in row]


def _iso_duration(cell: str) -> str:
    match = _ISO_DURATION.fullmatch(cell)
    if match is None or cell.endswith("PT"):
        return cell
    sign, hours, minutes, seconds = match.groups()
    value = dt.timedelta(
        hours=int(hours or 0), minutes=int(minutes or 0), seconds=float(seconds or 0)
    )
    return _duration_text(-value if sign else value)


def trim_rows(rows: Iterable[Sequence[str]]) -> list[tuple[str, ...]]:
    """Drop trailing empty cells of each row and trailing empty rows."""
    trimmed: list[tuple[str, ...]] = []
    for row in rows:
        cells = list(row)
        while cells and not cells[-1].strip():
            cells.pop()
        trimmed.append(tuple(cells))
    while trimmed and not trimmed[-1]:
        trimmed.pop()
    return trimmed


def rows_text(rows: Iterable[Sequence[str]]) -> str:
    """Rows as tab-separated lines, tabs and line breaks inside cells flattened to spaces."""
    return "\n".join("\t".join(_flat(cell) for cell in row) for row in rows)


def _flat(cell: str) -> str:
    # a tab or line break kept in a cell would shift the columns or rows after it
    if "\n" in cell or "\t" in cell or "\r" in cell:
        return " ".join(cell.split())
    return cell


# C0 controls and DEL other than whitespace: a cell may hold them (Excel writes
# them as _x0001_), but they are no text, and a page of them reads as unmapped glyphs
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1f\x7f]")


def without_controls(rows: Sequence[Sequence[str]]) -> list[tuple[str, ...]] | None:
    """``rows`` with control characters dropped from their cells, or None when none has one."""
    if not any(_CONTROLS.search("".join(row)) for row in rows):
        return None
    return [tuple(_CONTROLS.sub("", cell) for cell in row) for row in rows]


# BErr: the error codes of BIFF8 (.xls) and BIFF12 (.xlsb) cells, MS-XLS 2.5.198.2 and
# MS-XLSB 2.5.98.2 (which adds #GETTING_DATA)
_ERROR_CODES = {
    0x00: "#NULL!",
    0x07: "#DIV/0!",
    0x0F: "#VALUE!",
    0x17: "#REF!",
    0x1D: "#NAME?",
    0x24: "#NUM!",
    0x2A: "#N/A",
    0x2B: "#GETTING_DATA",
}


def error_text(code: int) -> str:
    """The error a BIFF error code shows, as Excel writes it.

    >>> error_text(0x07), error_text(0x2A), error_text(0x99)
    ('#DIV/0!', '#N/A', '#ERR')
    """
    return _ERROR_CODES.get(code, "#ERR")


# how SpreadsheetML writes a character XML cannot hold, or one kept as it is typed
# (``_x000D_`` for a carriage return; ``_x005F_`` escapes the underscore of a literal one)
_ESCAPED_CHARACTER = re.compile(r"_x([0-9A-Fa-f]{4})_")


def unescaped_characters(text: str) -> str:
    r"""``text`` with SpreadsheetML's ``_xHHHH_`` escapes read as the characters they
    stand for, as Excel shows them: openpyxl leaves them in its strings, where calamine
    reads them. openpyxl has already dropped the ``x005F_`` of an escaped literal, so one
    of those (a cell typed ``_x000D_``, which Excel saves as ``_x005F_x000D_``) is read as
    the character too: cells with line breaks saved from Windows are the common case.

    >>> unescaped_characters("linha 1_x000D_\nlinha 2_x0009_fim")
    'linha 1\r\nlinha 2\tfim'
    >>> unescaped_characters("_xD83D__xDE00_ ok _x12_")
    '\U0001f600 ok _x12_'
    """
    if "_x" not in text:
        return text
    joined = _ESCAPED_CHARACTER.sub(lambda found: chr(int(found[1], 16)), text)
    # a character past the Basic Multilingual Plane is escaped as its two surrogates
    return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")

