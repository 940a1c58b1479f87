"""A table without grid lines that runs over a page break with no header repeated.

The rows carried to the next page have no column titles, which alone the passes for
tables without grid lines refuse (a list or a chart's labels line up too). At the
top of the page after a table, under its columns, they are its rows: the table
comes out whole, its last row or two included.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine
from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.stitch import stitch

HEADER = ("Code", "Description", "Qty", "Unit price", "Total")
#: Where each column's text starts (left-aligned) or ends (right-aligned), in points.
LEFT_EDGES = (60.0, 130.0)
RIGHT_EDGES = (350.0, 440.0, 530.0)
ROWS_ON_FIRST_PAGE = 40
PITCH = 16.0


def _item(number: int) -> tuple[str, ...]:
    return (f"M-{100 + number}", f"Building material {number}", str(10 + number),
            f"{number + 1}.50", f"{(10 + number) * (number + 1)}.00")


def _draw_row(canvas: Canvas, row: tuple[str, ...], y: float) -> None:
    for text, x in zip(row[:2], LEFT_EDGES, strict=True):
        canvas.drawString(x, y, text)
    for text, x in zip(row[2:], RIGHT_EDGES, strict=True):
        canvas.drawRightString(x, y, text)


def _rule(canvas: Canvas, y: float) -> None:
    canvas.line(55, y, 535, y)


def _report(path: Path, items: list[tuple[str, ...]], rules: str,
            running_head: tuple[str, ...] = ()) -> None:
    """The items in a table whose header is on the first page only; ``rules`` is
    "none", "header" (a rule above and below the header, one under the last row) or
    "rows" (a rule under the header and under every row). A ``running_head`` is drawn
    atop the second page, over the table's columns."""
    height = A4[1]
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(60, height - 50, "Material delivery report")
    canvas.setFont("Helvetica", 9)
    y = height - 90
    if rules == "header":
        _rule(canvas, y + 12)
    _draw_row(canvas, HEADER, y)
    if rules in ("header", "rows"):
        _rule(canvas, y - 5)
    for index, item in enumerate(items):
        if index == ROWS_ON_FIRST_PAGE:
            canvas.showPage()
            canvas.setFont("Helvetica", 9)
            if running_head:
                _draw_row(canvas, running_head, height - 20)
            y = height - 50 + PITCH
        y -= PITCH
        _draw_row(canvas, item, y)
        if rules == "rows":
            _rule(canvas, y - 5)
    if rules == "header":
        _rule(canvas, y - 5)
    canvas.drawString(60, y - 40, "All quantities were checked on delivery by the site manager.")
    canvas.showPage()
    canvas.save()


def _tables(path: Path) -> list[tuple[int, tuple[tuple[str, ...], ...]]]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        numbers = list(range(1, len(pdf.pages) + 1))
    config = goblin_core.default_registry().config()
    found = PdfPlumberTableEngine().tables(Source.from_path(path), numbers, config)
    return [(t.page, t.rows) for tables in found.values() for t in tables]


@pytest.mark.parametrize("rules", ["none", "header", "rows"])
@pytest.mark.parametrize("carried", [30, 2, 1])
def test_rows_carried_over_a_page_break_without_their_header_stay_in_the_table(
        tmp_path: Path, rules: str, carried: int) -> None:
    items = [_item(n) for n in range(ROWS_ON_FIRST_PAGE + carried)]
    pdf = tmp_path / "report.pdf"
    _report(pdf, items, rules)

    assert _tables(pdf) == [(1, (HEADER, *items))]


def test_a_running_head_atop_the_next_page_is_not_taken_for_rows(tmp_path: Path) -> None:
    items = [_item(n) for n in range(ROWS_ON_FIRST_PAGE + 3)]
    pdf = tmp_path / "report.pdf"
    _report(pdf, items, "none", ("ACME", "Building supplies", "Page", "2 of 2", "2024"))

    assert _tables(pdf) == [(1, (HEADER, *items))]


def _fragment(page: int, rows: list[tuple[str, ...]], spans: tuple[tuple[float, float], ...],
              continuation: bool, top: float = 40.0) -> FoundTable:
    return FoundTable(page=page, rows=tuple(rows), bbox=(spans[0][0], top, spans[-1][1], 800.0),
                      page_size=(595.0, 842.0), column_spans=spans, continuation=continuation)


def test_untitled_rows_join_only_under_the_columns_of_the_table_before() -> None:
    columns = ((60.0, 110.0), (130.0, 250.0), (320.0, 350.0))
    table = _fragment(1, [("Code", "Item", "Qty"), ("A1", "Sand", "10")], columns, False, 400.0)
    under = _fragment(2, [("A2", "Lime", "12"), ("A3", "Clay", "7")], columns, True)
    shifted = _fragment(2, [("A2", "Lime", "12"), ("A3", "Clay", "7")],
                        ((60.0, 110.0), (260.0, 300.0), (320.0, 350.0)), True)
    words_under_figures = _fragment(2, [("A2", "Lime", "twelve"), ("A3", "Clay", "seven")],
                                    columns, True)

    assert stitch({1: [table], 2: [under]})[1][0].rows == (*table.rows, *under.rows)
    for other in (shifted, words_under_figures):
        assert stitch({1: [table], 2: [other]}) == {1: [table], 2: []}
    # untitled rows with no table before them are no table
    assert stitch({2: [under]}) == {2: []}
