"""Frames of an image read by a caller's own OCR handler: over-large frames are refused."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from goblin_core.compat.ocr import frames_through
from goblin_core.errors import FileTooLarge


class SizesSeen:
    """An OCR handler that reads nothing and remembers the frame sizes it was handed."""

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []

    def extract_text_from_image(self, image: Any) -> str:
        self.sizes.append(image.size)
        return "texto"


def _tiff(*sizes: tuple[int, int]) -> bytes:
    pictures = [Image.new("L", size, 255) for size in sizes]
    buffer = io.BytesIO()
    pictures[0].save(buffer, "TIFF", save_all=True, append_images=pictures[1:])
    return buffer.getvalue()


def test_a_frame_over_the_pixel_limit_is_file_too_large() -> None:
    handler = SizesSeen()
    over = r"frame 2 of 300x300.*limits\.max_image_pixels"
    with pytest.raises(FileTooLarge, match=over) as refused:
        frames_through(handler, _tiff((10, 10), (300, 300)), "autos.tif", "image/tiff",
                       max_frames=0, max_pixels=50_000)
    assert refused.value.file == "autos.tif"
    assert handler.sizes == [(10, 10)]  # the large frame was never decoded for the handler


def test_a_frame_pillow_refuses_as_a_bomb_is_file_too_large(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Pillow checks each frame it seeks to, not only the first: a later one can be the bomb
    data = _tiff((10, 10), (300, 300))
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 10_000)
    with pytest.raises(FileTooLarge, match="decompression bomb") as refused:
        frames_through(SizesSeen(), data, "autos.tif", "image/tiff", max_frames=0)
    assert refused.value.file == "autos.tif"
