"""Character boxes from a PDFium text page, as NumPy arrays in the page's display frame.

PDFium has no bulk call for character boxes, so one native call per character
fills preallocated arrays; everything after that (grouping, columns, order)
works on whole arrays.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

_UPRIGHT_TOLERANCE = 0.2  # radians a run may lean and still read as horizontal

# The per-character calls, typed to take and return plain integers: pypdfium2's
# wrappers resolve handles on every call, which costs more than PDFium's work.
_LOOSE_BOX = ctypes.cast(pdfium_c.FPDFText_GetLooseCharBox, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p))
_ANGLE = ctypes.cast(pdfium_c.FPDFText_GetCharAngle, ctypes.CFUNCTYPE(
    ctypes.c_float, ctypes.c_void_p, ctypes.c_int))
_TEXT_OBJECT = ctypes.cast(pdfium_c.FPDFText_GetTextObject, ctypes.CFUNCTYPE(
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int))


@dataclass(frozen=True)
class Glyphs:
    """Every character of a page, in PDFium's (content-stream) order.

    ``text`` holds one character per PDFium character; ``box`` is (n, 4)
    x0, y0, x1, y1 in display space (page /Rotate applied, y up); ``drawn``
    marks characters with a box (not generated spaces and line breaks);
    ``upright`` marks those that read left to right once the page is shown;
    ``obj`` is the text object index each character came from (-1: none).
    """

    text: str
    box: np.ndarray
    drawn: np.ndarray
    upright: np.ndarray
    obj: np.ndarray
    width: float
    height: float

    @property
    def size(self) -> int:
        return len(self.text)


def read_glyphs(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage,
                objects: dict[int, int] | None = None) -> Glyphs:
    """Glyph boxes of ``page``; ``objects`` (text-object address to index) is filled
    when given, so marked-content reading can look each object up once."""
    count = max(pdfium_c.FPDFText_CountChars(textpage), 0)
    text = textpage.get_text_range(0, count) if count else ""
    if len(text) != count:  # PDFium pads surrogate pairs; fall back to per-char codes
        text = "".join(_char(textpage, i) for i in range(count))
    raw = np.zeros((count, 4), dtype=np.float64)
    angle = np.zeros(count, dtype=np.float64)
    obj = np.full(count, -1, dtype=np.int64)
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    loose, get_angle, get_obj = _LOOSE_BOX, _ANGLE, _TEXT_OBJECT
    seen = objects
    for i in range(count):
        if text[i].isspace():
            continue
        if loose(handle, i, rect_ref):
            raw[i] = (rect.left, rect.bottom, rect.right, rect.top)
        angle[i] = get_angle(handle, i)
        if seen is not None:
            address = get_obj(handle, i)
            if address:
                obj[i] = seen.setdefault(address, len(seen))
    width, height = page.get_size()
    rotation = page.get_rotation() % 360
    drawn = (raw[:, 2] > raw[:, 0]) & (raw[:, 3] > raw[:, 1])
    # PDFium's angles turn clockwise, like /Rotate; a quarter turn per step
    quarter = np.round((angle + math.radians(rotation))
                       / (math.pi / 2)).astype(np.int64) % 4
    lean = np.abs(((angle + math.radians(rotation)) + math.pi / 4) % (math.pi / 2) - math.pi / 4)
    steady = drawn & (angle >= 0) & (lean < _UPRIGHT_TOLERANCE)
    # The page reads the way most of its glyphs run: usually as shown, but a page
    # whose text runs sideways (/Rotate on horizontal text) is read turned back.
    counts = np.bincount(quarter[steady], minlength=4)
    dominant = int(np.argmax(counts)) if counts.any() else 0
    turn = (rotation - 90 * dominant) % 360
    box = _rotate(raw, turn, width, height)
    if turn in (90, 270):
        width, height = height, width
    upright = steady & (quarter == dominant)
    return Glyphs(text, box, drawn, upright, obj, float(width), float(height))


def _char(textpage: pdfium.PdfTextPage, index: int) -> str:
    code = pdfium_c.FPDFText_GetUnicode(textpage, index)
    try:
        return chr(code) if code else "\ufffd"
    except ValueError:
        return "\ufffd"


def _rotate(raw: np.ndarray, rotation: int, width: float, height: float) -> np.ndarray:
    """Boxes as the page is shown: /Rotate turns the page clockwise."""
    x0, y0, x1, y1 = raw.T
    if rotation == 90:
        return np.column_stack([y0, width - x1, y1, width - x0])
    if rotation == 180:
        return np.column_stack([width - x1, height - y1, width - x0, height - y0])
    if rotation == 270:
        return np.column_stack([height - y1, x0, height - y0, x1])
    return raw
