"""Pages drawn for the tests, imported by this name (``from drawn_pages import draw_page``):
``conftest`` names one module only, so when this plugin's tests run in one session with
another plugin's, ``from conftest import`` found the other plugin's conftest."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

LINES = (
    "The quick brown fox jumps over the lazy dog.",
    "Goblin reads scanned pages with Tesseract.",
    "Invoice number 4471 was paid on 12 March.",
    "Every page says which engine read it.",
)


def draw_page(
    lines: Sequence[str] = LINES,
    *,
    size: int = 36,
    mode: str = "L",
    ink: int | tuple[int, ...] = 0,
    paper: int | tuple[int, ...] = 255,
    margin: int = 60,
    font: ImageFont.FreeTypeFont | None = None,
) -> Image.Image:
    """A page with ``lines`` of text drawn in ``font`` (Pillow's bundled one by default)."""
    font = font or ImageFont.load_default(size=size)
    width = margin * 2 + int(max(font.getlength(line) for line in lines))
    height = margin * 2 + int(size * 1.6) * len(lines)
    page = Image.new(mode, (width, height), paper)
    pen = ImageDraw.Draw(page)
    for i, line in enumerate(lines):
        pen.text((margin, margin + i * int(size * 1.6)), line, font=font, fill=ink)
    return page
