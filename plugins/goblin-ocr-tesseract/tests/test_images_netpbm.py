"""Netpbm images (PBM, PGM, PPM), as scanners and image pipelines write them, are read.

SANE's scanimage writes PNM by default and ImageMagick converts through it; such a
file was plain text full of binary ("binary content in a text file") or an unknown
format, never OCR'd.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

import goblin_core
from goblin_core.testing.corpus import normalize

LINE = "Invoice number 4471 was paid on 12 March."
DrawPage = Callable[..., Image.Image]


@pytest.mark.parametrize(("mode", "name"), [
    ("1", "scan.pbm"), ("L", "scan.pgm"), ("RGB", "scan.ppm"), ("L", "scan"),
])
def test_raw_netpbm_scans_are_read(tesseract: str, page_image: DrawPage, mode: str,
                                   name: str) -> None:
    out = io.BytesIO()
    page_image([LINE]).convert(mode).save(out, format="PPM")
    doc = goblin_core.extract(out.getvalue(), name=name)
    assert doc.mime == "image/x-portable-anymap"
    assert [page.status for page in doc.pages] == ["ocr"]
    assert LINE in normalize(doc.text)


def test_a_plain_netpbm_file_is_an_image(page_image: DrawPage) -> None:
    # the ASCII form: its numbers are pixels, not text to read
    page = page_image([LINE]).convert("L")
    pixels = " ".join(str(value) for value in page.tobytes())
    data = f"P2\n# written by hand\n{page.width} {page.height}\n255\n{pixels}\n".encode()
    doc = goblin_core.extract(data, name="scan.pgm", ocr="never")
    assert doc.mime == "image/x-portable-anymap"
    assert doc.pages[0].status == "corrupt"  # an image page waiting for OCR, no digits
    assert doc.text.strip() == ""
