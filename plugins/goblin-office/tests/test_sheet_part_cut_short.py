"""An xlsx sheet whose part is cut short, or whose deflate stream breaks midway, keeps
the rows before the damage.

calamine refuses such a sheet whole: the page failed with an error naming only the XML
tag it stopped in ("(c)"), and every row written before the damage was lost. The sheet
is read again from a copy of the workbook whose part is closed after its last whole
row, and the loss is said (read in part).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import openpyxl
import pytest
from openpyxl.comments import Comment
from packages import damaged, rewrite, xlsx_parts, zip_bytes

from goblin_core import Document

Read = Callable[..., Document]

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml"
ROWS = 300
SHEET = "xl/worksheets/sheet1.xml"


def _first_cell(row: int) -> str:
    return f"Lote {row:03d} de {'brita e areia ' * (row % 7)}fim"


def _row(row: int) -> str:
    return (f'<row r="{row}"><c r="A{row}" t="inlineStr"><is><t>{_first_cell(row)}</t></is>'
            f'</c><c r="B{row}"><v>{row * 7}</v></c></row>')


def _workbook() -> bytes:
    return zip_bytes(xlsx_parts(
        {"Lotes": "".join(_row(row) for row in range(1, ROWS + 1)),
         "Resumo": '<row r="1"><c r="A1" t="inlineStr"><is><t>Total geral</t></is></c></row>'},
        sheet_end=('<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" '
                   'header="0.3" footer="0.3"/>')))


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def _check_rows_before_the_damage(document: Document) -> int:
    """The sheet's rows are those of the workbook, in order, up to some row: its number."""
    assert [(p.label, p.status) for p in document.pages] == [
        ("Lotes", "clean"), ("Resumo", "clean")]
    assert "Total geral" in document.pages[1].text
    rows = document.tables[0].rows
    assert [tuple(row) for row in rows] == [(_first_cell(row), str(row * 7))
                                            for row in range(1, len(rows) + 1)]
    (lost,) = _truncated(document)
    assert f"sheet 'Lotes' is damaged ({SHEET}: " in lost
    assert f"what it holds after row {len(rows)} is lost" in lost
    return len(rows)


def test_a_sheet_part_cut_short_keeps_its_rows_before_the_cut(read: Read) -> None:
    data = _workbook()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sheet = archive.read(SHEET)
    document = read(rewrite(data, {SHEET: sheet[: len(sheet) // 2]}), "lotes.xlsx")
    kept = _check_rows_before_the_damage(document)
    assert ROWS // 3 < kept < ROWS
    assert document.parsed_by == ("office.calamine",)


@pytest.mark.parametrize("at", [0.3, 0.7])
def test_a_sheet_part_whose_deflate_stream_breaks_keeps_its_rows_before_the_break(
        read: Read, at: float) -> None:
    document = read(damaged(_workbook(), SHEET, at=at), "lotes.xlsx")
    kept = _check_rows_before_the_damage(document)
    assert 0 < kept < ROWS


def test_a_sheet_part_cut_inside_its_first_row_is_still_a_failed_page(read: Read) -> None:
    data = _workbook()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sheet = archive.read(SHEET)
    document = read(rewrite(data, {SHEET: sheet[: sheet.index(b"</row>")]}), "lotes.xlsx")
    assert [(p.label, p.status) for p in document.pages] == [
        ("Lotes", "failed"), ("Resumo", "clean")]
    assert not _truncated(document)


def test_a_whole_sheet_part_reads_clean(read: Read) -> None:
    document = read(_workbook(), "lotes.xlsx")
    assert len(document.tables[0].rows) == ROWS
    assert not document.report.warnings


def test_the_rows_kept_of_a_damaged_sheet_show_their_formats_and_formulas(read: Read) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Custos"
    for row in range(1, 2001):
        sheet.cell(row, 1).value = f"item {row}"
        sheet.cell(row, 2).value = row * 1.5
        sheet.cell(row, 2).number_format = "#,##0.00"
        # a formula saved without its result shows the formula
        sheet.cell(row, 3).value = "=B1*2" if row % 10 == 0 else row
    buffer = io.BytesIO()
    workbook.save(buffer)
    document = read(damaged(buffer.getvalue(), SHEET, at=0.5), "custos.xlsx")
    rows = document.tables[0].rows
    assert 10 < len(rows) < 2000
    assert rows[0] == ("item 1", "1.50", "1")
    assert rows[9] == ("item 10", "15.00", "=B1*2")
    assert len(_truncated(document)) == 1


def test_a_damaged_sheet_part_keeps_the_sheet_s_comments_and_shapes(read: Read) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Obra"
    for row in range(1, 2001):
        sheet.cell(row, 1).value = f"item {row}"
    sheet["A1"].comment = Comment("Conferir o preço do cimento", "Ana")
    buffer = io.BytesIO()
    workbook.save(buffer)
    document = read(damaged(buffer.getvalue(), SHEET, at=0.5), "obra.xlsx")
    # the comments are a part of their own: the sheet part's damage does not reach them
    assert "Conferir o preço do cimento" in document.text
    assert "item 1\n" in document.text + "\n"
    assert any(w.kind == "CorruptDocument" and "headers and footers" in w.message
               for w in document.report.warnings)
