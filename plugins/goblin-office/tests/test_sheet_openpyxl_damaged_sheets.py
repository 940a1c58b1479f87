"""A damaged sheet part costs the openpyxl reader that sheet, or its rows after the damage,
not the workbook.

A workbook calamine leaves to the streaming openpyxl reader (here a sheet with a cell at
XFD3000) failed whole when another sheet's part was damaged: the error cells scan and
openpyxl's load both stopped on it, and every sheet was lost. The rows read before the
damage are now kept (said in left_out), a part that does not inflate at all is a
failed page, and the other sheets are read.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import openpyxl
from packages import damaged

from goblin_core import Document

Read = Callable[..., Document]

ROWS = 2000


def _workbook() -> bytes:
    workbook = openpyxl.Workbook()
    sparse = workbook.active
    sparse.title = "Índice"
    sparse["A1"] = "Capa do processo"
    sparse["XFD3000"] = "Canto"  # a grid calamine would hold whole: openpyxl reads it
    lotes = workbook.create_sheet("Lotes")
    for row in range(1, ROWS + 1):
        lotes.cell(row, 1).value = f"Lote {row} " + "brita " * 8
        lotes.cell(row, 2).value = row
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_a_sheet_damaged_midway_keeps_its_rows_before_the_damage(read: Read) -> None:
    document = read(damaged(_workbook(), "xl/worksheets/sheet2.xml", at=0.5), "lotes.xlsx")
    assert document.parsed_by == ("office.openpyxl",)
    assert [(p.label, p.status) for p in document.pages] == [
        ("Índice", "clean"), ("Lotes", "clean")]
    assert "Capa do processo" in document.text and "Canto" in document.text
    rows = document.tables[1].rows
    assert 10 < len(rows) < ROWS
    assert [row[1] for row in rows] == [str(row) for row in range(1, len(rows) + 1)]
    (lost,) = _truncated(document)
    assert lost.startswith("sheet 'Lotes' is damaged (")
    assert lost.endswith(f"what it holds after its row {len(rows):,} is lost")


def test_a_sheet_that_does_not_inflate_is_a_failed_page(read: Read) -> None:
    document = read(damaged(_workbook(), "xl/worksheets/sheet2.xml"), "lotes.xlsx")
    assert document.parsed_by == ("office.openpyxl",)
    assert [(p.label, p.status) for p in document.pages] == [
        ("Índice", "clean"), ("Lotes", "failed")]
    assert "Capa do processo" in document.text and "Canto" in document.text
    assert document.status == "partially_recovered"
