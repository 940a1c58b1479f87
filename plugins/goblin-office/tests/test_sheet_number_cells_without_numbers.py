"""Number cells that hold no number cost only themselves, not their sheet.

Some exporters write a number cell's value with spaces around it, blank, or with a unit
after it (``<c t="n"><v> </v></c>``, ``<v>12 kg</v>``). Excel repairs them; calamine
refused the whole sheet ("Parse float error: invalid float literal"), a failed page.
The sheet is now read from a copy whose such cells are mended, with a warning naming
them: a number between spaces is the number, a blank cell is empty, anything else is
the text it holds.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from packages import xlsx_parts, zip_bytes

from goblin_core import Document
from goblin_office.sheetspan import mended_number_cells

Read = Callable[..., Document]


def _row(number: int, label: str, value: str, kind: str = ' t="n"') -> str:
    return (f'<row r="{number}"><c r="A{number}" t="inlineStr"><is><t>{label}</t></is></c>'
            f'<c r="B{number}"{kind}><v>{value}</v></c></row>')


_ODD = (_row(1, "peso", "12 kg") + _row(2, "total", " 42 ", kind="")
        + _row(3, "vazio", " ") + _row(4, "certo", "7.5"))


def test_a_sheet_with_number_cells_holding_no_number_is_read(read: Read) -> None:
    workbook = zip_bytes(xlsx_parts({"Dados": _ODD, "Outra": _row(1, "ok", "1")}))
    document = read(workbook, "medidas.xlsx")
    assert document.parsed_by == ("office.calamine",)
    assert [page.status for page in document.pages] == ["clean", "clean"]
    assert [list(row) for row in document.tables[0].rows] == [
        ["peso", "12 kg"], ["total", "42"], ["vazio", ""], ["certo", "7.5"]]
    assert [list(row) for row in document.tables[1].rows] == [["ok", "1"]]
    [warning] = [w for w in document.report.warnings if w.kind == "CorruptDocument"]
    assert "'Dados'" in warning.message and "B1, B2, B3" in warning.message
    assert document.status == "clean"


@pytest.mark.parametrize("cells", [
    '<c r="A1" t="s"><v>0</v></c>',  # a shared string's index
    '<c r="A1" t="str"><f>A2</f><v>texto</v></c>',  # a formula's text
    '<c r="A1" t="b"><v>1</v></c><c r="A2"/>',  # a boolean, an empty cell
    '<c r="A1"><v>-1.5E+3</v></c><col r="x"><v>no cell</v></col>',
])
def test_cells_that_are_what_they_say_are_left_alone(cells: str) -> None:
    assert mended_number_cells(cells.encode()) is None


def test_a_prefixed_sheet_part_is_mended_in_its_own_prefix() -> None:
    mended = mended_number_cells(b'<x:c r="C3"><x:v>2 m</x:v></x:c>'
                                 b'<x:c r="C4"><x:f>A1</x:f><x:v>3 m</x:v></x:c>')
    assert mended is not None and mended.cells == ["C3", "C4"]
    # a formula's result stays one, as the text a formula gives
    assert mended.part == (b'<x:c r="C3" t="inlineStr"><x:is><x:t>2 m</x:t></x:is></x:c>'
                           b'<x:c r="C4" t="str"><x:f>A1</x:f><x:v>3 m</x:v></x:c>')


def test_the_streaming_reader_of_a_sparse_sheet_mends_them_too(read: Read) -> None:
    # a cell at XFD1048576 makes the sheet sparse: the streaming openpyxl reader takes it,
    # and it stopped at the first such cell, the sheet a failed page
    far = '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>canto</t></is></c></row>'
    document = read(zip_bytes(xlsx_parts({"Dados": _ODD + far})), "esparso.xlsx")
    assert document.parsed_by == ("office.openpyxl",)
    assert document.pages[0].status == "clean"
    for cell in ("12 kg", "42", "7.5", "canto"):
        assert cell in document.text
    assert any("B1, B2, B3" in w.message for w in document.report.warnings)
