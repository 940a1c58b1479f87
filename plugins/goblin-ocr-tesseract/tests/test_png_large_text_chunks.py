"""A PNG whose compressed text chunk holds more than a megabyte (ImageMagick writes a
photo's EXIF or XMP profile into one, in hex) is an image like any other: Pillow
refused it whole, pixels and all, as "Decompressed data too large"."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, PngImagePlugin

from goblin_core import Source, default_registry
from goblin_ocr_tesseract.images import ImageParser


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def _png_with_text(where: str) -> bytes:
    """A page with a black band, and a 3 MB zTXt chunk before or after its pixels."""
    page = Image.new("L", (200, 100), 255)
    page.paste(0, (20, 40, 180, 60))
    buffer = io.BytesIO()
    page.save(buffer, "PNG")
    data = buffer.getvalue()
    profile = _chunk(b"zTXt", b"Raw profile type xmp\x00\x00" + zlib.compress(b"3c" * 1_500_000))
    at = data.index(b"IDAT") - 4 if where == "before" else data.rindex(b"IEND") - 4
    return data[:at] + profile + data[at:]


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_text_chunk_over_a_megabyte_does_not_cost_the_image(where: str) -> None:
    limit = PngImagePlugin.MAX_TEXT_CHUNK
    source = Source.from_bytes(_png_with_text(where), "profile.png")
    document = ImageParser().open(source, default_registry().config())
    try:
        with document.render(1, 300) as page:
            assert page.size == (200, 100)
            assert page.getpixel((100, 50)) == 0 and page.getpixel((5, 5)) == 255
    finally:
        document.close()
    # Pillow's own limit is given back
    assert limit == PngImagePlugin.MAX_TEXT_CHUNK
