"""Tables drawn without lines: found from aligned text, and what must never become one."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    ListFlowable,
    ListItem,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    TableStyle,
)
from reportlab.platypus import Table as RLTable

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine

HEADER = ("Code", "Description", "Qty", "Unit price", "Total")
ITEMS = [
    ("A-100", "Portland cement bags of fifty kilograms delivered on pallets to the site",
     "340", "$38.90", "$13,226.00"),
    ("A-215", "Washed sand", "12", "$110.00", "$1,320.00"),
    ("B-007", "Ceramic bricks with six holes for load bearing walls and partitions",
     "8,000", "$0.85", "$6,800.00"),
    ("C-310", "Steel rebar", "150", "$62.35", "$9,352.50"),
    ("D-042", "Acrylic paint, matte white", "45", "$189.90", "$8,545.50"),
]
PROSE = (
    "The committee met on the third day of the month to review the proposals received for "
    "the renovation of the municipal school. Each proposal was read in full, and the members "
    "discussed the schedule, the materials and the warranty offered by every bidder. "
    "After a long discussion the committee asked two bidders for further details about "
    "their delivery plans, and agreed to meet again once the answers had arrived. "
)


def _styles() -> tuple[object, object]:
    sheet = getSampleStyleSheet()
    body = sheet["BodyText"]
    body.fontSize = 9
    body.leading = 11
    return sheet, body


def _found(path: Path) -> dict[int, list]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        numbers = list(range(1, len(pdf.pages) + 1))
    config = goblin_core.default_registry().config()
    return PdfPlumberTableEngine().tables(Source.from_path(path), numbers, config)


def _all(found: dict[int, list]) -> list:
    return [t for tables in found.values() for t in tables]


def _price_table_pdf(path: Path, valign: str = "TOP") -> None:
    sheet, body = _styles()
    data: list[list[object]] = [list(HEADER)]
    data += [[code, Paragraph(desc, body), qty, unit, total]
             for code, desc, qty, unit, total in ITEMS]
    table = RLTable(data, colWidths=[50, 200, 50, 70, 80])
    # No GRID, no lines at all: only alignment tells the columns apart.
    table.setStyle(TableStyle([
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("VALIGN", (0, 0), (-1, -1), valign),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
    ]))
    story = [Paragraph("Price list for the school renovation", sheet["Heading2"]),
             Paragraph(PROSE, body), Spacer(1, 12), table, Spacer(1, 12),
             Paragraph(PROSE, body)]
    SimpleDocTemplate(str(path), pagesize=A4).build(story)


@pytest.mark.parametrize("valign", ["TOP", "MIDDLE", "BOTTOM"])
def test_borderless_price_table_is_found_with_exact_rows(tmp_path: Path, valign: str) -> None:
    pdf = tmp_path / "prices.pdf"
    # Short cells beside a wrapped description sit on its first, middle or last line.
    _price_table_pdf(pdf, valign)

    found = _all(_found(pdf))

    assert len(found) == 1
    table = found[0]
    assert table.header_rows == 1
    assert [tuple(r) for r in table.rows] == [HEADER, *ITEMS]


def test_borderless_table_reaches_the_document_and_its_markdown(tmp_path: Path) -> None:
    pdf = tmp_path / "prices.pdf"
    _price_table_pdf(pdf)
    registry = goblin_core.default_registry()
    config = registry.config(tables=True, ocr="never")

    document = goblin_core.extract(pdf, config=config)
    text = registry.get("render.text").engine.render([document], config)

    assert [t.rows[0] for t in document.tables] == [HEADER]
    assert "| A-215 | Washed sand | 12 | $110.00 | $1,320.00 |" in text


def test_borderless_tables_off_keeps_ruled_grids_only(tmp_path: Path) -> None:
    pdf = tmp_path / "prices.pdf"
    _price_table_pdf(pdf)
    document = goblin_core.extract(pdf, tables=True, ocr="never",
                                   pdf={"borderless_tables": False})
    assert document.tables == ()


def _two_column_doc(path: Path) -> BaseDocTemplate:
    width, height = A4
    half = (width - 100) / 2
    frames = [Frame(40, 40, half, height - 80, id="left"),
              Frame(60 + half, 40, half, height - 80, id="right")]
    return BaseDocTemplate(str(path), pagesize=A4,
                           pageTemplates=[PageTemplate(id="two", frames=frames)])


@pytest.mark.parametrize(("column", "before"), [("left", 3), ("right", 7)])
def test_borderless_table_in_one_column_of_a_two_column_page(tmp_path: Path, column: str,
                                                             before: int) -> None:
    pdf = tmp_path / "two-columns-table.pdf"
    _, body = _styles()
    data: list[list[object]] = [list(HEADER)]
    data += [[code, Paragraph(desc, body), qty, unit, total]
             for code, desc, qty, unit, total in ITEMS]
    table = RLTable(data, colWidths=[34, 82, 30, 45, 55])
    table.setStyle(TableStyle([("FONTSIZE", (0, 0), (-1, -1), 8),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("ALIGN", (2, 0), (-1, -1), "RIGHT")]))
    prose = [Paragraph(PROSE * 2, body) for _ in range(8)]
    # The other column's prose runs on the table's baselines.
    _two_column_doc(pdf).build([*prose[:before], Spacer(1, 8), table, Spacer(1, 8),
                                *prose[before:]])

    found = _all(_found(pdf))

    assert [[tuple(r) for r in t.rows] for t in found] == [[HEADER, *ITEMS]]
    assert (_x0(pdf) < A4[0] / 2) == (column == "left")


def _x0(path: Path) -> float:
    import pdfplumber

    from goblin_pdf.tables.detect import page_tables

    with pdfplumber.open(path) as pdf:
        return page_tables(pdf.pages[0], 1)[0].bbox[0]


def test_two_column_prose_page_is_not_a_table(tmp_path: Path) -> None:
    pdf = tmp_path / "two-columns.pdf"
    _, body = _styles()
    doc = _two_column_doc(pdf)
    paragraphs = [Paragraph(f"{n}. {PROSE} In 2024 the budget was $ {n},500.00.", body)
                  for n in range(1, 14)]
    doc.build(paragraphs)

    assert _all(_found(pdf)) == []


def test_bulleted_and_numbered_lists_are_not_tables(tmp_path: Path) -> None:
    pdf = tmp_path / "lists.pdf"
    _, body = _styles()
    items = [f"Item {n}: deliver {n * 10} units by day {n + 3}, price $ {n * 7}.50 each"
             for n in range(1, 9)]
    story = [
        ListFlowable([ListItem(Paragraph(t, body)) for t in items], bulletType="bullet"),
        Spacer(1, 12),
        ListFlowable([ListItem(Paragraph(t, body)) for t in items], bulletType="1"),
    ]
    SimpleDocTemplate(str(pdf), pagesize=A4).build(story)

    assert _all(_found(pdf)) == []


def test_letterhead_and_key_value_block_are_not_tables(tmp_path: Path) -> None:
    pdf = tmp_path / "letterhead.pdf"
    _, body = _styles()
    block = RLTable([
        ["ACME Supplies Ltd.", "Account manager:", "Jane Doe"],
        ["Building materials", "Invoice No:", "2024-0815"],
        ["12 Harbour Road", "Date:", "03/09/2024"],
        ["Springfield 40210", "Customer ID:", "C-88213"],
        ["Phone 555 0199", "Due date:", "03/10/2024"],
    ], colWidths=[200, 120, 120])
    block.setStyle(TableStyle([("FONTSIZE", (0, 0), (-1, -1), 9),
                               ("TEXTCOLOR", (0, 0), (-1, -1), colors.black)]))
    SimpleDocTemplate(str(pdf), pagesize=A4).build([block, Spacer(1, 12),
                                                    Paragraph(PROSE, body)])

    assert _all(_found(pdf)) == []


def test_table_of_contents_is_not_a_table(tmp_path: Path) -> None:
    pdf = tmp_path / "contents.pdf"
    rows = [[str(n), f"Chapter title number {n} " + "." * 60, str(n * 7)] for n in range(1, 12)]
    toc = RLTable([["", "Contents", "Page"], *rows], colWidths=[30, 330, 40])
    toc.setStyle(TableStyle([("ALIGN", (2, 0), (2, -1), "RIGHT")]))
    SimpleDocTemplate(str(pdf), pagesize=A4).build([toc])

    assert _all(_found(pdf)) == []


SCORES = [("Method", "Precision", "Recall", "F1"),
          ("Baseline", "0.712", "0.655", "0.682"),
          ("Rules only", "0.804", "0.731", "0.766"),
          ("Aligned text", "0.851", "0.797", "0.823")]


def test_booktabs_table_with_horizontal_rules_only_is_found(tmp_path: Path) -> None:
    pdf = tmp_path / "booktabs.pdf"
    _, body = _styles()
    table = RLTable([list(r) for r in SCORES], colWidths=[120, 80, 80, 80])
    # Top rule, a rule under the header, a bottom rule; no vertical line anywhere.
    table.setStyle(TableStyle([
        ("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
        ("LINEBELOW", (0, -1), (-1, -1), 1.0, colors.black),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
    ]))
    story = [Paragraph(PROSE, body), Spacer(1, 12), Paragraph("Table 1: scores.", body),
             table, Spacer(1, 12), Paragraph(PROSE, body)]
    SimpleDocTemplate(str(pdf), pagesize=A4).build(story)

    found = _all(_found(pdf))

    assert [[tuple(r) for r in t.rows] for t in found] == [SCORES]


def test_booktabs_table_in_one_column_of_a_two_column_paper(tmp_path: Path) -> None:
    pdf = tmp_path / "paper.pdf"
    _, body = _styles()
    doc = _two_column_doc(pdf)
    table = RLTable([list(r) for r in SCORES], colWidths=[80, 50, 50, 40])
    table.setStyle(TableStyle([
        ("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
        ("LINEBELOW", (0, -1), (-1, -1), 1.0, colors.black),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("FONTSIZE", (0, 0), (-1, -1), 8),
    ]))
    # The table sits in the left column between paragraphs, the right column's prose
    # on the same baselines.
    prose = [Paragraph(PROSE * 2, body) for _ in range(3)]
    doc.build([*prose, Spacer(1, 8), table, Spacer(1, 8), *prose, *prose[:1]])

    found = _all(_found(pdf))

    assert [[tuple(r) for r in t.rows] for t in found] == [SCORES]


def test_rules_between_rows_make_one_row_of_each_wrapped_record(tmp_path: Path) -> None:
    pdf = tmp_path / "ruled-rows.pdf"
    _, body = _styles()
    data = [["Store", "Brands"],
            ["Coffee", Paragraph("Roasters United, Bean There, Morning Cup, Daily Grind, "
                                 "Espresso Lane, Crema Co.", body)],
            ["Bakery", Paragraph("Bread Basket, Crumbs", body)],
            ["Grocery", Paragraph("Fresh Market, Corner Shop, Green Basket, Harvest Foods, "
                                  "Pantry Plus", body)]]
    table = RLTable(data, colWidths=[80, 180])
    table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.5, colors.blue),
                               ("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.blue),
                               ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    SimpleDocTemplate(str(pdf), pagesize=A4).build([table])

    rows = [tuple(r) for t in _all(_found(pdf)) for r in t.rows]

    assert rows == [("Store", "Brands"),
                    ("Coffee", "Roasters United, Bean There, Morning Cup, Daily Grind, "
                               "Espresso Lane, Crema Co."),
                    ("Bakery", "Bread Basket, Crumbs"),
                    ("Grocery", "Fresh Market, Corner Shop, Green Basket, Harvest Foods, "
                                "Pantry Plus")]


def test_chart_with_grid_lines_and_value_labels_is_not_a_table(tmp_path: Path) -> None:
    from reportlab.graphics.shapes import Drawing, Line, PolyLine, String

    pdf = tmp_path / "chart.pdf"
    drawing = Drawing(400, 260)
    # Horizontal grid lines of one width, an axis, a curve, and labels that line up in
    # columns under a row of series names: rules and alignment alone say "table".
    for y in (40, 90, 140, 190, 240):
        drawing.add(Line(40, y, 360, y, strokeColor=colors.grey, strokeWidth=0.5))
    drawing.add(Line(40, 40, 40, 240, strokeColor=colors.black))
    names = ["North", "South", "East", "West"]
    values = [[120, 340, 260, 410], [90, 310, 300, 350], [75, 220, 180, 395]]
    for col, name in enumerate(names):
        x = 70 + col * 80
        drawing.add(String(x, 222, name, fontSize=9))
        for row, series in enumerate(values):
            drawing.add(String(x, 172 - row * 50, f"{series[col]:,}.00", fontSize=9))
    points = [c for i, v in enumerate(values[0]) for c in (70 + i * 80, 40 + v / 2.5)]
    drawing.add(PolyLine(points, strokeColor=colors.steelblue, strokeWidth=1.5))
    SimpleDocTemplate(str(pdf), pagesize=A4).build([drawing])

    assert _all(_found(pdf)) == []


def test_invoice_gives_its_item_table_and_not_its_letterhead_or_totals(tmp_path: Path) -> None:
    pdf = tmp_path / "invoice.pdf"
    _, body = _styles()
    head = RLTable([["ACME Supplies Ltd.", "", "INVOICE"],
                    ["12 Harbour Road", "", "No. 2024-0815"],
                    ["Springfield 40210", "", "Date 03/09/2024"]], colWidths=[200, 100, 150])
    items = RLTable([list(HEADER)] + [[c, Paragraph(d, body), q, u, t] for c, d, q, u, t in ITEMS],
                    colWidths=[50, 200, 50, 70, 80])
    items.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("ALIGN", (2, 0), (-1, -1), "RIGHT")]))
    totals = RLTable([["", "Subtotal", "$39,244.00"], ["", "Tax 10%", "$3,924.40"],
                      ["", "Total", "$43,168.40"]], colWidths=[300, 80, 80])
    SimpleDocTemplate(str(pdf), pagesize=A4).build([
        head, Spacer(1, 20), items, Spacer(1, 10), totals,
        Paragraph("Payment within 30 days to account 123-456-789.", body)])

    found = _all(_found(pdf))

    assert [[tuple(r) for r in t.rows] for t in found] == [[HEADER, *ITEMS]]


@pytest.mark.parametrize("rows", [
    [["2019 – 2021", "Software engineer", "Acme Corp, Springfield"],
     ["2016 – 2019", "Developer", "Widgets Inc., Shelbyville"],
     ["2014 – 2016", "Intern", "Globex, Capital City"],
     ["2010 – 2014", "BSc Computer Science", "State University"]],
    [["09:00", "Welcome and introductions", "Room 1"],
     ["09:30", "Keynote: the future of documents", "Hall A"],
     ["10:30", "Coffee break", ""],
     ["11:00", "Parallel sessions", "Rooms 2-4"],
     ["12:30", "Lunch", "Cafeteria"]],
], ids=["resume", "agenda"])
def test_aligned_lines_without_column_titles_are_not_tables(tmp_path: Path,
                                                            rows: list[list[str]]) -> None:
    pdf = tmp_path / "aligned.pdf"
    _, body = _styles()
    SimpleDocTemplate(str(pdf), pagesize=A4).build([
        Paragraph("Jane Doe", body), RLTable(rows, colWidths=[90, 200, 150]),
        Paragraph(PROSE, body)])

    assert _all(_found(pdf)) == []
