"""A spreadsheet printed without grid lines, as office suites print one.

Text and column titles are left-aligned in their cells and figures right-aligned, a
cell's padding from its edges: a column of item numbers ends a few points before
the descriptions beside it start, and a title stands left of its figures, closer to
the figures of the column before than a gutter. The table comes out with its
titles over their own columns, on every page it runs over.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen.canvas import Canvas

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine

#: Each column's title, width in points and whether its cells are figures (right-aligned).
COLUMNS = (("Item", 34.0, True), ("Description", 190.0, False), ("Unit", 30.0, False),
           ("Qty", 44.0, True), ("Unit price", 50.0, True), ("Total price", 58.0, True))
#: Space between a cell's edge and its text, as office suites print it.
PADDING = 2.0
ROW_HEIGHT = 12.8
ROWS_A_PAGE = 40


def _item(number: int) -> tuple[str, ...]:
    quantity = number * 2.5
    price = 13.7 * number
    return (str(number), f"Supply of material {number} for the works", "m2",
            f"{quantity:,.2f}", f"{price:,.2f}", f"{quantity * price:,.2f}")


def _draw_row(canvas: Canvas, cells: tuple[str, ...], y: float, titles: bool) -> None:
    left = 40.0
    for text, (_, width, figures) in zip(cells, COLUMNS, strict=True):
        if figures and not titles:
            canvas.drawRightString(left + width - PADDING, y, text)
        else:
            canvas.drawString(left + PADDING, y, text)
        left += width


def _sheet(path: Path, items: list[tuple[str, ...]]) -> None:
    size = landscape(A4)
    canvas = Canvas(str(path), pagesize=size)
    for start in range(0, len(items), ROWS_A_PAGE):
        canvas.setFont("Helvetica", 9)
        y = size[1] - 50
        if start == 0:
            _draw_row(canvas, tuple(title for title, _, _ in COLUMNS), y, titles=True)
            y -= ROW_HEIGHT
        for item in items[start:start + ROWS_A_PAGE]:
            _draw_row(canvas, item, y, titles=False)
            y -= ROW_HEIGHT
        canvas.showPage()
    canvas.save()


def test_a_spreadsheet_printed_without_grid_lines_keeps_its_columns(tmp_path: Path) -> None:
    items = [_item(n) for n in range(1, 61)]
    pdf = tmp_path / "budget.pdf"
    _sheet(pdf, items)
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1, 2], config)

    titles = tuple(title for title, _, _ in COLUMNS)
    assert [(t.page, t.rows) for tables in found.values() for t in tables] == [
        (1, (titles, *items))]
