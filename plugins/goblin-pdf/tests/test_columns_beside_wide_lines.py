"""Columns below (or above) paragraphs across the whole page, whose lines fill the gutter
of the page-wide coverage histogram: found again among the narrow runs."""

from __future__ import annotations

import io

import pytest

from goblin_core import extract
from goblin_pdf.layout.columns import MIN_SIDE_BY_SIDE, gutters_beside_wide_lines

pytest.importorskip("reportlab")
from reportlab.pdfgen.canvas import Canvas

ROWS = 24


def _words(tag: str, row: int, count: int) -> str:
    return " ".join(f"{tag}{row}w{word}" for word in range(count))


def _page(wide_lines: int, rows: int = ROWS, right_x: float = 320) -> bytes:
    """A heading, ``wide_lines`` lines across the page, then two columns of ``rows``
    lines drawn line across line (left, right, next left...), as some producers write
    them: PDFium's order then reads across the columns."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(612, 792))
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(72, 740, "A heading across the page")
    canvas.setFont("Helvetica", 9)
    y = 715.0
    for row in range(wide_lines):
        canvas.drawString(72, y, _words("F", row, 11))
        y -= 12
    y -= 14
    for row in range(rows):
        canvas.drawString(72, y - 12 * row, _words("L", row, 5))
        canvas.drawString(right_x, y - 12 * row, _words("R", row, 5))
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def _line_starts(text: str) -> list[str]:
    return [word for word in text.split() if word.endswith("w0")]


READ_DOWN = ([f"F{row}w0" for row in range(14)] + [f"L{row}w0" for row in range(ROWS)]
             + [f"R{row}w0" for row in range(ROWS)])


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_columns_below_a_long_introduction_are_read_down(layout: str) -> None:
    # 14 lines across the page carry as much text as the columns' gutter needs to stay
    # under the histogram's threshold: the page-wide search alone finds no gutter
    document = extract(_page(14), name="intro.pdf", ocr="never", pdf={"layout": layout})
    assert _line_starts(document.text) == READ_DOWN
    assert document.raw_metadata["layout"][0]["columns"] == 2


def test_a_page_of_lines_across_keeps_pdfiums_order_in_auto() -> None:
    # no narrow runs side by side: nothing to reorder, and auto keeps PDFium's text
    document = extract(_page(40, rows=0), name="prose.pdf", ocr="never")
    assert document.raw_metadata["layout"][0] == {
        "page": 1, "columns": 1, "reading_order": False,
        "tags": document.raw_metadata["layout"][0]["tags"]}


def _runs(rows_beside: int) -> tuple[list[float], ...]:
    """x0, x1, chars, height, y0, y1 of 20 wide lines, then ``rows_beside`` rows of a left
    and a right block (a letter's addresses, or columns), then 6 more lines of the left."""
    x0, x1, chars, height, y0, y1 = [], [], [], [], [], []

    def add(a: float, b: float, y: float) -> None:
        x0.append(a)
        x1.append(b)
        chars.append((b - a) / 5)
        height.append(10.0)
        y0.append(y)
        y1.append(y + 10)

    for row in range(20):
        add(72, 540, 700 - 12 * row)
    for row in range(rows_beside):
        add(72, 250, 440 - 12 * row)
        add(320, 540, 440 - 12 * row)
    for row in range(6):
        add(72, 250, 440 - 12 * (rows_beside + row))
    return x0, x1, chars, height, y0, y1


def test_blocks_side_by_side_for_fewer_lines_than_a_column_are_no_columns() -> None:
    assert gutters_beside_wide_lines(*_runs(MIN_SIDE_BY_SIDE - 1)) == []
    [(start, end)] = gutters_beside_wide_lines(*_runs(MIN_SIDE_BY_SIDE))
    assert 250 <= start < end <= 320
