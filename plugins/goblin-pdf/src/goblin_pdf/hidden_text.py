"""Text a page holds but does not show: drawn in text render mode 3 (invisible) or 7
(a clipping path only), or on a layer the default view turns off (``optional_content``).

All of a page's text is drawn so when it is an OCR layer laid over a scan (Tesseract,
OCRmyPDF, scanner software): its words are then as good as that OCR was, which is
worth knowing before trusting them. A few such words on a page of visible text are
text its reader never sees (form data kept out of view, words hidden for search
engines or for a program reading the file).
"""

from __future__ import annotations

import ctypes
from itertools import repeat

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_pdf.layout.native import BULK_TEXT_OBJECT

_HIDDEN_MODES = frozenset({pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE,
                           pdfium_c.FPDF_TEXTRENDERMODE_CLIP})
# Typed to take and return plain integers, as layout.native's per-character calls are:
# pypdfium2's wrappers resolve handles on every call, which costs more than PDFium's work.
_RENDER_MODE = ctypes.cast(pdfium_c.FPDFTextObj_GetTextRenderMode, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p))
_UNICODE = ctypes.cast(pdfium_c.FPDFText_GetUnicode, ctypes.CFUNCTYPE(
    ctypes.c_uint, ctypes.c_void_p, ctypes.c_int))
#: Characters looked at before counting them all. An OCR layer is the whole page and a
#: sample always finds it; counting every character costs a native call or two each,
#: which only the pages a sample caught pay.
SAMPLES = 32


def hidden_chars(textpage: pdfium.PdfTextPage, unshown: frozenset[int] = frozenset()) -> int:
    """How many of the page's non-space characters are drawn invisible, or are among
    ``unshown`` (PDFium indices of characters on a hidden layer), each counted once."""
    total = textpage.count_chars()
    if total <= 0:
        return 0
    pointer = ctypes.cast(textpage.raw, ctypes.c_void_p)
    handle = pointer.value or 0
    layered = sum(1 for index in unshown if not _space(_UNICODE(handle, index)))
    step = max(1, total // SAMPLES)
    sample = range(step // 2, total, step)
    # the sampled characters mostly share a few text objects: each is asked about once
    if not any(map(_hidden, set(map(BULK_TEXT_OBJECT, repeat(pointer, len(sample)), sample)))):
        return layered
    # many characters share one text object: its render mode is asked once
    hidden: dict[int, bool] = {}
    count = layered
    for index, address in enumerate(map(BULK_TEXT_OBJECT, repeat(pointer, total), range(total))):
        invisible = hidden.get(address)
        if invisible is None:
            invisible = hidden[address] = _hidden(address)
        if invisible and index not in unshown and not _space(_UNICODE(handle, index)):
            count += 1
    return count


def _space(code: int) -> bool:
    return code <= 0x10FFFF and chr(code).isspace()


def _hidden(text_object: int) -> bool:
    """Whether the text object at address ``text_object`` draws invisible; characters
    PDFium generates (spaces, line breaks) belong to no text object (address 0)."""
    return bool(text_object) and _RENDER_MODE(text_object) in _HIDDEN_MODES
