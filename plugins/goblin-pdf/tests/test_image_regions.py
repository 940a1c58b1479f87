"""Which images of a page of text the parser names for OCR (``PageContent.image_regions``):
big enough to hold a line, drawn from enough pixels, not under the page's own text; each
with the line below it, so its text goes in where it stands."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Dictionary, Name

import goblin_core
from goblin_core import ImageRegion
from goblin_core.source import Source

ABOVE = "BT /F1 12 Tf 72 760 Td (Here is some introductory text.) Tj ET\n"
BELOW = "BT /F1 12 Tf 72 430 Td (This text appears after the image.) Tj ET\n"


def _with_image(pdf: pikepdf.Pdf, page: int, placement: str, pixels: tuple[int, int] = (500, 100),
                over: str = "") -> None:
    """Draw a gray image of ``pixels`` with the ``cm`` of ``placement``, then ``over``."""
    wide, high = pixels
    image = pdf.make_stream(bytes([200]) * (wide * high), Type=Name.XObject, Subtype=Name.Image,
                            Width=wide, Height=high, ColorSpace=Name.DeviceGray,
                            BitsPerComponent=8)
    target = pdf.pages[page]
    target.Resources.XObject = Dictionary(Im1=image)
    content = target.Contents.read_bytes() + f"q {placement} cm /Im1 Do Q\n{over}".encode()
    target.Contents = pdf.make_stream(content)


def _regions(data: bytes, **options: Any) -> list[tuple[ImageRegion, ...]]:
    registry = goblin_core.default_registry()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(data, "regions.pdf"), registry.config(**options)) as doc:
        return [page.image_regions for page in doc.pages()]


def test_an_image_between_lines_of_text_is_named_with_the_line_below() -> None:
    pdf = helvetica_pages(ABOVE + BELOW)
    _with_image(pdf, 0, "360 0 0 72 72 504")  # 5 by 1 inches, from y = 504 to 576
    [[region]] = _regions(saved(pdf))
    left, top, right, bottom = region.box
    assert (left, right) == pytest.approx((72 / 595, 432 / 595), abs=1e-3)
    assert (top, bottom) == pytest.approx(((842 - 576) / 842, (842 - 504) / 842), abs=1e-3)
    assert region.before == "This text appears after the image."


@pytest.mark.parametrize(("placement", "pixels", "over"), [
    ("36 0 0 36 72 504", (500, 100), ""),        # a half-inch icon: no line of text fits
    ("360 0 0 72 72 504", (60, 12), ""),         # drawn from too few pixels to read
    # text set over it: a scan with its OCR layer, a caption on a background
    ("360 0 0 72 72 504", (500, 100),
     "3 Tr BT /F1 30 Tf 72 540 Td (An invisible OCR line over the scan) Tj ET\n"
     "BT /F1 30 Tf 72 510 Td (and another line of it here) Tj ET\n"),
])
def test_images_that_cannot_hold_unread_text_are_not_named(
        placement: str, pixels: tuple[int, int], over: str) -> None:
    pdf = helvetica_pages(ABOVE + BELOW)
    _with_image(pdf, 0, placement, pixels, over)
    assert _regions(saved(pdf)) == [()]


def test_a_turned_page_names_no_region() -> None:
    pdf = helvetica_pages(ABOVE + BELOW)
    _with_image(pdf, 0, "360 0 0 72 72 504")
    pdf.pages[0].Rotate = 90
    assert _regions(saved(pdf)) == [()]


@pytest.mark.parametrize("options", [{"ocr": "never"}, {"ocr": "always"},
                                     {"ocr_image_regions": False}])
def test_regions_are_looked_for_only_for_auto_ocr(options: dict[str, Any]) -> None:
    pdf = helvetica_pages(ABOVE + BELOW)
    _with_image(pdf, 0, "360 0 0 72 72 504")
    assert _regions(saved(pdf), **options) == [()]


def test_the_largest_regions_are_named_top_to_bottom() -> None:
    pdf = helvetica_pages(ABOVE)
    image = pdf.make_stream(bytes([200]) * (500 * 100), Type=Name.XObject, Subtype=Name.Image,
                            Width=500, Height=100, ColorSpace=Name.DeviceGray,
                            BitsPerComponent=8)
    page = pdf.pages[0]
    page.Resources.XObject = Dictionary(Im1=image)
    # ten images one under the other, the lowest the widest
    draws = "".join(f"q {200 + 10 * i} 0 0 60 72 {690 - 65 * i} cm /Im1 Do Q\n" for i in range(10))
    page.Contents = pdf.make_stream(page.Contents.read_bytes() + draws.encode())
    [regions] = _regions(saved(pdf))
    assert len(regions) == 8
    tops = [region.box[1] for region in regions]
    assert tops == sorted(tops)
    widths = sorted(round((r.box[2] - r.box[0]) * 595) for r in regions)
    assert widths == [220 + 10 * i for i in range(8)]  # the two narrowest left out


def test_a_page_of_more_objects_than_the_bound_names_none() -> None:
    from goblin_pdf.image_regions import MAX_OBJECTS

    pdf = helvetica_pages(ABOVE + BELOW + "0 0 1 1 re f\n" * MAX_OBJECTS)
    _with_image(pdf, 0, "360 0 0 72 72 504")
    assert _regions(saved(pdf)) == [()]


def test_a_page_of_one_image_and_no_text_names_it_whole() -> None:
    # the core OCRs such a page whole (too little text), and leaves its region be
    pdf = helvetica_pages("")
    _with_image(pdf, 0, "595 0 0 842 0 0", (600, 800))
    [[region]] = _regions(saved(pdf))
    assert region.box == pytest.approx((0.0, 0.0, 1.0, 1.0)) and region.before == ""
