"""``StructuredExtractor(max_pdf_pages=N)`` caps the pages of PDFs only, as in GoblinTools
0.13.4: a workbook keeps every sheet's table (the cap cut it to its first N sheets), a
CSV keeps its table whatever N is (a cap below 1 made it give none), and a cap of 0
or less reads no page of a PDF (it read them all). Only goblin-office is needed, as in
the compat session: PDFs are read by a stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest
from stand_in_pdf import PDF_BYTES, read_pdfs_as
from test_parity_display_path import require_parser

from goblin_core.compat import StructuredExtractor

ROWS = [["Item", "Descrição", "Qtd", "Valor unitário"], ["1", "Caneta azul", "10", "2,50"],
        ["2", "Lápis preto", "5", "1,00"], ["3", "Borracha", "2", "0,50"]]


def workbook(path: Path) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for index, title in enumerate(["Lote 1", "Lote 2", "Lote 3"]):
        sheet = book.active if index == 0 else book.create_sheet()
        sheet.title = title
        for row in ROWS:
            sheet.append(row)
    book.save(path)
    return path


@pytest.mark.parametrize("cap", [1, 2])
def test_every_sheet_of_a_workbook_is_read_under_a_pdf_page_cap(tmp_path: Path,
                                                               cap: int) -> None:
    require_parser("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                   "office")
    path = workbook(tmp_path / "planilha.xlsx")
    document = StructuredExtractor(max_pdf_pages=cap).extract_from_file(path)
    assert [t.sheet for t in document.tables] == ["Lote 1", "Lote 2", "Lote 3"]


@pytest.mark.parametrize("cap", [0, -1, 1])
def test_a_csv_keeps_its_table_under_any_pdf_page_cap(tmp_path: Path, cap: int) -> None:
    require_parser("text/csv", "office")
    path = tmp_path / "itens.csv"
    path.write_text("\n".join(";".join(row) for row in ROWS) + "\n", encoding="utf-8")
    uncapped = StructuredExtractor().extract_from_file(path)
    capped = StructuredExtractor(max_pdf_pages=cap).extract_from_file(path)
    assert uncapped.tables and capped == uncapped


@pytest.mark.parametrize("cap", [0, -1])
def test_a_pdf_page_cap_below_one_reads_no_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                cap: int) -> None:
    registry = read_pdfs_as(monkeypatch, ["Edital de licitação", "Anexo I"])
    path = tmp_path / "edital.pdf"
    path.write_bytes(PDF_BYTES)
    assert StructuredExtractor(registry=registry).extract_from_file(path).prose
    document = StructuredExtractor(registry=registry, max_pdf_pages=cap).extract_from_file(path)
    assert document.tables == [] and document.prose == ""
    assert not (document.ok_for_items or document.has_usable_tables)
