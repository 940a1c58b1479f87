"""One character's loose box at a time, for code that asks about a few characters of a page."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium

from goblin_pdf.layout.native import LOOSE_BOX

Box = tuple[float, float, float, float]


class LooseBoxes:
    """Loose boxes of a text page's characters as (x0, y0, x1, y1), None for a character
    without one; one native call each into a buffer kept for the page."""

    def __init__(self, textpage: pdfium.PdfTextPage) -> None:
        self.handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
        self._rect = (ctypes.c_float * 4)()
        self._address = ctypes.addressof(self._rect)

    def __call__(self, index: int) -> Box | None:
        if not LOOSE_BOX(self.handle, index, self._address):
            return None
        left, top, right, bottom = self._rect
        if right <= left or top <= bottom:
            return None
        return left, bottom, right, top
