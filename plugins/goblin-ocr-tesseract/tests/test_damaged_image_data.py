"""Scans whose compressed pixel data is damaged part way (a bad sector, flipped bits)."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image

import goblin_core
from goblin_core.source import Source
from goblin_core.testing.corpus import normalize
from goblin_ocr_tesseract.images import ImageDocument

DrawPage = Callable[..., Image.Image]

LINES = (
    "The quick brown fox jumps over the lazy dog.",
    "Goblin reads scanned pages with Tesseract.",
    "Invoice number 4471 was paid on 12 March.",
    "Every page says which engine read it.",
)


def _png_damaged_at(page: Image.Image, share: float) -> bytes:
    """``page`` as a PNG with 64 bytes of its pixel data overwritten ``share`` of the way in."""
    buffer = io.BytesIO()
    page.save(buffer, "PNG")
    data = bytearray(buffer.getvalue())
    start = int(len(data) * share)
    data[start:start + 64] = b"\xa5" * 64
    return bytes(data)


def test_a_png_damaged_part_way_gives_the_lines_before_the_damage(
        tesseract: str, page_image: DrawPage) -> None:
    damaged = _png_damaged_at(page_image(LINES * 3), 0.6)
    doc = goblin_core.extract(damaged, name="setor-ruim.png")
    assert [p.status for p in doc.pages] == ["ocr"]
    assert LINES[0] in normalize(doc.text)
    [warning] = doc.report.warnings
    assert warning.kind == "Truncated" and doc.report.truncated
    assert warning.message.startswith("page 1: the image data is damaged (")
    assert "the part that decodes was read" in warning.message
    from PIL import ImageFile
    assert ImageFile.LOAD_TRUNCATED_IMAGES is False


def test_a_damaged_png_renders_its_page_and_says_so(page_image: DrawPage) -> None:
    damaged = _png_damaged_at(page_image(LINES * 3), 0.6)
    document = ImageDocument(Source.from_bytes(damaged, "setor-ruim.png"), 10**8)
    try:
        with document.render(1, 300) as page:
            assert page.getpixel((0, 0)) == 255  # the top, before the damage, is there
        assert [kind for kind, _ in document.warnings] == ["Truncated"]
    finally:
        document.close()
