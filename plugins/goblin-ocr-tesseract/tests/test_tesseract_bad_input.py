"""ocr.tesseract handed something it cannot read: the empty result, never an exception.

The OCR contract (``goblin_register_ocr_backends``) says a backend returns
``OCRResult("", 0.0)`` on any failure, so the core keeps the page's own text.
"""

from __future__ import annotations

import io
import logging

import pytest
from PIL import Image

from goblin_core import default_registry
from goblin_core.model import OCRResult
from goblin_ocr_tesseract.backend import TesseractBackend

EMPTY = OCRResult("", 0.0)


def _pdf_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (40, 40), 255).save(buffer, "PDF")
    return buffer.getvalue()


@pytest.mark.parametrize("thing", [_pdf_bytes(), None, "scan.png", 42],
                         ids=["pdf-bytes", "none", "path-string", "number"])
def test_something_not_an_image_gets_the_empty_result(
    tesseract: str, thing: object, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="goblin_ocr_tesseract"):
        result = TesseractBackend().recognize(thing, "eng", default_registry().config())
    assert result == EMPTY
    assert "not a page image" in caplog.text


@pytest.mark.parametrize("size", [(0, 0), (0, 30), (30, 0)])
def test_an_image_without_pixels_gets_the_empty_result(
    tesseract: str, size: tuple[int, int], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="goblin_ocr_tesseract"):
        result = TesseractBackend().recognize(Image.new("RGB", size), "eng",
                                              default_registry().config())
    assert result == EMPTY
    assert f"empty {size[0]}x{size[1]} image" in caplog.text


def test_a_blank_image_reads_as_nothing(tesseract: str) -> None:
    blank = Image.new("L", (300, 200), 255)
    result = TesseractBackend().recognize(blank, "eng", default_registry().config())
    assert result.text == ""
    assert result.confidence == 0.0


@pytest.mark.parametrize(("fmt", "mode"), [("PNG", "RGBA"), ("JPEG", "L"), ("TIFF", "1")])
def test_a_truncated_image_stream_gets_the_empty_result(
    tesseract: str, fmt: str, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    buffer = io.BytesIO()
    Image.effect_noise((300, 300), 80).convert(mode).save(buffer, fmt)
    data = buffer.getvalue()
    lazily_opened = Image.open(io.BytesIO(data[: len(data) // 2]))
    with caplog.at_level(logging.WARNING, logger="goblin_ocr_tesseract"):
        result = TesseractBackend().recognize(lazily_opened, "eng", default_registry().config())
    assert result == EMPTY
    assert "could not read" in caplog.text
