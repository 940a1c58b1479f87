"""image.pillow on photos whose EXIF is damaged: the page is still turned upright by
its orientation and drawn for OCR, and Pillow's warnings about the damage go to the
log, not to the terminal of whoever runs goblin."""

from __future__ import annotations

import io
import logging
import struct
import warnings

import pytest
from drawn_pages import draw_page
from PIL import Image, ImageChops, ImageStat

from goblin_core import Source, default_registry
from goblin_ocr_tesseract.images import ImageParser

ORIENTATION, DESCRIPTION, COMPRESSION = 0x0112, 0x010E, 0x0103


def exif_with_description(orientation: int = 1) -> tuple[bytearray, int]:
    """EXIF with an orientation and a description, as Pillow writes it (big-endian), and
    where the description's directory entry (tag, type, count, offset) is."""
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    exif[DESCRIPTION] = "A scanned receipt, photographed"
    raw = bytearray(exif.tobytes())
    tiff = raw.index(b"MM\x00*")
    first = tiff + struct.unpack_from(">I", raw, tiff + 4)[0]
    entries = (first + 2 + 12 * n for n in range(struct.unpack_from(">H", raw, first)[0]))
    return raw, next(at for at in entries if struct.unpack_from(">H", raw, at)[0] == DESCRIPTION)


def jpeg(page: Image.Image, exif: bytes) -> bytes:
    out = io.BytesIO()
    page.save(out, format="JPEG", quality=95, exif=exif)
    return out.getvalue()


def test_a_photo_with_damaged_exif_is_drawn_upright() -> None:
    """Orientation 6 (turn right to view), and a Compression tag holding text where EXIF
    has a number: Pillow reads it, and cannot write it out again."""
    page = draw_page()
    raw, description = exif_with_description(orientation=6)
    struct.pack_into(">H", raw, description, COMPRESSION)
    source = Source.from_bytes(jpeg(page.rotate(90, expand=True), bytes(raw)), "receipt.jpg")
    with ImageParser().open(source, default_registry().config()) as parsed:
        drawn = parsed.render(1, 300)
    assert drawn.size == page.size
    difference = ImageStat.Stat(ImageChops.difference(drawn.convert("L"), page)).mean[0]
    assert difference < 4


def test_pillows_warnings_on_damaged_exif_go_to_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    raw, description = exif_with_description()
    struct.pack_into(">I", raw, description + 8, 0x00FF_0000)  # its text past the end
    source = Source.from_bytes(jpeg(draw_page(mode="RGB"), bytes(raw)), "photo.jpg")
    with warnings.catch_warnings(record=True) as shown, \
            caplog.at_level(logging.DEBUG, logger="goblin_ocr_tesseract.images"):
        warnings.simplefilter("always")
        with ImageParser().open(source, default_registry().config()) as parsed:
            assert "title" not in parsed.metadata
            assert parsed.render(1, 300).size[0] > 0
    assert [str(w.message) for w in shown] == []
    assert "Pillow on photo.jpg: Truncated File Read" in caplog.text
