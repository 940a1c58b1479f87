"""Images drawn on a transparent background: the paper they are read on."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image, ImageOps

import goblin_core
from goblin_core.testing.corpus import normalize
from goblin_ocr_tesseract.flatten import flatten

DrawPage = Callable[..., Image.Image]

LINES = ("Subtitles are white letters on nothing", "Goblin reads scanned pages with Tesseract.")


def _on_nothing(page: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """The ink of a drawn ``page`` (black on white) in ``colour``, on a transparent background."""
    drawing = Image.new("RGBA", page.size, (*colour, 0))
    drawing.putalpha(ImageOps.invert(page.convert("L")))
    return drawing


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_white_text_on_a_transparent_background_is_read(tesseract: str,
                                                        page_image: DrawPage) -> None:
    white_text = _on_nothing(page_image(LINES), (255, 255, 255))
    doc = goblin_core.extract(_png(white_text), name="subtitle.png")
    [page] = doc.pages
    assert page.status == "ocr"
    assert all(line in normalize(page.text) for line in LINES), page.text


def test_white_text_on_a_transparent_background_is_laid_on_black(page_image: DrawPage) -> None:
    flat = flatten(_on_nothing(page_image(LINES), (255, 255, 255)))
    assert flat.getpixel((0, 0)) == (0, 0, 0)
    assert flat.convert("L").getextrema() == (0, 255)


def test_dark_text_on_a_transparent_background_stays_on_white(page_image: DrawPage) -> None:
    flat = flatten(_on_nothing(page_image(LINES), (20, 20, 120)))
    assert flat.getpixel((0, 0)) == (255, 255, 255)


def test_a_page_with_transparent_margins_stays_on_white(page_image: DrawPage) -> None:
    page = page_image(LINES).convert("RGBA")
    canvas = Image.new("RGBA", (page.width + 400, page.height + 400), (0, 0, 0, 0))
    canvas.paste(page, (200, 200))
    flat = flatten(canvas)
    assert flat.getpixel((0, 0)) == (255, 255, 255)


def _with_transparent_paper(page: Image.Image, fmt: str) -> bytes:
    """``page`` (black on white) saved with its white as the one transparent value."""
    buffer = io.BytesIO()
    page.save(buffer, fmt, transparency=255 if page.mode == "L" else (255, 255, 255))
    return buffer.getvalue()


@pytest.mark.parametrize(("mode", "fmt"), [("L", "GIF"), ("L", "PNG"), ("RGB", "PNG")])
def test_text_on_paper_of_one_transparent_value_is_read(tesseract: str, page_image: DrawPage,
                                                       mode: str, fmt: str) -> None:
    data = _with_transparent_paper(page_image(LINES).convert(mode), fmt)
    doc = goblin_core.extract(data, name=f"scan.{fmt.lower()}")
    [page] = doc.pages
    assert page.status == "ocr"
    assert all(line in normalize(page.text) for line in LINES), page.text


def test_a_transparent_value_is_laid_on_paper_not_kept(page_image: DrawPage) -> None:
    with Image.open(io.BytesIO(_with_transparent_paper(page_image(LINES), "PNG"))) as page:
        assert page.mode == "L" and "transparency" in page.info
        flat = flatten(page)
    assert "transparency" not in flat.info
    assert flat.mode == "L" and flat.getpixel((0, 0)) == 255
