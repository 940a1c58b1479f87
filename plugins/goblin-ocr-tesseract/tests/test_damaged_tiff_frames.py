"""Multi-page TIFF scans damaged or cut short after their first pages."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops, TiffImagePlugin

import goblin_core
from goblin_core.source import Source
from goblin_ocr_tesseract.images import ImageDocument

DrawPage = Callable[..., Image.Image]

PAGE_WORDS = ("Orchard", "Lantern", "Harbour")


def _three_page_scan(page_image: DrawPage, compression: str) -> bytes:
    """A bilevel three-page TIFF, page N saying ``Page N`` and its own word."""
    pages = [page_image([f"Page {n} {word}", f"{word} appears on page {n} only"]).convert("1")
             for n, word in enumerate(PAGE_WORDS, start=1)]
    buffer = io.BytesIO()
    pages[0].save(buffer, "TIFF", save_all=True, append_images=pages[1:],
                  compression=compression)
    return buffer.getvalue()


def _directory_offset(data: bytes, frame: int) -> int:
    """Where the directory of ``frame`` (0-based) starts in the TIFF ``data``."""
    with Image.open(io.BytesIO(data)) as image:
        assert isinstance(image, TiffImagePlugin.TiffImageFile)
        image.seek(frame)
        offset = image.tag_v2.offset
    assert offset is not None
    return offset


def _frames_differ(document: ImageDocument, first: int, second: int) -> bool:
    with document.render(first, 300) as one, document.render(second, 300) as other:
        return ImageChops.difference(one, other).getbbox() is not None


@pytest.mark.parametrize("compression", ["group4", "tiff_lzw"])
def test_a_tiff_cut_inside_a_later_directory_keeps_the_pages_before_it(
        page_image: DrawPage, compression: str) -> None:
    data = _three_page_scan(page_image, compression)
    # cut 20 bytes into the third frame's directory: its size is read, its pixels are not
    cut = data[:_directory_offset(data, 2) + 20]
    document = ImageDocument(Source.from_bytes(cut, "scan.tif"), 10**8)
    try:
        assert document.page_count == 2
        assert [page.number for page in document.pages()] == [1, 2]
        # page 2 is page 2, not page 1 decoded again in its place
        assert _frames_differ(document, 1, 2)
        [(kind, message)] = document.warnings
        assert kind == "Truncated"
        assert "frame 3" in message
    finally:
        document.close()


def test_a_tiff_cut_inside_a_later_directory_reads_each_page_as_itself(
        tesseract: str, page_image: DrawPage) -> None:
    data = _three_page_scan(page_image, "group4")
    cut = data[:_directory_offset(data, 2) + 40]
    doc = goblin_core.extract(cut, name="scan.tif", ocr="always")
    assert [page.number for page in doc.pages] == [1, 2]
    for page, word in zip(doc.pages, PAGE_WORDS, strict=False):
        assert word in page.text
    assert PAGE_WORDS[0] not in doc.pages[1].text
    assert doc.report.truncated
    assert any(w.kind == "Truncated" and "frame 3" in w.message for w in doc.report.warnings)


def test_a_tiff_whose_second_directory_lost_its_size_keeps_its_first_page(
        page_image: DrawPage) -> None:
    # Pillow raises TypeError ("Missing dimensions") on such a frame: the whole scan was lost
    data = _three_page_scan(page_image, "group4")
    cut = data[:_directory_offset(data, 1) + 4]
    document = ImageDocument(Source.from_bytes(cut, "scan.tif"), 10**8)
    try:
        assert document.page_count == 1
        assert [page.number for page in document.pages()] == [1]
        [(kind, message)] = document.warnings
        assert kind == "Truncated"
        assert "frame 2" in message
    finally:
        document.close()


def test_a_whole_multipage_tiff_has_no_warning(page_image: DrawPage) -> None:
    data = _three_page_scan(page_image, "group4")
    document = ImageDocument(Source.from_bytes(data, "scan.tif"), 10**8)
    try:
        assert document.page_count == 3
        assert document.warnings == []
        assert _frames_differ(document, 2, 3)
    finally:
        document.close()


def test_a_directory_running_past_the_end_of_the_file_is_named_so(page_image: DrawPage) -> None:
    data = _three_page_scan(page_image, "group4")
    # its count and first eight entries (size, strips) are there, the rest is cut off
    cut = data[:_directory_offset(data, 2) + 2 + 12 * 8 + 3]
    document = ImageDocument(Source.from_bytes(cut, "scan.tif"), 10**8)
    try:
        [(_, message)] = document.warnings
    finally:
        document.close()
    assert message.startswith("the directory of frame 3 runs past the end of the file (to byte ")
    assert "the file is cut short or damaged" in message
    assert message.endswith("it and any frame after it are lost; frames 1 to 2 are read")
