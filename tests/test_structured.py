"""StructuredExtractor over Documents: scored item tables, Brazilian numbers, full.md."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

import goblin_core
from goblin_core.model import Document, Page, Table
from goblin_core.structured import (
    StructuredDocument,
    StructuredExtractor,
    is_item_header,
    parse_br_number,
    score_table,
    structure_document,
    to_full_md,
)

HEADER = ("ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR UNIT.", "VALOR TOTAL")
BUDGET = (
    HEADER,
    ("1", "Areia e pedra", "M3", "12,50", "R$ 110,00", "R$ 1.375,00"),
    ("2", "Cimento Portland", "SC", "340", "R$ 38,90", "R$ 13.226,00"),
    ("3", "Tijolo <furado> & cia", "MIL", "8", "R$ 850,00", "R$ 6.800,00"),
    ("TOTAL GERAL", "", "", "", "", "R$ 21.401,00"),
)
PDF = "application/pdf"
CSV = "text/csv"


@pytest.mark.parametrize(("text", "value"), [
    ("1.234,56", Decimal("1234.56")),
    ("R$ 16.511,45", Decimal("16511.45")),
    ("R$16.511,45", Decimal("16511.45")),
    ("-1.234,56", Decimal("-1234.56")),
    ("R$ -10,00", Decimal("-10.00")),
    ("(1.234,56)", Decimal("-1234.56")),
    ("12,5%", Decimal("12.5")),
    ("25 %", Decimal("25")),
    ("1.234", Decimal("1234")),
    ("1.234.567", Decimal("1234567")),
    ("340", Decimal("340")),
    ("0,75", Decimal("0.75")),
    ("1234.56", Decimal("1234.56")),
    ("13,005.00", Decimal("13005.00")),
    (" 1.366.043,00 ", Decimal("1366043.00")),
    ("1 234,56", Decimal("1234.56")),  # a space between thousands
    ("12 345 678", Decimal("12345678")),
    ("+10,00", Decimal("10.00")),
    ("1.234,56-", Decimal("-1234.56")),  # a trailing minus, as SAP exports write it
    ("R$ 1.234,56 -", Decimal("-1234.56")),
])
def test_brazilian_numbers_parse(text: str, value: Decimal) -> None:
    assert parse_br_number(text) == value


@pytest.mark.parametrize("text", ["", None, "Areia", "R$", "1.23.4", "12/05/2024", "1,2,3",
                                  "M3", "9 x 14 cm", "1.2345,6",
                                  # two numbers side by side were read as one (1020)
                                  "10 20", "2024 2025", "-", "+"])
def test_things_that_are_not_numbers(text: str | None) -> None:
    assert parse_br_number(text) is None


@pytest.mark.parametrize("header", [
    HEADER,
    ("Item", "Descrição", "Unid.", "Quantidade", "Preço Unitário", "Preço Total"),
    ("ITEM", "DESCRICAO", "UN", "QTDE", "V. UNIT", "V. TOTAL"),
    ("CÓDIGO", "SERVIÇO", "UNID", "QTD."),
    ("Nº", "Especificação do produto", "Quant."),
    ("LOTE", "DESCRIÇÃO DO BEM"),
])
def test_item_table_headers_are_recognised(header: tuple[str, ...]) -> None:
    assert is_item_header(header)


@pytest.mark.parametrize("header", [
    ("Nome", "Cidade", "Idade"),
    ("Notice Date", "Company", "City", "No. Of"),
    ("Descrição", "Observação"),
])
def test_other_headers_are_not_item_headers(header: tuple[str, ...]) -> None:
    assert not is_item_header(header)


def test_budget_table_is_ok_for_items() -> None:
    quality = score_table(BUDGET)

    assert quality.ok_for_items and quality.meaningful and quality.has_itemish_header
    assert quality.n_data_rows == 3, "the TOTAL GERAL row is not an item"
    assert (quality.qty_parse_rate, quality.value_parse_rate) == (1.0, 1.0)
    assert quality.has_value_column and quality.first_row_is_header


def test_item_header_below_a_letterhead_is_found() -> None:
    rows = (("PREFEITURA MUNICIPAL DE EXEMPLO", "", "", "", "", ""),
            ("PLANILHA ORÇAMENTÁRIA - REFORMA DA ESCOLA", "", "", "", "", ""),
            *BUDGET)
    quality = score_table(rows)

    assert quality.ok_for_items and quality.n_data_rows == 3
    assert not quality.first_row_is_header


def test_unparseable_quantities_fail_the_gate() -> None:
    items = [(str(i), "Areia", "M3", "doze", "R$ 1,00", "R$ 12,00") for i in range(1, 5)]
    rows = (HEADER, *items)
    quality = score_table(rows)

    assert quality.qty_parse_rate == 0.0
    assert not quality.ok_for_items and quality.has_usable_tables


def test_auction_lots_need_no_quantity_column() -> None:
    rows = (("LOTE", "DESCRIÇÃO DO BEM"), ("1", "Veículo Gol 2010"), ("2", "Mesa de escritório"))

    quality = score_table(rows)

    assert quality.ok_for_items and quality.qty_parse_rate == 1.0


def test_a_table_without_item_header_is_not_ok_for_items() -> None:
    rows = (("Nome", "Cidade"), ("Ana", "Recife"), ("João", "Natal"), ("Rui", "Belém"))
    quality = score_table(rows)

    assert not quality.ok_for_items and not quality.has_itemish_header
    assert quality.has_usable_tables


def _document(mime: str, name: str, pages: list[Page]) -> Document:
    return Document(name=name, mime=mime, pages=tuple(pages))


def _page(number: int, text: str, *tables: Table) -> Page:
    return Page(number=number, text=text, engine="test", status="clean", confidence=1.0,
                tables=tables)


def test_pdf_document_tables_become_scored_blocks() -> None:
    doc = _document(PDF, "edital.pdf", [
        _page(1, "Planilha orçamentária", Table(rows=BUDGET, page=1)),
        _page(2, "Anexo II", Table(rows=(("Observação",), ("texto",)), page=2)),
    ])

    structured = structure_document(doc)

    assert structured.ok_for_items and structured.has_usable_tables
    assert len(structured.tables) == 1, "the one-column box is dropped"
    block = structured.tables[0]
    assert (block.source, block.page, block.index, block.sheet) == ("pdf", 1, 0, None)
    assert block.rows == BUDGET
    assert structured.page_texts == ("Planilha orçamentária", "Anexo II")


def test_spreadsheet_tables_keep_their_sheet_name() -> None:
    doc = _document(CSV, "itens.csv", [_page(1, "", Table(rows=BUDGET, title="itens"))])

    block = structure_document(doc).tables[0]

    assert (block.source, block.page, block.sheet) == ("csv", None, "itens")


def test_raw_rows_from_a_parser_are_normalised() -> None:
    raw = (("ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR", "VALOR"),
           ("", "", "", "", "UNIT.", "TOTAL"),
           ("1", "Areia e\npedra", "M3", "12,50", "R$ 110,00", "R$ 1.375,00"),
           ("", "lavada", "", "", "", ""))
    doc = _document(PDF, "x.pdf", [_page(1, "", Table(rows=raw))])

    block = structure_document(doc).tables[0]

    assert block.rows == (HEADER, ("1", "Areia e pedra lavada", "M3", "12,50", "R$ 110,00",
                                   "R$ 1.375,00"))
    assert block.quality.ok_for_items


def test_other_formats_give_an_empty_document() -> None:
    doc = _document("text/plain", "notes.txt", [_page(1, "ITEM | QUANT")])

    structured = structure_document(doc)

    assert structured == StructuredDocument(path="notes.txt")
    assert not structured.ok_for_items


def test_full_md_places_tables_after_their_page_prose_and_escapes_html() -> None:
    doc = _document(PDF, "edital.pdf", [
        _page(1, "Página um", Table(rows=BUDGET, page=1)),
        _page(2, "Página dois"),
    ])

    full = to_full_md(structure_document(doc))

    assert full.index("Página um") < full.index("<table>") < full.index("Página dois")
    assert "<!-- table source=pdf page=1 index=0 -->\n<table>\n<tr><td>ITEM</td>" in full
    assert "<td>Tijolo &lt;furado&gt; &amp; cia</td>" in full
    assert "<th>" not in full and full.endswith("Página dois\n")


def test_full_md_of_a_docx_puts_prose_before_tables() -> None:
    mime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    doc = _document(mime, "termo.docx", [_page(1, "Termo de referência", Table(rows=BUDGET))])

    full = to_full_md(structure_document(doc))

    assert full.startswith("Termo de referência\n\n<!-- table source=docx index=0 -->\n<table>")


def test_write_full_md_writes_and_refuses_empty(tmp_path: Path) -> None:
    extractor = StructuredExtractor()
    doc = structure_document(_document(PDF, "e.pdf", [_page(1, "texto", Table(rows=BUDGET))]))

    assert extractor.write_full_md(doc, tmp_path / "out" / "full.md")
    assert "<table>" in (tmp_path / "out" / "full.md").read_text(encoding="utf-8")
    assert not extractor.write_full_md(StructuredDocument(path="x"), tmp_path / "empty.md")
    assert not (tmp_path / "empty.md").exists()


def test_extractor_gives_an_empty_document_for_unsupported_and_missing_files(
        tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("ITEM DESCRIÇÃO QUANT\n1 Areia 10\n", encoding="utf-8")
    extractor = StructuredExtractor()

    assert extractor.extract_from_file(notes) == StructuredDocument(path=str(notes))
    missing = extractor.extract_from_file(tmp_path / "missing.pdf")
    assert not missing.ok_for_items and missing.tables == ()
    assert extractor.supports("a.XLSM") and not extractor.supports("a.txt")
    assert extractor.extract_ok_files([notes]) == []


def test_table_markdown_escapes_pipes_and_html_escapes_cells() -> None:
    table = Table(rows=(("a|b", "c"), ("<x> & y", "1\n2")), header_rows=1)

    assert table.to_markdown().splitlines() == ["| a\\|b | c |", "| --- | --- |",
                                               "| <x> & y | 1 2 |"]
    assert "<td>&lt;x&gt; &amp; y</td>" in table.to_html()
    assert "<th>a|b</th>" in table.to_html()


def test_text_output_appends_tables_only_when_asked() -> None:
    doc = _document(PDF, "e.pdf", [_page(1, "texto", Table(rows=BUDGET, page=1, index=0))])
    registry = goblin_core.default_registry()
    renderer = registry.get("render.text").engine

    with_tables = renderer.render([doc], registry.config(tables=True))
    without = renderer.render([doc], registry.config())

    assert "texto\n\n<!-- table page=1 index=0 -->\n| ITEM | DESCRIÇÃO |" in with_tables
    assert "<!-- table" not in without
