"""Text a page holds but does not show: drawn in text render mode 3 (invisible) or 7
(a clipping path only), or on a layer the default view turns off (``optional_content``).

All of a page's text is drawn so when it is an OCR layer laid over a scan (Tesseract,
OCRmyPDF, scanner software): its words are then as good as that OCR was, which is
worth knowing before trusting them. A few such words on a page of visible text are
text its reader never sees (form data kept out of view, words hidden for search
engines or for a program reading the file).
"""

from __future__ import annotations

from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

_HIDDEN_MODES = frozenset({pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE,
                           pdfium_c.FPDF_TEXTRENDERMODE_CLIP})
#: Characters looked at before counting them all. An OCR layer is the whole page and a
#: sample always finds it; counting every character costs two native calls each, which
#: only the pages a sample caught pay.
SAMPLES = 32


def hidden_chars(textpage: pdfium.PdfTextPage, unshown: frozenset[int] = frozenset()) -> int:
    """How many of the page's non-space characters are drawn invisible, or are among
    ``unshown`` (PDFium indices of characters on a hidden layer), each counted once."""
    total = textpage.count_chars()
    if total <= 0:
        return 0
    layered = sum(1 for index in unshown
                  if not _space(pdfium_c.FPDFText_GetUnicode(textpage, index)))
    step = max(1, total // SAMPLES)
    if not any(_hidden(textpage, index) for index in range(step // 2, total, step)):
        return layered
    return layered + sum(1 for index in range(total)
                         if index not in unshown
                         and not _space(pdfium_c.FPDFText_GetUnicode(textpage, index))
                         and _hidden(textpage, index))


def _space(code: int) -> bool:
    return code <= 0x10FFFF and chr(code).isspace()


def _hidden(textpage: pdfium.PdfTextPage, index: int) -> bool:
    # Characters PDFium generates (spaces, line breaks) belong to no text object.
    text_object: Any = pdfium_c.FPDFText_GetTextObject(textpage, index)
    return bool(text_object) and (
        pdfium_c.FPDFTextObj_GetTextRenderMode(text_object) in _HIDDEN_MODES)
