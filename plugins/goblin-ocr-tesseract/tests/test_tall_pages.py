"""Pages taller than Tesseract reads (a whole web page as one screenshot) are read in
bands at full size, not shrunk until their text is too small to read."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from PIL import Image, ImageDraw

from goblin_core import default_registry
from goblin_core.page_bands import band_rows
from goblin_core.testing.corpus import normalize
from goblin_ocr_tesseract.backend import MAX_SIDE, TesseractBackend

DrawPage = Callable[..., Image.Image]

LINES = ("Entry one opens the long page.", "Entry two sits across the first cut.",
         "Entry three is in the middle.", "Entry four closes the long page.")


def test_small_text_on_a_page_twice_as_tall_as_tesseract_reads_is_read(
        tesseract: str, page_image: DrawPage) -> None:
    # shrunk to fit, 18-pixel text comes out at 8 pixels and reads as nonsense
    height = 2 * MAX_SIDE + 4_000
    tall = Image.new("L", (900, height), 255)
    for line, top in zip(LINES, (100, MAX_SIDE - 20, height // 2 + 500, height - 200),
                         strict=True):
        with page_image([line], size=18, margin=0) as drawn:
            tall.paste(drawn, (40, top))
    result = TesseractBackend().recognize(tall, "eng", default_registry().config())
    text = normalize(result.text)
    assert all(line in text for line in LINES), text
    assert result.confidence > 0.8


def _lines_at(height: int, tops: list[int], *, paper: int = 255, ink: int = 0) -> Image.Image:
    page = Image.new("L", (200, height), paper)
    pen = ImageDraw.Draw(page)
    for top in tops:
        pen.rectangle((10, top, 190, top + 15), fill=ink)
    return page


def test_bands_are_cut_between_lines_within_the_limit() -> None:
    page = _lines_at(1_000, [100, 280, 295, 700, 985])
    rows = band_rows(page, 300)
    assert rows[0][0] == 0 and rows[-1][1] == 1_000
    assert all(bottom <= top for (_, bottom), (top, _) in pairwise(rows))
    assert all(0 < bottom - top <= 300 for top, bottom in rows)
    inked = {row for top in (100, 280, 295, 700, 985) for row in range(top, min(top + 16, 1_000))}
    # every line drawn is in a band, and none is cut in two: each cut falls on a row
    # without ink
    assert inked <= {row for top, bottom in rows for row in range(top, bottom)}
    assert not {top for top, _ in rows[1:]} & inked
    assert not {bottom for bottom, _ in rows[:-1]} & inked
    # the line across the limit (rows 280 to 310) goes whole to the second band
    assert rows[0][1] < 280


def test_light_lines_on_dark_paper_are_cut_between_too() -> None:
    page = _lines_at(700, [100, 290, 500], paper=20, ink=230)
    rows = band_rows(page, 300)
    inked = {row for top in (100, 290, 500) for row in range(top, top + 16)}
    assert len(rows) == 3
    assert not {top for top, _ in rows[1:]} & inked


def test_a_page_with_ink_on_every_row_is_cut_at_the_limit() -> None:
    page = Image.new("L", (51, 1_000), 255)
    pen = ImageDraw.Draw(page)
    for x in range(0, 50, 2):
        pen.line((x, 0, x, 999), fill=0)
    rows = band_rows(page, 300)
    assert rows == [(0, 300), (300, 600), (600, 900), (900, 1_000)]


def test_a_page_that_fits_is_one_band() -> None:
    assert band_rows(Image.new("L", (50, 300), 255), 300) == [(0, 300)]


def test_bands_without_ink_are_left_out() -> None:
    page = _lines_at(2_000, [100, 1_900])
    rows = band_rows(page, 300)
    assert len(rows) == 2
    assert rows[0][0] <= 100 and rows[0][1] >= 116
    assert rows[1][0] <= 1_900 and rows[1][1] == 2_000
