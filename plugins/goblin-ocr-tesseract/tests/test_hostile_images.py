"""Hostile and extreme page images: limits that hold, and readings that are not lost."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from goblin_core import default_registry
from goblin_core.errors import FileTooLarge
from goblin_core.source import Source
from goblin_ocr_tesseract.backend import MAX_SIDE, TesseractBackend
from goblin_ocr_tesseract.images import ImageDocument

DrawPage = Callable[..., Image.Image]


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_the_configured_pixel_limit_decides_not_pillows_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Pillow warns past MAX_IMAGE_PIXELS and refuses past twice that; between the two,
    # limits.max_image_pixels alone decides
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1_000)
    data = _png(Image.new("L", (40, 40), 255))  # 1,600 pixels
    document = ImageDocument(Source.from_bytes(data, "scan.png"), 10_000)
    try:
        with document.render(1, 300) as page:
            assert page.size == (40, 40)
    finally:
        document.close()
    with pytest.raises(FileTooLarge, match=r"limits\.max_image_pixels") as refused:
        ImageDocument(Source.from_bytes(data, "scan.png"), 1_000)
    assert refused.value.file == "scan.png"


def test_pillows_own_refusal_is_file_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 500)
    data = _png(Image.new("L", (40, 40), 255))
    with pytest.raises(FileTooLarge, match="MAX_IMAGE_PIXELS") as refused:
        ImageDocument(Source.from_bytes(data, "bomb.png"), 10_000)
    assert refused.value.file == "bomb.png"


def _strip(page: Image.Image, width: int) -> Image.Image:
    """``page`` at the left of a white strip ``width`` pixels wide."""
    strip = Image.new("L", (width, page.height), 255)
    strip.paste(page, (0, 0))
    return strip


def test_small_text_on_a_very_wide_page_keeps_its_reading(
        tesseract: str, page_image: DrawPage) -> None:
    # enlarged 3x for its small text, the page would pass Tesseract's side limit: that
    # pass must be skipped or fail alone, not cost the first reading
    page = _strip(page_image(size=12, margin=20), 12_000)
    result = TesseractBackend().recognize(page, "eng", default_registry().config())
    assert "brown fox" in result.text


def test_a_page_longer_than_tesseract_reads_is_read_shrunk(
        tesseract: str, page_image: DrawPage) -> None:
    page = _strip(page_image(size=48), MAX_SIDE + 8_000)
    result = TesseractBackend().recognize(page, "eng", default_registry().config())
    assert "brown fox" in result.text


def test_a_one_pixel_wide_frame_counts_its_rows() -> None:
    # each row costs Pillow a pointer besides its pixel: 1 x 2,000 is not 2,000 pixels' worth
    data = _png(Image.new("L", (1, 2_000), 255))
    with pytest.raises(FileTooLarge, match="decompression bomb") as refused:
        ImageDocument(Source.from_bytes(data, "strip.png"), 10_000)
    assert refused.value.file == "strip.png"
