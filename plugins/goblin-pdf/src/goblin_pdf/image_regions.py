"""Images on a page of text that no text covers: where OCR finds what the text layer lacks.

A PDF page of text may paste in an image of more text: a scanned form, a screenshot, a
product code drawn as a picture. The page reads plenty of text, so it is not OCR'd as a
whole, and the image's words are missing. This finds such images (``ImageRegion``) for
the core to OCR alone: big enough to hold a line of text, drawn from enough pixels to
read, and not under the page's own text (a scan with an OCR layer over it has its text
already). Each region says which line follows it, so its text goes in where it stands.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_core.model import ImageRegion
from goblin_pdf.layout.native import text_rects

Rect = tuple[float, float, float, float]  # left, bottom, right, top in page points

#: Top-level objects walked on one page at most: a page of more is a drawing (a map, a
#: chart of tens of thousands of paths), not a page of text with a picture in it.
MAX_OBJECTS = 10_000
#: Regions read per page at most, the largest first.
MAX_REGIONS = 8
#: The smallest image that can hold a line of text: an inch wide, a quarter inch high,
#: 2% of the page, and drawn from at least 150 x 30 pixels.
_MIN_WIDTH, _MIN_HEIGHT, _MIN_SHARE = 72.0, 18.0, 0.02
_MIN_PIXELS = (150, 30)
#: The share of an image under the page's own text past which its text is in the text
#: layer already (a scan with an OCR layer, text set over a background picture).
_MAX_TEXT_COVER = 0.1
#: Characters of the line below a region kept to find that line in the page's text.
_BEFORE_CHARS = 40

_COUNT = ctypes.cast(pdfium_c.FPDFPage_CountObjects, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p))
_OBJECT = ctypes.cast(pdfium_c.FPDFPage_GetObject, ctypes.CFUNCTYPE(
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int))
_KIND = ctypes.cast(pdfium_c.FPDFPageObj_GetType, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p))


def untexted_images(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage) -> tuple[ImageRegion, ...]:
    """The page's images that may hold text its text layer does not, largest first."""
    if page.get_rotation() % 360:
        return ()  # the rendered page is turned: its boxes would need turning too
    handle = ctypes.cast(page.raw, ctypes.c_void_p).value
    count = _COUNT(handle)
    if count <= 0 or count > MAX_OBJECTS:
        return ()
    images = [obj for obj in map(_OBJECT, [handle] * count, range(count))
              if obj and _KIND(obj) == pdfium_c.FPDF_PAGEOBJ_IMAGE]
    if not images:
        return ()
    crop = page.get_cropbox()
    width, height = crop[2] - crop[0], crop[3] - crop[1]
    if width <= 0 or height <= 0:
        return ()
    candidates = [box for box in map(_readable_box, images)
                  if box is not None and _big_enough(box, width * height)]
    if not candidates:
        return ()
    rects = text_rects(textpage, max(textpage.count_rects(), 0))
    found = [box for box in candidates if _text_cover(box, rects) < _MAX_TEXT_COVER]
    found.sort(key=_area, reverse=True)
    regions = []
    for box in sorted(found[:MAX_REGIONS], key=lambda b: -b[3]):  # top to bottom
        left, bottom, right, top = box
        fractions = (_unit((left - crop[0]) / width), _unit((crop[3] - top) / height),
                     _unit((right - crop[0]) / width), _unit((crop[3] - bottom) / height))
        regions.append(ImageRegion(fractions, _line_below(box, rects, textpage)))
    return tuple(regions)


def _readable_box(image: int) -> Rect | None:
    """An image object's bounds, None when it is drawn from too few pixels to read."""
    obj = ctypes.cast(image, pdfium_c.FPDF_PAGEOBJECT)
    pixels_wide, pixels_high = ctypes.c_uint(), ctypes.c_uint()
    if not pdfium_c.FPDFImageObj_GetImagePixelSize(obj, pixels_wide, pixels_high):
        return None
    if pixels_wide.value < _MIN_PIXELS[0] or pixels_high.value < _MIN_PIXELS[1]:
        return None
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
        return None
    return left.value, bottom.value, right.value, top.value


def _unit(value: float) -> float:
    return min(max(value, 0.0), 1.0)


def _area(box: Rect) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def _big_enough(box: Rect, page_area: float) -> bool:
    return (box[2] - box[0] >= _MIN_WIDTH and box[3] - box[1] >= _MIN_HEIGHT
            and _area(box) >= _MIN_SHARE * page_area)


def _text_cover(box: Rect, rects: Sequence[Rect]) -> float:
    """The share of ``box`` under text rectangles."""
    covered = 0.0
    for left, bottom, right, top in rects:
        wide = min(box[2], right) - max(box[0], left)
        high = min(box[3], top) - max(box[1], bottom)
        if wide > 0 and high > 0:
            covered += wide * high
    return covered / _area(box)


def _line_below(box: Rect, rects: Sequence[Rect], textpage: pdfium.PdfTextPage) -> str:
    """The start of the first text under the image that shares its columns, '' if none."""
    below = [r for r in rects
             if r[3] <= box[1] + 2 and min(box[2], r[2]) - max(box[0], r[0]) > 0]
    if not below:
        return ""
    nearest = max(below, key=lambda r: r[3])
    text = textpage.get_text_bounded(*nearest)
    return text.strip().split("\n", 1)[0][:_BEFORE_CHARS]
