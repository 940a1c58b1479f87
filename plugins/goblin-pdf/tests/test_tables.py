"""PDF tables: budget tables drawn with reportlab come out as exact, clean matrices."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, TableStyle
from reportlab.platypus import Table as RLTable

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine

HEADER = ("ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR UNIT.", "VALOR TOTAL")

# Descriptions long enough to wrap inside their cell; "Areia e pedra" must never
# come out glued ("Areiae pedra").
ITEMS = [
    (str(n), f"{desc} lote {n}", und, qty, unit, total)
    for n, (desc, und, qty, unit, total) in enumerate(
        [
            ("Areia e pedra britada para concreto estrutural, entregue na obra", "M3", "12,50",
             "R$ 110,00", "R$ 1.375,00"),
            ("Cimento Portland CP II-E-32 em sacos de 50 kg", "SC", "340", "R$ 38,90",
             "R$ 13.226,00"),
            ("Tijolo cerâmico furado de seis furos, dimensões 9 x 14 x 19 cm", "MIL", "8",
             "R$ 850,00", "R$ 6.800,00"),
            ("Vergalhão de aço CA-50 com diâmetro de 10 mm, barra de 12 metros", "BR", "150",
             "R$ 62,35", "R$ 9.352,50"),
            ("Tinta acrílica fosca para paredes internas, cor branco neve", "GL", "45",
             "R$ 189,90", "R$ 8.545,50"),
        ] * 7,
        start=1,
    )
]
TOTAL = ("TOTAL GERAL", "", "", "", "", "R$ 1.366.043,00")


def _styles() -> tuple[object, object]:
    sheet = getSampleStyleSheet()
    body = sheet["BodyText"]
    body.fontSize = 9
    body.leading = 11
    return sheet, body


def _budget_pdf(path: Path, *, repeat_header: bool, continuation_row: bool = False,
                text_box: bool = False) -> list[tuple[str, ...]]:
    """A budget table over two pages; returns the rows a clean extraction must give."""
    sheet, body = _styles()
    top = [["ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR", ""],
           ["", "", "", "", "UNIT.", "TOTAL"]]
    data: list[list[object]] = []
    expected: list[tuple[str, ...]] = [HEADER]
    for i, (item, desc, und, qty, unit, total) in enumerate(ITEMS):
        data.append([item, Paragraph(desc, body), und, qty, unit, total])
        expected.append((item, desc, und, qty, unit, total))
        if continuation_row and i == 2:
            # A generator that writes a wrapped description as its own grid row.
            extra = "incluindo transporte e descarga"
            data.append(["", Paragraph(extra, body), "", "", "", ""])
            expected[-1] = (item, f"{desc} {extra}", und, qty, unit, total)
    data.append(list(TOTAL))
    expected.append(TOTAL)
    table = RLTable(top + data, colWidths=[35, 215, 35, 50, 75, 85],
                    repeatRows=2 if repeat_header else 0)
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("SPAN", (0, 0), (0, 1)), ("SPAN", (1, 0), (1, 1)), ("SPAN", (2, 0), (2, 1)),
        ("SPAN", (3, 0), (3, 1)), ("SPAN", (4, 0), (5, 0)),
        ("SPAN", (0, -1), (4, -1)),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]))
    story: list[object] = [
        Paragraph("PREFEITURA MUNICIPAL DE EXEMPLO", sheet["Title"]),
        Paragraph("Planilha orçamentária da obra de reforma da escola municipal.", body),
        Spacer(1, 12),
        table,
    ]
    if text_box:
        story += [Spacer(1, 24), _text_box(body)]
    SimpleDocTemplate(str(path), pagesize=A4, topMargin=40, bottomMargin=40).build(story)
    return expected


def _text_box(body: object) -> RLTable:
    notes = RLTable(
        [[Paragraph("Observação: os preços incluem BDI de 25% e encargos sociais. "
                    "A planilha segue a tabela SINAPI de referência do mês.", body)],
         [Paragraph("Responsável técnico: engenheiro civil, CREA 12345.", body)]],
        colWidths=[460],
    )
    notes.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 1, colors.black),
                               ("INNERGRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    return notes


def _engine_tables(path: Path, pages: list[int] | None = None) -> dict[int, list]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        numbers = pages or list(range(1, len(pdf.pages) + 1))
    config = goblin_core.default_registry().config()
    return PdfPlumberTableEngine().tables(Source.from_path(path), numbers, config)


def _page_count(path: Path) -> int:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return len(pdf.pages)


@pytest.mark.parametrize("repeat_header", [True, False])
def test_two_page_budget_table_comes_out_as_one_exact_matrix(tmp_path: Path,
                                                             repeat_header: bool) -> None:
    pdf = tmp_path / "orcamento.pdf"
    expected = _budget_pdf(pdf, repeat_header=repeat_header, text_box=True)
    assert _page_count(pdf) == 2

    found = _engine_tables(pdf)

    assert [len(found[p]) for p in (1, 2)] == [1, 0], "one table, joined over the page break"
    table = found[1][0]
    assert table.page == 1 and table.index == 0 and table.header_rows == 1
    assert [tuple(r) for r in table.rows] == expected


def test_continuation_row_is_merged_into_the_item_above(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    expected = _budget_pdf(pdf, repeat_header=True, continuation_row=True)

    rows = [tuple(r) for r in _engine_tables(pdf)[1][0].rows]

    assert rows == expected
    assert rows[3][0] == "3" and rows[3][1].endswith("lote 3 incluindo transporte e descarga")


def test_words_are_never_glued(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    _budget_pdf(pdf, repeat_header=True)

    cells = [c for r in _engine_tables(pdf)[1][0].rows for c in r]

    assert any(c.startswith("Areia e pedra britada") for c in cells)
    assert not any("Areiae" in c for c in cells)


def test_bordered_one_column_text_box_is_not_a_table(tmp_path: Path) -> None:
    pdf = tmp_path / "notes.pdf"
    _, body = _styles()
    story = [Paragraph("Edital de licitação: notas.", body), Spacer(1, 12), _text_box(body)]
    SimpleDocTemplate(str(pdf), pagesize=A4).build(story)

    assert _engine_tables(pdf) == {1: []}


def test_tiny_fragment_is_not_a_table(tmp_path: Path) -> None:
    pdf = tmp_path / "fragment.pdf"
    frag = RLTable([["Assinatura", ""]], colWidths=[200, 200])
    frag.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    SimpleDocTemplate(str(pdf), pagesize=A4).build([frag])

    assert _engine_tables(pdf) == {1: []}


def test_only_requested_pages_are_read(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    expected = _budget_pdf(pdf, repeat_header=True)

    found = _engine_tables(pdf, pages=[1])

    assert list(found) == [1]
    rows = [tuple(r) for r in found[1][0].rows]
    assert rows[0] == HEADER and len(rows) < len(expected)


def _has_pdf_parser() -> bool:
    registry = goblin_core.default_registry()
    return any(registry.ranked("parser", "application/pdf", registry.config()))


needs_parser = pytest.mark.skipif(not _has_pdf_parser(), reason="no PDF parser registered")


@needs_parser
def test_tables_are_opt_in_and_attached_to_pages(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    expected = _budget_pdf(pdf, repeat_header=True)

    plain = goblin_core.extract(pdf, ocr="never")
    with_tables = goblin_core.extract(pdf, ocr="never", tables=True)

    assert plain.tables == ()
    assert [tuple(r) for r in with_tables.pages[0].tables[0].rows] == expected
    assert with_tables.pages[1].tables == ()
    assert "pdf.tables.pdfplumber" in with_tables.parsed_by


@needs_parser
def test_table_text_does_not_change_the_page_verdict(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    _budget_pdf(pdf, repeat_header=True)

    plain = goblin_core.extract(pdf, ocr="never")
    with_tables = goblin_core.extract(pdf, ocr="never", tables=True)

    assert [p.status for p in with_tables.pages] == [p.status for p in plain.pages]
    assert [p.confidence for p in with_tables.pages] == [p.confidence for p in plain.pages]
    assert with_tables.text == plain.text


@needs_parser
def test_text_output_appends_marked_markdown_tables(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    _budget_pdf(pdf, repeat_header=True)
    registry = goblin_core.default_registry()
    config = registry.config(tables=True, ocr="never")
    document = goblin_core.extract(pdf, config=config)

    text = registry.get("render.text").engine.render([document], config)
    markdown = "| " + " | ".join(HEADER) + " |"

    assert "<!-- table page=1 index=0 -->\n" + markdown in text
    assert text.count("<!-- table ") == 1


@needs_parser
def test_json_output_has_page_index_and_rows(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    expected = _budget_pdf(pdf, repeat_header=True)
    document = goblin_core.extract(pdf, ocr="never", tables=True)

    data = json.loads(json.dumps(document.to_dict()))
    table = data["pages"][0]["tables"][0]

    assert (table["page"], table["index"]) == (1, 0)
    assert [tuple(r) for r in table["rows"]] == expected


@needs_parser
def test_max_pages_limits_table_pages(tmp_path: Path) -> None:
    pdf = tmp_path / "orcamento.pdf"
    _budget_pdf(pdf, repeat_header=True)

    document = goblin_core.extract(pdf, ocr="never", tables=True, max_pages=1)

    assert len(document.pages) == 1
    assert document.tables[0].rows[0] == HEADER
    assert document.tables[0].rows[-1][0] != "TOTAL GERAL"
