"""StructuredExtractor over real files: PDF, XLSX, XLSM, CSV and DOCX item tables."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from goblin_core.structured import StructuredDocument, StructuredExtractor
from goblin_core.testing.corpus import corpus_dir

pytest.importorskip("goblin_office")
pytest.importorskip("goblin_pdf")

HEADER = ("ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR UNIT.", "VALOR TOTAL")
ITEMS = (
    ("1", "Areia e pedra britada", "M3", "12,50", "R$ 110,00", "R$ 1.375,00"),
    ("2", "Cimento Portland CP II", "SC", "340", "R$ 38,90", "R$ 13.226,00"),
    ("3", "Tijolo cerâmico <6 furos> & cia", "MIL", "8", "R$ 850,00", "R$ 6.800,00"),
)
BUDGET = (HEADER, *ITEMS)


def _xlsx(path: Path) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Orçamento"
    for row in BUDGET:
        sheet.append(list(row))
    book.create_sheet("Notas").append(["Preços com BDI de 25%."])
    book.save(path)
    return path


def _csv(path: Path) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, delimiter=";").writerows(BUDGET)
    return path


def _docx(path: Path) -> Path:
    import docx

    document = docx.Document()
    document.add_paragraph("Termo de referência: aquisição de materiais de construção.")
    table = document.add_table(rows=0, cols=len(HEADER))
    for row in BUDGET:
        cells = table.add_row().cells
        for cell, text in zip(cells, row, strict=True):
            cell.text = text
    document.add_paragraph("Prazo de entrega: 30 dias.")
    document.save(path)
    return path


@pytest.mark.parametrize(("maker", "name", "source"), [
    (_xlsx, "orcamento.xlsx", "xlsx"),
    (_csv, "orcamento.csv", "csv"),
    (_docx, "termo.docx", "docx"),
])
def test_budget_tables_of_office_files_are_ok_for_items(tmp_path: Path, maker, name: str,
                                                        source: str) -> None:
    path = maker(tmp_path / name)

    doc = StructuredExtractor().extract_from_file(path)

    assert doc.ok_for_items
    budget = [b for b in doc.tables if b.quality.ok_for_items]
    assert len(budget) == 1
    block = budget[0]
    assert block.source == source and block.page is None
    assert block.rows == BUDGET
    assert (block.quality.qty_parse_rate, block.quality.value_parse_rate) == (1.0, 1.0)


def test_xlsx_budget_below_a_letterhead_is_ok_for_items(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["PREFEITURA MUNICIPAL DE EXEMPLO"])
    sheet.append(["Planilha orçamentária - reforma da escola"])
    sheet.append([])
    for row in BUDGET:
        sheet.append(list(row))
    book.save(tmp_path / "planilha.xlsx")

    doc = StructuredExtractor().extract_from_file(tmp_path / "planilha.xlsx")

    assert doc.ok_for_items
    assert doc.tables[0].rows[-len(BUDGET):] == BUDGET


def test_xlsx_blocks_carry_the_sheet_name(tmp_path: Path) -> None:
    doc = StructuredExtractor().extract_from_file(_xlsx(tmp_path / "orcamento.xlsx"))

    assert [b.sheet for b in doc.tables] == ["Orçamento"], "the one-cell notes sheet is no table"


def test_docx_full_md_has_prose_and_an_escaped_html_table(tmp_path: Path) -> None:
    extractor = StructuredExtractor()
    doc = extractor.extract_from_file(_docx(tmp_path / "termo.docx"))

    out = tmp_path / "out" / "full.md"
    assert extractor.write_full_md(doc, out)
    full = out.read_text(encoding="utf-8")
    assert full.index("Termo de referência") < full.index("<table>")
    assert "<td>Tijolo cerâmico &lt;6 furos&gt; &amp; cia</td>" in full
    assert full.count("<table>") == 1


def test_corpus_xlsm_sheet_comes_out_as_a_table() -> None:
    path = corpus_dir(__file__) / "office/xlsx_02_sample_sales_data.xlsm"

    doc = StructuredExtractor().extract_from_file(path)

    block = doc.tables[0]
    assert (block.source, block.sheet) == ("xlsm", "SalesData")
    assert block.rows[:2] == (("Product", "Date", "Quantity", "Revenue"),
                              ("Widget A", "2024-01-01", "5", "5000"))
    assert doc.has_usable_tables and not doc.ok_for_items


def test_corpus_docx_tables_come_out_as_tables() -> None:
    path = corpus_dir(__file__) / "office/qd-fake_table.docx"

    doc = StructuredExtractor().extract_from_file(path)

    assert [b.rows for b in doc.tables] == [(("This is a table.",
                                              "After running tabula on this table."),
                                             ("You should see…", "… a 2x2 matrix"))]


def test_content_beats_extension() -> None:
    path = corpus_dir(__file__) / "tricky/misnamed-4.csv"

    doc = StructuredExtractor().extract_from_file(path)

    assert doc.tables and doc.tables[0].source == "xlsx"
    assert doc.tables[0].sheet == "Duck Observations"


def test_corpus_pdf_tables_keep_their_pages() -> None:
    path = corpus_dir(__file__) / "pdf/issue-625-identity-cmap.pdf"

    doc = StructuredExtractor(max_pdf_pages=1).extract_from_file(path)

    assert [(b.page, b.index) for b in doc.tables] == [(1, 0), (1, 1)]
    assert doc.tables[0].rows[0][:4] == ("Lp", "Nazwa", "Jedn", "Ilość")
    assert len(doc.page_texts) == 1


def test_borderless_pdf_budget_is_ok_for_items(tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, TableStyle
    from reportlab.platypus import Table as RLTable

    body = getSampleStyleSheet()["BodyText"]
    table = RLTable([list(r) for r in BUDGET], colWidths=[35, 170, 40, 50, 75, 85])
    # No line at all: the columns are only in how the text is aligned.
    table.setStyle(TableStyle([("FONTSIZE", (0, 0), (-1, -1), 9),
                               ("ALIGN", (3, 0), (-1, -1), "RIGHT")]))
    path = tmp_path / "orcamento.pdf"
    SimpleDocTemplate(str(path)).build([
        Paragraph("Planilha orçamentária da reforma da escola municipal.", body), table,
        Paragraph("Prazo de entrega: 30 dias a contar da assinatura do contrato.", body)])

    doc = StructuredExtractor().extract_from_file(path)

    assert doc.ok_for_items
    assert [(b.page, b.rows) for b in doc.tables] == [(1, BUDGET)]
    quality = doc.tables[0].quality
    assert (quality.qty_parse_rate, quality.value_parse_rate) == (1.0, 1.0)


def test_a_pptx_is_not_a_structured_format() -> None:
    path = corpus_dir(__file__) / "office/markitdown-test.pptx"

    assert StructuredExtractor().extract_from_file(path) == StructuredDocument(path=str(path))


def test_max_pdf_pages_caps_pdfs_only(tmp_path: Path) -> None:
    """goblin.max_pages caps any document's pages: a cap meant for PDFs left a workbook with
    its first sheets only."""
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Notas"
    book.active.append(["Preços com BDI de 25%."])
    budget = book.create_sheet("Orçamento")
    for row in BUDGET:
        budget.append(list(row))
    book.save(tmp_path / "orcamento.xlsx")
    doc = StructuredExtractor(max_pdf_pages=1).extract_from_file(tmp_path / "orcamento.xlsx")
    assert [t.sheet for t in doc.tables] == ["Orçamento"]
