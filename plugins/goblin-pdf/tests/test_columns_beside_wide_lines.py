"""Columns below (or above) paragraphs across the whole page, whose lines fill the gutter
of the page-wide coverage histogram: found again among the narrow runs."""

from __future__ import annotations

import io
import re

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
    """The first word of each line drawn (``L3w0``, without the letters some words add)."""
    return [found.group() for found in map(_FIRST_WORD.match, text.split()) if found]


_FIRST_WORD = re.compile(r"[A-Z]\d+w0(?![0-9])")


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


def _justified(line_across: bool) -> bytes:
    """Two narrow justified columns whose word gaps are wider than their gutter (12 pt):
    each line comes apart into runs of a word. Words differ in length from line to line,
    so the gaps fall in other places on every line, as in text."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(612, 792))
    canvas.setFont("Helvetica", 9)
    words = 3
    width = 150.0

    def line(tag: str, row: int, left: float) -> None:
        texts = [f"{tag}{row}w{word}" + "abcdefg"[:(row * 5 + word * 3) % 7]
                 for word in range(words)]
        used = sum(canvas.stringWidth(text, "Helvetica", 9) for text in texts)
        gap = (width - used) / (words - 1)
        x = left
        for text in texts:
            canvas.drawString(x, 700 - 12 * row, text)
            x += canvas.stringWidth(text, "Helvetica", 9) + gap

    rows = range(ROWS)
    order = ([(tag, row) for row in rows for tag in "LR"] if line_across
             else [(tag, row) for tag in "LR" for row in rows])
    for tag, row in order:
        line(tag, row, 72 if tag == "L" else 72 + width + 12)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


DOWN = [f"{tag}{row}w0" for tag in "LR" for row in range(ROWS)]


@pytest.mark.parametrize("line_across", [False, True])
def test_justified_columns_whose_word_gaps_outgrow_the_gutter_are_read_down(
        line_across: bool) -> None:
    pdf = _justified(line_across)
    ordered = extract(pdf, name="justified.pdf", ocr="never",
                      pdf={"layout": "reading_order"})
    assert _line_starts(ordered.text) == DOWN
    assert ordered.raw_metadata["layout"][0]["columns"] == 2


def test_auto_keeps_pdfiums_text_of_columns_it_reads_down() -> None:
    # columns found only with their lines' runs added up: auto rebuilds such a page only
    # where PDFium's text reads across them, which it does not here
    document = extract(_justified(False), name="justified.pdf", ocr="never")
    assert _line_starts(document.text) == DOWN
    assert document.raw_metadata["layout"][0]["reading_order"] is False


def _table() -> bytes:
    """Two blocks of table columns a wide gap apart; inside each, some cell of every column
    comes near the next column, so no gap there is wide enough for a gutter. Each cell is
    short; a row's cells in a block add up to the length of a line of prose."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(612, 792))
    canvas.setFont("Helvetica", 9)
    fill = "ABCDEFGHIJKL"
    for row in range(ROWS):
        y = 700 - 12 * row
        for place in (72, 136, 200, 300, 364):
            # cells of 4 to 12 characters: the longest reach within a few points of the
            # next column
            canvas.drawString(place, y, f"{row:02d}" + fill[:2 + (row * 7 + place) % 9])
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_the_cells_of_a_table_added_up_by_row_are_no_prose() -> None:
    document = extract(_table(), name="table.pdf", ocr="never",
                       pdf={"layout": "reading_order"})
    assert document.raw_metadata["layout"][0]["columns"] == 1
    first = document.text.split("\n")[0].split()
    assert [cell[:2] for cell in first] == ["00"] * 5
