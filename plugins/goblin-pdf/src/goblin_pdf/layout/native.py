"""PDFium's per-character text calls, typed for speed, and its text rectangles.

Kept apart from the NumPy code of the layout reader: every page's column check
and text checks use these, and a run that rebuilds no page need not load NumPy.
"""

from __future__ import annotations

import ctypes
from itertools import repeat
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

# The per-character calls, typed to take and return plain integers: pypdfium2's
# wrappers resolve handles on every call, which costs more than PDFium's work.
LOOSE_BOX = ctypes.cast(pdfium_c.FPDFText_GetLooseCharBox, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p))
RECT = ctypes.cast(pdfium_c.FPDFText_GetRect, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
    ctypes.c_void_p, ctypes.c_void_p))
CHAR_INDEX = ctypes.cast(pdfium_c.FPDFText_GetCharIndexFromTextIndex, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int))
IS_GENERATED = ctypes.cast(pdfium_c.FPDFText_IsGenerated, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int))
#: PDFium's code for a hyphen it found breaking a word at a line end
MARKED_HYPHEN = "\ufffe"
# Returned as an integer address (0 for none) so NumPy can take the results as they come.
TEXT_OBJECT = ctypes.cast(pdfium_c.FPDFText_GetTextObject, ctypes.CFUNCTYPE(
    ctypes.c_size_t, ctypes.c_void_p, ctypes.c_int))


def untyped(function: Any, restype: Any) -> Any:
    """``function`` declared with no argument types, for calls made in bulk (for every
    character of a page, every kid of a structure element): ctypes then passes a
    Python int as a C int (the index) and a ctypes object (the handle as ``c_void_p``,
    an output pointer from ``byref``) as it is, where declared types build a
    conversion object for every argument of every call, a fifth to a third of the call's
    cost. Only for functions whose arguments are pointers and C ints, called with
    handles and pointers as ctypes objects (a plain int would go as a C int); a
    ``restype`` subclassing a ctypes type comes back as that object, ready to pass."""
    return ctypes.cast(function, ctypes.CFUNCTYPE(restype))


# The glyph reader's bulk calls: take the text page as ``c_void_p``, pointers via ``byref``.
BULK_LOOSE_BOX = untyped(pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_int)
BULK_ANGLE = untyped(pdfium_c.FPDFText_GetCharAngle, ctypes.c_float)
BULK_TEXT_OBJECT = untyped(pdfium_c.FPDFText_GetTextObject, ctypes.c_size_t)
BULK_TEXT_INDEX = untyped(pdfium_c.FPDFText_GetTextIndexFromCharIndex, ctypes.c_int)
BULK_MAP_ERROR = untyped(pdfium_c.FPDFText_HasUnicodeMapError, ctypes.c_int)
BULK_CHAR_INDEX = untyped(pdfium_c.FPDFText_GetCharIndexFromTextIndex, ctypes.c_int)


INK_BOX = ctypes.cast(pdfium_c.FPDFText_GetCharBox, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
    ctypes.c_void_p, ctypes.c_void_p))
# How far apart (in points) the edges of a loose and an ink box may be and the two be one
# box: the loose box is then a float copy of the ink box.
_SAME_BOX = 0.01


def ink_boxed(handle: int, index: int) -> bool:
    """Whether character ``index`` of the text page at ``handle`` has its ink's box for a
    loose box though its font has the metrics for one: a character an ``/ActualText``
    span spells (a ligature, a small capital drawn as a smaller capital), for which
    PDFium has no glyph advance. Its box stands apart from its neighbours' by the
    glyphs' side bearings, which are no word gaps (``He re``, ``signifi cantly``). A
    font with no ascent or descent gives every glyph its ink's box, and the letter
    spacing measured on them takes the side bearings in."""
    ink = [ctypes.c_double() for _ in range(4)]  # left, right, bottom, top
    loose = (ctypes.c_float * 4)()  # left, top, right, bottom
    if not INK_BOX(handle, index, *map(ctypes.byref, ink)) or \
            not LOOSE_BOX(handle, index, ctypes.addressof(loose)):
        return False
    left, right, bottom, top = (value.value for value in ink)
    if any(abs(a - b) > _SAME_BOX
           for a, b in zip((left, top, right, bottom), loose, strict=True)):
        return False
    text_object = TEXT_OBJECT(handle, index)
    font = pdfium_c.FPDFTextObj_GetFont(
        ctypes.cast(text_object, pdfium_c.FPDF_PAGEOBJECT)) if text_object else None
    if not font:
        return False
    ascent, descent = ctypes.c_float(), ctypes.c_float()
    return bool(pdfium_c.FPDFFont_GetAscent(font, 1.0, ctypes.byref(ascent))
                and pdfium_c.FPDFFont_GetDescent(font, 1.0, ctypes.byref(descent))
                and ascent.value != descent.value)


def loose_boxes_of(handle: ctypes.c_void_p, indices: list[int],
                   count: int) -> ctypes.Array[ctypes.c_float]:
    """Loose boxes of the characters at ``indices`` of a text page with ``count``
    characters, as one FS_RECTF (left, top, right, bottom) per character index, filled
    in place; map() drives the native calls without a Python-level loop body. The
    array starts zeroed, which is what a character not asked about, or without a box,
    reads as."""
    rects = (ctypes.c_float * (4 * count))()
    asked = len(indices)
    list(map(BULK_LOOSE_BOX, repeat(handle, asked), indices,
             map(ctypes.byref, repeat(rects, asked), [16 * i for i in indices])))
    return rects


def drawn_text_rects(textpage: pdfium.PdfTextPage) -> list[tuple[float, float, float, float]]:
    """PDFium's text rectangles of the page that enclose something (width and height)."""
    count = pdfium_c.FPDFText_CountRects(textpage, 0, -1)
    if count <= 0:
        return []
    return [b for b in text_rects(textpage, count) if b[3] > b[1] and b[2] > b[0]]


def text_rects(textpage: pdfium.PdfTextPage,
               count: int) -> list[tuple[float, float, float, float]]:
    """PDFium's text rectangles (after ``FPDFText_CountRects`` returned ``count``) as
    (x0, y0, x1, y1) in page space: plain tuples, since a page has tens of them and
    the column check reads them one by one."""
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value
    values = (ctypes.c_double * (4 * count))()
    base = ctypes.addressof(values)
    # FPDFText_GetRect writes left, top, right, bottom through four pointers
    fields = [range(base + 8 * k, base + 8 * k + 32 * count, 32) for k in range(4)]
    list(map(RECT, repeat(handle, count), range(count), *fields))
    flat = memoryview(values).cast("B").cast("d").tolist()
    return list(zip(flat[0::4], flat[3::4], flat[2::4], flat[1::4], strict=True))
