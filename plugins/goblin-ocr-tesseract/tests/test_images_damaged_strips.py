"""image.pillow on a TIFF whose compressed data is damaged in one strip: the strips
before and after it are read, the damaged one is blank."""

from __future__ import annotations

import io

import pytest
from drawn_pages import draw_page
from PIL import Image, ImageChops

from goblin_core import Source, default_registry
from goblin_ocr_tesseract.images import ImageParser

STRIP_OFFSETS, STRIP_BYTE_COUNTS, ROWS_PER_STRIP = 273, 279, 278


@pytest.mark.parametrize("compression", ["tiff_lzw", "tiff_adobe_deflate", "packbits"])
def test_the_strips_around_a_damaged_one_are_read(compression: str) -> None:
    page = draw_page()
    out = io.BytesIO()
    page.save(out, format="TIFF", compression=compression)
    data = bytearray(out.getvalue())
    tags = Image.open(io.BytesIO(bytes(data))).tag_v2
    offsets, counts, rows = tags[STRIP_OFFSETS], tags[STRIP_BYTE_COUNTS], tags[ROWS_PER_STRIP]
    assert len(offsets) >= 4
    damaged = len(offsets) // 2
    start = offsets[damaged]
    data[start:start + counts[damaged]] = b"\xff" * counts[damaged]
    source = Source.from_bytes(bytes(data), "scan.tif")
    with ImageParser().open(source, default_registry().config()) as parsed:
        drawn = parsed.render(1, 300)
        warnings = parsed.warnings
    assert drawn.size == page.size
    top, bottom = damaged * rows, (damaged + 1) * rows
    for kept in ((0, 0, page.width, top), (0, bottom, page.width, page.height)):
        assert ImageChops.difference(drawn.crop(kept), page.crop(kept)).getbbox() is None
    assert drawn.crop((0, top, page.width, bottom)).getextrema() == (255, 255)
    assert [kind for kind, _ in warnings] == ["Truncated"]
