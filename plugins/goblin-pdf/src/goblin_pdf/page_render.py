"""Drawing one PDF page into a grayscale image within a time budget.

PDFium's time to draw a page follows its objects and the pixels they cover, not
the file's size: a 30 kB page of 120,000 lines across the page takes most of a
minute at 300 dpi. Its progressive renderer asks, every hundred objects or so,
whether to pause; goblin pauses once the budget is spent and gives the page up,
so one page cannot hold a whole batch.
"""

from __future__ import annotations

import math
import time
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

_WHITE = (255, 255, 255, 255)


class RenderTimeout(Exception):
    """PDFium was still drawing the page when its time budget ran out."""


def render_gray(page: pdfium.PdfPage, scale: float, *, timeout: float,
                draw_annotations: bool, form_env: Any = None) -> Image.Image:
    """``page`` drawn at ``scale`` pixels per point, grayscale, annotations included when
    ``draw_annotations``, form fields drawn over it when ``form_env`` is given.

    Raises RenderTimeout when drawing the page's content takes longer than
    ``timeout`` seconds."""
    width = max(1, math.ceil(page.get_width() * scale))
    height = max(1, math.ceil(page.get_height() * scale))
    bitmap = pdfium.PdfBitmap.new_native(width, height, format=pdfium_c.FPDFBitmap_Gray)
    try:
        bitmap.fill_rect(_WHITE, 0, 0, width, height)
        flags = pdfium_c.FPDF_GRAYSCALE | (pdfium_c.FPDF_ANNOT if draw_annotations else 0)
        placement = (0, 0, width, height, 0)
        _draw(page, bitmap, placement, flags, timeout)
        if form_env is not None:
            pdfium_c.FPDF_FFLDraw(form_env, bitmap, page, *placement, flags)
        return bitmap.to_pil().convert("L").copy()
    finally:
        bitmap.close()


def _draw(page: pdfium.PdfPage, bitmap: pdfium.PdfBitmap, placement: tuple[int, ...],
          flags: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    pause = pdfium_c.IFSDK_PAUSE(version=1)
    # held in a local for as long as PDFium may call it
    asks = type(pause.NeedToPauseNow)(lambda _: time.monotonic() > deadline)
    pause.NeedToPauseNow = asks
    status = pdfium_c.FPDF_RenderPageBitmap_Start(bitmap, page, *placement, flags, pause)
    try:
        while status == pdfium_c.FPDF_RENDER_TOBECONTINUED:
            if time.monotonic() > deadline:
                raise RenderTimeout(f"drawing the page took more than {timeout:g} s")
            status = pdfium_c.FPDF_RenderPage_Continue(page, pause)
        if status == pdfium_c.FPDF_RENDER_FAILED:
            raise pdfium.PdfiumError("PDFium could not draw the page")
    finally:
        pdfium_c.FPDF_RenderPage_Close(page)
