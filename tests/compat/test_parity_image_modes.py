"""``OCRProcessor.extract_text_from_image`` reads an image of any Pillow mode: a CMYK
scan, YCbCr, 32-bit integer or float pixels. Their PNG encoding failed, so the text was
lost ("" and an error); they are converted as a viewer shows them, the text kept dark
on light."""

from __future__ import annotations

import io
from typing import Any

import pytest

from goblin_core.compat import OCRConfig, OCRProcessor

Image = pytest.importorskip("PIL.Image")
ImageDraw = pytest.importorskip("PIL.ImageDraw")


def page() -> Any:
    drawn = Image.new("RGB", (300, 80), "white")
    ImageDraw.Draw(drawn).rectangle((20, 20, 120, 60), fill="black")
    return drawn


def as_mode(mode: str) -> Any:
    if mode == "I;16-range":  # a 16-bit scan's grey levels, 0..65535
        return page().convert("L").point(lambda v: v * 257, mode="I")
    return page().convert(mode)


@pytest.mark.parametrize("mode", ["CMYK", "YCbCr", "HSV", "I", "I;16-range", "F", "RGBX"])
def test_an_image_of_any_mode_reaches_ocr_with_its_text(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[Any] = []

    def document(self: OCRProcessor, source: Any, name: Any, max_pages: int = 0) -> None:
        handed.append(source)

    monkeypatch.setattr(OCRProcessor, "_document", document)
    assert OCRProcessor(OCRConfig()).extract_text_from_image(as_mode(mode)) == ""
    assert len(handed) == 1 and isinstance(handed[0], bytes)
    with Image.open(io.BytesIO(handed[0])) as encoded:
        grey = encoded.convert("L")
        assert grey.getpixel((70, 40)) < 64, "the dark box is lost"
        assert grey.getpixel((250, 40)) > 192, "the light paper is lost"
