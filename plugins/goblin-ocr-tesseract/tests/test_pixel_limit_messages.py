"""What a refused decompression bomb is told: the limit that refused it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from goblin_core.errors import FileTooLarge
from goblin_core.source import Source
from goblin_ocr_tesseract.images import ImageDocument


def _png(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("1", size, 1).save(buffer, "PNG")
    return buffer.getvalue()


def test_an_image_over_both_limits_names_goblins_limit_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 500)  # Pillow refuses past 1,000
    with pytest.raises(FileTooLarge) as refused:
        ImageDocument(Source.from_bytes(_png((40, 40)), "bomb.png"), 1_000)
    message = str(refused.value)
    assert "the image is over limits.max_image_pixels (1,000)" in message
    assert "past 1,000 pixels Pillow's Image.MAX_IMAGE_PIXELS too" in message
    assert refused.value.file == "bomb.png"
