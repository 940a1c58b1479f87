"""Tall page images cut between their lines for OCR backends with a size limit."""

from __future__ import annotations

import itertools

import pytest

from goblin_core.page_bands import band_rows, confidence_by_length

Image = pytest.importorskip("PIL.Image")
ImageDraw = pytest.importorskip("PIL.ImageDraw")


def _lines(height: int, tops: range, thickness: int = 14) -> object:
    page = Image.new("L", (400, height), 255)
    draw = ImageDraw.Draw(page)
    for top in tops:
        draw.rectangle((20, top, 380, top + thickness - 1), fill=0)
    return page


def test_a_page_that_fits_is_one_band() -> None:
    assert band_rows(_lines(300, range(10, 290, 40)), 300) == [(0, 300)]


def test_bands_fit_the_limit_cover_every_line_and_cut_none() -> None:
    tops = range(25, 1960, 40)
    rows = band_rows(_lines(2000, tops), 300)
    assert all(bottom - top <= 300 for top, bottom in rows)
    assert all(above[1] == below[0] for above, below in itertools.pairwise(rows))
    for top in tops:  # each line lies whole inside one band
        assert any(start <= top and top + 14 <= end for start, end in rows)


def test_stretches_without_ink_are_left_out() -> None:
    rows = band_rows(_lines(3000, range(100, 160, 40)), 500)
    assert len(rows) == 1 and rows[0][0] <= 100 <= 174 <= rows[0][1]


def test_light_text_on_dark_paper_is_ink_too() -> None:
    page = Image.new("L", (400, 1200), 20)
    ImageDraw.Draw(page).rectangle((20, 900, 380, 914), fill=230)
    rows = band_rows(page, 500)
    assert len(rows) == 1 and rows[0][0] <= 900 < 914 <= rows[0][1]


def test_confidence_is_weighted_by_the_length_of_each_band_text() -> None:
    assert confidence_by_length([("abc", 0.9), ("a", 0.5)]) == 0.8
    assert confidence_by_length([("", 0.9)]) == 0.0
