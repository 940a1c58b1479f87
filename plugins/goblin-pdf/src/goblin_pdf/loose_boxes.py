"""One character's loose box at a time, for code that asks about a few characters of a page."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium

from goblin_pdf.layout.native import BULK_LOOSE_BOX

Box = tuple[float, float, float, float]


class LooseBoxes:
    """Loose boxes of a text page's characters as (x0, y0, x1, y1), None for a character
    without one; one native call each into a buffer kept for the page, made as the bulk
    calls are (``untyped``): the handle and the buffer's pointer are ctypes objects made
    once for the page, and no conversion object is built for any argument."""

    def __init__(self, textpage: pdfium.PdfTextPage) -> None:
        self._pointer = ctypes.cast(textpage.raw, ctypes.c_void_p)
        self.handle = self._pointer.value or 0
        self._rect = (ctypes.c_float * 4)()
        self._into = ctypes.byref(self._rect)

    def __call__(self, index: int) -> Box | None:
        if not BULK_LOOSE_BOX(self._pointer, index, self._into):
            return None
        left, top, right, bottom = self._rect
        if right <= left or top <= bottom:
            return None
        return left, bottom, right, top
