"""A sheet cut at office.max_sheet_cells says so in the document's report, whichever
reader read it: the cut is not left to the metadata and the log alone."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import openpyxl
from packages import xls

from goblin_core.model import Document


def _xlsx(rows: int, columns: int, far_corner: bool = False) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Lotes"
    for row in range(1, rows + 1):
        for column in range(1, columns + 1):
            sheet.cell(row, column).value = f"r{row}c{column}"
    if far_corner:  # a grid calamine would hold whole: the streaming reader reads it
        sheet["XFD1048576"] = "far corner"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _cuts(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_a_sheet_calamine_reads_past_the_cell_limit_is_reported_cut(
        read: Callable[..., Document]) -> None:
    # 1,000 cells: within the grid calamine is let hold (4 x the limit), cut at 300
    document = read(_xlsx(100, 10), "lotes.xlsx", office={"max_sheet_cells": 300})
    assert document.parsed_by == ("office.calamine",)
    assert len(document.tables[0].rows) == 30
    (cut,) = _cuts(document)
    assert "sheet 'Lotes' cut at office.max_sheet_cells (300 cells)" in cut
    assert not _cuts(read(_xlsx(100, 10), "lotes.xlsx"))


def test_a_sheet_xlrd_reads_past_the_cell_limit_is_reported_cut(
        read: Callable[..., Document]) -> None:
    cells = [(row, column, 0) for row in range(100) for column in range(10)]
    data = xls("Folha", ["Orçamento"], cells)
    # past the output limit an .xls goes to xlrd, which keeps each shared string once
    document = read(data, "folha.xls", office={"max_sheet_cells": 200},
                    limits={"max_output_chars": 5_000})
    assert document.parsed_by == ("office.xlrd",)
    (cut,) = _cuts(document)
    assert "sheet 'Folha' cut" in cut


def test_a_sheet_with_a_far_corner_cell_is_reported_cut(
        read: Callable[..., Any]) -> None:
    """A2 to XFD1048576 is 17 billion cells as a table: the streaming reader reads it, and
    when its values pass the limit (13 here, against 12) it stops there and the report says
    the sheet was cut rather than passing it as whole."""
    document = read(_xlsx(3, 4, far_corner=True), "canto.xlsx", office={"max_sheet_cells": 12})
    assert document.parsed_by == ("office.openpyxl",)
    assert "r3c4" in document.text
    (cut,) = _cuts(document)
    assert "sheet 'Lotes' cut" in cut
