"""A page image is handed to Tesseract as PNG whatever file it was opened from: pages
opened from a phone's JPEG (MPO), TGA or PCX were refused, and JPEG pages compressed
again with loss."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from goblin_core import default_registry
from goblin_core.testing.corpus import normalize
from goblin_ocr_tesseract.backend import TesseractBackend

DrawPage = Callable[..., Image.Image]

LINES = ("The quick brown fox jumps over the lazy dog.",
         "Goblin reads scanned pages with Tesseract.")


@pytest.mark.parametrize("fmt", ["MPO", "TGA", "PCX", "JPEG"])
def test_a_page_opened_from_any_format_pillow_reads_is_read(
        tesseract: str, page_image: DrawPage, fmt: str) -> None:
    page = page_image(LINES).convert("RGB")
    # an MPO holds two pictures, as a phone saves a photo and its gain map
    params = {"save_all": True, "append_images": [page]} if fmt == "MPO" else {}
    data = io.BytesIO()
    page.save(data, fmt, **params)
    with Image.open(data) as opened:
        assert opened.format == fmt
        result = TesseractBackend().recognize(opened, "eng", default_registry().config())
    text = normalize(result.text)
    assert all(line in text for line in LINES), text
    assert result.confidence > 0.8
