"""An .xlsb whose sheet or shared strings part is cut short, or stops inflating midway,
says what it lost.

goblin's record reader (``office.xlsb_records``, which takes an .xlsb calamine refuses)
stops at the first record cut short: a sheet part cut in half gave half its rows, and a
shared strings part cut in half left the cells showing the rest empty, and both read as
clean. A part whose deflate stream broke failed the whole workbook. The records before
the damage are read, and the loss is said in left_out (read in part).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable

import pytest
from packages import damaged, rewrite, xlsb

from goblin_core import Document

Read = Callable[..., Document]

ROWS = 300
SHEET, STRINGS = "xl/worksheets/sheet1.bin", "xl/sharedStrings.bin"
RECORDS = {"engines": {"office.calamine": {"enabled": False}}}


def _workbook() -> bytes:
    strings = [f"Lote {index:03d} " + "brita " * 20 for index in range(ROWS)]
    return xlsb("Plan", "Relação de lotes", 2.5, strings=strings,
                shared_cells=[(row, 0, row - 1) for row in range(1, ROWS + 1)])


def _member(data: bytes, member: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(member)


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def _lotes(document: Document) -> list[int]:
    return [index for index in range(ROWS) if f"Lote {index:03d} " in document.text]


@pytest.mark.parametrize("options", [{}, RECORDS])
def test_a_whole_workbook_reads_clean(read: Read, options: dict[str, object]) -> None:
    document = read(_workbook(), "lotes.xlsb", **options)
    assert _lotes(document) == list(range(ROWS))
    assert not _truncated(document)


@pytest.mark.parametrize("options", [{}, RECORDS])
@pytest.mark.parametrize("damage", ["cut", "deflate"])
def test_a_sheet_part_cut_short_keeps_its_first_rows_and_says_so(
        read: Read, options: dict[str, object], damage: str) -> None:
    data = _workbook()
    if damage == "cut":
        sheet = _member(data, SHEET)
        broken = rewrite(data, {SHEET: sheet[: len(sheet) // 2]})
    else:
        broken = damaged(data, SHEET, at=0.5)
    document = read(broken, "lotes.xlsb", **options)
    assert document.parsed_by == ("office.xlsb_records",)
    assert "Relação de lotes" in document.text
    kept = _lotes(document)
    assert kept == list(range(len(kept))) and 10 < len(kept) < ROWS
    (lost,) = _truncated(document)
    assert lost.startswith(f"sheet 'Plan' is cut short or damaged ({SHEET}): what it holds "
                           "after its row ")


@pytest.mark.parametrize("options", [{}, RECORDS])
@pytest.mark.parametrize("damage", ["cut", "deflate"])
def test_a_shared_strings_part_cut_short_says_how_many_cells_lost_their_string(
        read: Read, options: dict[str, object], damage: str) -> None:
    data = _workbook()
    if damage == "cut":
        strings = _member(data, STRINGS)
        broken = rewrite(data, {STRINGS: strings[: len(strings) // 2]})
    else:
        broken = damaged(data, STRINGS, at=0.5)
    document = read(broken, "lotes.xlsb", **options)
    assert document.parsed_by == ("office.xlsb_records",)
    kept = _lotes(document)
    assert kept == list(range(len(kept))) and 10 < len(kept) < ROWS
    (lost,) = _truncated(document)
    found = re.fullmatch(rf"the shared strings part is cut short or damaged \({STRINGS}\): "
                         r"(\d+) cells show strings lost with it", lost)
    assert found is not None
    if damage == "cut":
        assert int(found[1]) == ROWS - len(kept)
    else:  # the strings just before a break in the deflate stream may come out garbled
        assert 0 < int(found[1]) <= ROWS - len(kept)
