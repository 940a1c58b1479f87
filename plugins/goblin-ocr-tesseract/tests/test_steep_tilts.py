"""Pages tilted further than Tesseract finds lines at: a phone photo of a page on a desk."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PIL import Image

from goblin_core import default_registry
from goblin_core.testing.corpus import normalize
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.skew import ink_skew_degrees

DrawPage = Callable[..., Image.Image]

LINES = (
    "The quick brown fox jumps over the lazy dog.",
    "Goblin reads scanned pages with Tesseract.",
    "Invoice number 4471 was paid on 12 March.",
)


@pytest.mark.parametrize("angle", [-35, 30])
def test_the_tilt_of_a_steeply_tilted_page_is_measured_on_its_ink(
        page_image: DrawPage, angle: int) -> None:
    tilted = page_image(LINES * 3).rotate(angle, expand=True, fillcolor=255,
                                          resample=Image.Resampling.BICUBIC)
    assert ink_skew_degrees(tilted) == pytest.approx(-angle, abs=0.3)


@pytest.mark.parametrize("angle", [-30, 35])
def test_a_page_tilted_thirty_degrees_and_more_is_read(tesseract: str, page_image: DrawPage,
                                                       angle: int) -> None:
    tilted = page_image(LINES * 3).rotate(angle, expand=True, fillcolor=255,
                                          resample=Image.Resampling.BICUBIC)
    result = TesseractBackend().recognize(tilted, "eng", default_registry().config())
    assert all(line in normalize(result.text) for line in LINES), result.text
