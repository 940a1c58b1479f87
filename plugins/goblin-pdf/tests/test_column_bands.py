"""Bands of a page with columns of their own (three columns above two), whose lines cross
one another's gutters so that the page-wide search cannot see them all."""

from __future__ import annotations

import io
import re
import time

import pytest

from goblin_core import extract
from goblin_pdf.layout.bands import MAX_CUTS, column_bands
from goblin_pdf.layout.lines import Run

pytest.importorskip("reportlab")
from reportlab.pdfgen.canvas import Canvas

WORDS = ("river", "stone", "garden", "lantern", "meadow", "copper", "harbor", "velvet",
         "orchard", "signal", "bridge", "market", "pepper", "valley")
THREE = (72.0, 245.0, 418.0)
TWO = (72.0, 320.0)


def _line(tag: str, row: int, count: int) -> str:
    """A line of prose-like words opening with a tag that says where it belongs."""
    return " ".join([f"{tag}{row:02d}x"]
                    + [WORDS[(row * 7 + word * 3 + ord(tag)) % len(WORDS)]
                       for word in range(1, count)])


def _bands(three_rows: int, two_rows: int, across: int = 0, gap: float = 20.0) -> bytes:
    """A heading, a band of three columns, ``across`` lines across the page, and a band
    of two columns below, every band drawn line across line (left, middle, right, next
    line), as some producers write columns: PDFium's order reads across them."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(612, 792))
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(72, 740, "Annual report of the harbour authority")
    canvas.setFont("Helvetica", 9)
    y = 715.0
    for row in range(three_rows):
        for tag, x in zip("ABC", THREE, strict=True):
            canvas.drawString(x, y, _line(tag, row, 3))
        y -= 12
    y -= gap
    for row in range(across):
        canvas.drawString(72, y, _line("F", row, 12))
        y -= 12
    for row in range(two_rows):
        for tag, x in zip("DE", TWO, strict=True):
            canvas.drawString(x, y, _line(tag, row, 5))
        y -= 12
    canvas.showPage()
    canvas.save()
    return out.getvalue()


_TAG = re.compile(r"([A-Z])(\d\d)x")


def _tags(text: str) -> list[str]:
    return [found.group(1) + found.group(2) for found in map(_TAG.fullmatch, text.split())
            if found]


def _down(*bands: tuple[str, int]) -> list[str]:
    return [f"{tag}{row:02d}" for tags, rows in bands for tag in tags for row in range(rows)]


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
@pytest.mark.parametrize(("three_rows", "two_rows"), [(20, 20), (30, 10), (8, 30)])
def test_three_columns_above_two_are_read_down_band_by_band(
        layout: str, three_rows: int, two_rows: int) -> None:
    document = extract(_bands(three_rows, two_rows), name="bands.pdf", ocr="never",
                       pdf={"layout": layout})
    assert _tags(document.text) == _down(("ABC", three_rows), ("DE", two_rows))
    assert document.raw_metadata["layout"][0]["columns"] == 3


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_bands_parted_by_lines_across_the_page_with_no_empty_row(layout: str) -> None:
    # a paragraph across the page set tight under the three columns and over the two:
    # its lines cross every gutter, so only its ends part the page
    document = extract(_bands(12, 16, across=4, gap=0.0), name="bands.pdf", ocr="never",
                       pdf={"layout": layout})
    assert _tags(document.text) == _down(("ABC", 12), ("F", 4), ("DE", 16))


def _text_over_a_table(rows: int) -> bytes:
    """Two columns of prose, written line across line, over a table of figures with
    leader dots, whose second column crosses the prose's gutter: the page-wide search
    reads each of its rows as a line across the page."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(612, 792))
    canvas.setFont("Helvetica", 9)
    y = 740.0
    for row in range(24):
        for tag, x in zip("DE", TWO, strict=True):
            canvas.drawString(x, y, _line(tag, row, 5))
        y -= 12
    y -= 24
    for row in range(rows):
        canvas.drawString(72, y, f"T{row:02}x item {row} installation ......")
        canvas.drawString(200, y, f"{row} work-hours x $85 per hour = ${row * 85:,} ......")
        canvas.drawString(370, y, f"${row * 3} ..........................")
        canvas.drawString(450, y, f"${row * 85} ......................")
        canvas.drawString(525, y, f"${row * 6205:,}.")
        y -= 12
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_a_table_under_columns_is_read_row_by_row() -> None:
    document = extract(_text_over_a_table(8), name="table.pdf", ocr="never",
                       pdf={"layout": "reading_order"})
    assert _tags(document.text) == _down(("DE", 24), ("T", 8))
    lines = [line for line in document.text.splitlines() if line.startswith("T0")]
    assert len(lines) == 8
    assert all(line.count("$") == 5 for line in lines)  # each row's cells on one line


def test_a_page_of_one_set_of_columns_is_one_band() -> None:
    runs = _runs([(x, 700 - 12 * row - (30 if row >= 10 else 0), 150)
                  for row in range(20) for x in TWO])
    gutters = [(222.0, 320.0)]
    assert column_bands(runs, gutters) == [(runs, gutters)]


def _runs(boxes: list[tuple[float, float, float]]) -> list[Run]:
    """Runs of prose-like words at (left, bottom, width), 9 points high."""
    words = tuple(WORDS[:4])
    return [Run(words, x, y, x + width, y + 9, 9.0, 30, k)
            for k, (x, y, width) in enumerate(boxes)]


def test_thousands_of_rows_and_stretches_end_in_time() -> None:
    # a price list of 6,000 runs: stretches of narrow runs parted by lines across the
    # page, an empty row under every stretch; each candidate cut costs work over all
    # runs, so only the first few are tried
    boxes: list[tuple[float, float, float]] = []
    y = 100000.0
    for block in range(750):
        for _ in range(3):
            boxes += [(72, y, 150), (320, y, 150)]
            y -= 12
        boxes.append((72, y, 400))
        y -= 30 + block % 7
    runs = _runs(boxes)
    started = time.perf_counter()
    bands = column_bands(runs, [(222.0, 320.0)])
    assert time.perf_counter() - started < 1.0
    assert 1 <= len(bands) <= 2 * MAX_CUTS + 1
    assert sum(len(band.runs) for band in bands) == len(runs)
