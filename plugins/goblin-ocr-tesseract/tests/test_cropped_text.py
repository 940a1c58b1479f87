"""Text cropped to its ink: Tesseract reads no text that touches the edge of its image."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont, ImageOps

import goblin_core
from goblin_ocr_tesseract.margin import with_margin


def _cropped(text: str, size: int) -> Image.Image:
    """``text`` drawn black on white, the image cut to the bounds of its ink."""
    font = ImageFont.load_default(size=size)
    left, top, right, bottom = font.getbbox(text)
    image = Image.new("L", (right - left, bottom - top), 255)
    ImageDraw.Draw(image).text((-left, -top), text, font=font, fill=0)
    return image


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize(("text", "size"), [("Paid", 24), ("Lantern", 60),
                                             ("Invoice 4471", 60), ("Goblin", 120)])
def test_a_word_cropped_to_its_ink_is_read(tesseract: str, text: str, size: int) -> None:
    doc = goblin_core.extract(_png(_cropped(text, size)), name="label.png")
    assert doc.text.strip() == text
    assert [p.status for p in doc.pages] == ["ocr"]


def test_white_text_cropped_from_a_dark_button_is_read(tesseract: str) -> None:
    button = ImageOps.invert(_cropped("Total: 58.20", 36))
    doc = goblin_core.extract(_png(button), name="button.png")
    assert doc.text.strip() == "Total: 58.20"


def test_the_margin_takes_the_colour_of_the_paper() -> None:
    word = _cropped("Lantern", 36).convert("RGB")
    margined = with_margin(word)
    assert margined.width > word.width and margined.height > word.height
    assert margined.getpixel((0, 0)) == (255, 255, 255)
    dark = with_margin(ImageOps.invert(word))
    assert dark.getpixel((0, 0)) == (0, 0, 0)


def test_a_page_with_margins_of_its_own_is_left_as_it_is() -> None:
    page = Image.new("L", (800, 600), 255)
    page.paste(_cropped("Invoice 4471 was paid", 36), (100, 100))
    page.putpixel((0, 0), 0)  # a speck of dust on the edge is no text
    assert with_margin(page) is page


def test_noise_to_the_edges_gets_no_margin() -> None:
    # no plain paper to extend: a margin only gave Tesseract more noise to misread
    noise = Image.effect_noise((400, 200), 70)
    assert with_margin(noise) is noise
