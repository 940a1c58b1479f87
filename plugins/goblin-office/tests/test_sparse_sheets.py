"""Sheets whose few values lie far apart: every value is read while the sheet holds no
more than office.max_sheet_cells of them, as a list of cells (reference and text) rather
than a grid of millions of empty ones; and formulas saved without their results show in
the openpyxl reader as they do in calamine's."""

from __future__ import annotations

import io
from collections.abc import Callable

import openpyxl
import pytest
from bounds import bounded

from goblin_core.model import Document
from goblin_office.sparsesheet import cell_reference
from samples import flat_odf


def _xlsx(cells: dict[str, object]) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Esparsa"
    for reference, value in cells.items():
        sheet[reference] = value
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _diagonal(size: int) -> bytes:
    return _xlsx({cell_reference(index, index): f"D{index + 1}" for index in range(size)})


def _cuts(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_a_value_far_below_a_row_reaching_column_xfd_is_read(
        read: Callable[..., Document]) -> None:
    data = _xlsx({"A1": "Topo", "B1": "Vizinho", "XFD1": "Longe", "A400": "Linha400"})
    document = read(data, "esparsa.xlsx")
    (table,) = document.tables
    assert table.rows == (("A1", "Topo"), ("B1", "Vizinho"), ("XFD1", "Longe"),
                          ("A400", "Linha400"))
    assert document.pages[0].text == "Esparsa\nA1\tTopo\nB1\tVizinho\nXFD1\tLonge\nA400\tLinha400"
    assert not _cuts(document)


@pytest.mark.usefixtures("warm_plugins")
def test_a_diagonal_of_values_is_read_whole_in_bounded_time_and_memory(
        read: Callable[..., Document]) -> None:
    data = _diagonal(3000)
    with bounded(seconds=20, megabytes=120):
        document = read(data, "diagonal.xlsx")
    (table,) = document.tables
    assert len(table.rows) == 3000
    assert table.rows[0] == ("A1", "D1") and table.rows[-1] == ("DKJ3000", "D3000")
    assert len(document.text) < 60_000
    assert not _cuts(document)


def test_a_far_corner_value_is_read_with_the_cells_near_the_start(
        read: Callable[..., Document]) -> None:
    document = read(_xlsx({"A1": "Perto", "B2": 7, "XFD1048576": "Canto"}), "canto.xlsx")
    assert document.parsed_by == ("office.openpyxl",)
    assert document.tables[0].rows == (("A1", "Perto"), ("B2", "7"),
                                       ("XFD1048576", "Canto"))
    assert not _cuts(document)


def test_a_sparse_sheet_with_more_values_than_the_limit_is_still_cut(
        read: Callable[..., Document]) -> None:
    document = read(_diagonal(40), "diagonal.xlsx", office={"max_sheet_cells": 30})
    (cut,) = _cuts(document)
    assert "sheet 'Esparsa' cut at office.max_sheet_cells (30 cells)" in cut
    rows = document.tables[0].rows
    assert len(rows) * max(len(row) for row in rows) <= 30


def _ods_cell(text: str) -> str:
    return (f'<table:table-cell office:value-type="string"><text:p>{text}</text:p>'
            "</table:table-cell>")


def test_an_ods_value_below_a_row_reaching_column_xfd_is_read(
        read: Callable[..., Document]) -> None:
    body = ('<table:table table:name="Folha"><table:table-row>'
            f'{_ods_cell("Topo")}<table:table-cell table:number-columns-repeated="16382"/>'
            f"{_ods_cell('Longe')}</table:table-row>"
            '<table:table-row table:number-rows-repeated="398"><table:table-cell/>'
            f"</table:table-row><table:table-row>{_ods_cell('Linha400')}</table:table-row>"
            "</table:table>")
    document = read(flat_odf("spreadsheet", body), "esparsa.fods")
    assert document.tables[0].rows == (("A1", "Topo"), ("XFD1", "Longe"), ("A400", "Linha400"))
    assert not _cuts(document)


def test_an_ods_row_repeated_past_the_grid_keeps_each_copy_in_place(
        read: Callable[..., Document]) -> None:
    body = ('<table:table table:name="Folha"><table:table-row table:number-rows-repeated="3">'
            f'{_ods_cell("a")}<table:table-cell table:number-columns-repeated="98"/>'
            f"{_ods_cell('z')}</table:table-row></table:table>")
    document = read(flat_odf("spreadsheet", body), "repetida.fods",
                    office={"max_sheet_cells": 250})
    assert document.tables[0].rows == (("A1", "a"), ("CV1", "z"), ("A2", "a"), ("CV2", "z"),
                                       ("A3", "a"), ("CV3", "z"))
    assert not _cuts(document)


def test_a_formula_without_its_result_shows_in_the_openpyxl_reader(
        read: Callable[..., Document]) -> None:
    # the far corner makes calamine refuse the workbook: openpyxl reads it
    data = _xlsx({"A1": 2, "A2": 3, "A3": "=SUM(A1:A2)", "B3": "Depois",
                  "XFD1048576": "Canto"})
    document = read(data, "formulas.xlsx")
    assert document.parsed_by == ("office.openpyxl",)
    assert ("A3", "=SUM(A1:A2)") in document.tables[0].rows
    said = [w.message for w in document.report.warnings if w.kind == "UncalculatedFormulas"]
    assert said == ["sheet 'Esparsa': 1 formula cell(s) hold no value (the workbook was saved "
                    "without calculating them); each shows its formula instead"]


def test_a_dense_sheet_read_by_openpyxl_shows_its_uncalculated_formula_in_place(
        read: Callable[..., Document]) -> None:
    workbook = openpyxl.Workbook()
    calc = workbook.active
    calc.title = "Calc"
    calc["A1"], calc["A2"], calc["A3"], calc["B3"] = 2, 3, "=SUM(A1:A2)", "Depois"
    corner = workbook.create_sheet("Canto")
    corner["A1"], corner["XFD1048576"] = "Perto", "Longe"
    out = io.BytesIO()
    workbook.save(out)
    document = read(out.getvalue(), "formulas.xlsx")
    assert document.parsed_by == ("office.openpyxl",)
    assert document.pages[0].text == "Calc\n2\n3\n=SUM(A1:A2)\tDepois"
