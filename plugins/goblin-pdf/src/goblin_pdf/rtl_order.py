"""Arabic and Hebrew glyphs that stand for several letters, spelled in reading order.

PDFium puts right-to-left runs in reading order itself, whichever way a
producer drew them. What it cannot reorder is the inside of one glyph: a
lam-alef ligature, or a whole word drawn as one shape, carries its letters in
the font's Unicode map, and fonts often spell them in visual order there:
alef then lam (``اإلنتاجية`` for ``الإنتاجية``), or the word backwards
(``يبيبَح`` for ``حَبيبي``). Letters that share one glyph box are one glyph;
their spelling is reversed unless it already reads as such a glyph does in
reading order (lam before alef, or ``ال`` and more, as in the Allah ligature).
"""

from __future__ import annotations

import re

import pypdfium2 as pdfium

from goblin_pdf.loose_boxes import LooseBoxes

_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_ALEFS = "\u0627\u0623\u0625\u0622"  # alef, with hamza above or below, with madda
_LAM = "\u0644"
# A many-letter glyph spelled in reading order already: lam-alef, or al- and more.
_READING_ORDER_LIGATURE = re.compile(f"{_LAM}[{_ALEFS}]$|\u0627{_LAM}.")


def logical_rtl(textpage: pdfium.PdfTextPage, text: str) -> str:
    """``text`` (PDFium's text of ``textpage``, one character per PDFium character) with the
    letters of each many-letter right-to-left glyph in reading order.

    >>> logical_rtl(textpage, "hello")  # doctest: +SKIP
    'hello'
    """
    if not _RTL.search(text):
        return text
    boxes = LooseBoxes(textpage)
    chars = list(text)
    index = 0
    while index < len(text):
        if not _RTL.match(text, index):
            index += 1
            continue
        box, end = boxes(index), index + 1
        while box is not None and end < len(text) and _RTL.match(text, end) \
                and boxes(end) == box:
            end += 1
        spelled = text[index:end]
        if end - index > 1 and not _READING_ORDER_LIGATURE.match(spelled):
            chars[index:end] = spelled[::-1]
        index = end
    return "".join(chars)
