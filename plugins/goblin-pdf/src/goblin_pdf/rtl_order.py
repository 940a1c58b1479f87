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
import unicodedata
from itertools import pairwise

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_pdf.loose_boxes import Box, LooseBoxes

_RTL_BLOCKS = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFC))
#: A character of the right-to-left blocks (Hebrew, Arabic and the scripts beside them,
#: presentation forms included): a text without one reads left to right throughout
RIGHT_TO_LEFT = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _RTL_BLOCKS) + "]")


def _letters_and_marks() -> str:
    """A character class of the letters and marks of the right-to-left blocks: figures
    (Arabic-Indic ones included) run left to right in any script, and punctuation (the
    Arabic comma, the maqaf) stands apart from the word it follows, drawn on its own."""
    chars = [chr(code) for a, b in _RTL_BLOCKS for code in range(a, b + 1)
             if unicodedata.category(chr(code))[0] in "LM"]
    return "[" + "".join(re.escape(char) for char in chars) + "]"


# A word of right-to-left letters and marks
_RTL_WORD = re.compile(_letters_and_marks() + "+")
_UPRIGHT = 0.01  # radians from level within which a glyph is upright on the page
_SAME_LINE = 0.5  # vertical overlap, in the lower glyph's height, of glyphs of one line
_ALEFS = "\u0627\u0623\u0625\u0622"  # alef, with hamza above or below, with madda
_LAM = "\u0644"
# A many-letter glyph spelled in reading order already: lam-alef, or al- and more.
_READING_ORDER_LIGATURE = re.compile(f"{_LAM}[{_ALEFS}]$|\u0627{_LAM}.")


def logical_rtl(textpage: pdfium.PdfTextPage, text: str,
                edited: frozenset[int] = frozenset()) -> str:
    """``text`` (PDFium's text of ``textpage``, one character per PDFium character) with
    each right-to-left word PDFium left in drawing order turned round, and the letters
    of each many-letter right-to-left glyph in reading order. Words holding an index of
    ``edited`` (characters another fix replaces) are left as they are.

    >>> logical_rtl(textpage, "hello")  # doctest: +SKIP
    'hello'
    """
    if not RIGHT_TO_LEFT.search(text):
        return text
    boxes = LooseBoxes(textpage)
    chars = list(text)
    for word in _RTL_WORD.finditer(text):
        if edited and any(word.start() <= index < word.end() for index in edited):
            continue
        glyphs = _glyphs(boxes, text, word.start(), word.end())
        clusters = _clusters(text, glyphs)
        if _drawn_left_to_right(textpage, clusters):
            clusters.reverse()
        chars[word.start():word.end()] = "".join(
            _spelled(text[start:end]) for cluster in clusters for start, end, _ in cluster)
    return "".join(chars)


Glyph = tuple[int, int, "Box | None"]  # start, end and box of the letters of one glyph


def _glyphs(boxes: LooseBoxes, text: str, start: int, end: int) -> list[Glyph]:
    """The glyphs of ``text[start:end]``: letters sharing one box are one glyph."""
    glyphs: list[Glyph] = []
    for index in range(start, end):
        box = boxes(index)
        if glyphs and box is not None and box == glyphs[-1][2]:
            glyphs[-1] = (glyphs[-1][0], index + 1, box)
        else:
            glyphs.append((index, index + 1, box))
    return glyphs


def _clusters(text: str, glyphs: list[Glyph]) -> list[list[Glyph]]:
    """The glyphs grouped as the word is turned round: each with the marks after it."""
    clusters: list[list[Glyph]] = []
    for glyph in glyphs:
        if clusters and unicodedata.category(text[glyph[0]]) == "Mn":
            clusters[-1].append(glyph)
        else:
            clusters.append([glyph])
    return clusters


def _drawn_left_to_right(textpage: pdfium.PdfTextPage, clusters: list[list[Glyph]]) -> bool:
    """Whether the glyphs of a right-to-left word, upright on the page, follow one another
    left to right along one line: the word is in drawing order, not reading order.
    Skia (Chrome's "Save as PDF") draws Arabic words so, marked ``/ReversedChars``,
    and PDFium turns round only some of them."""
    drawn = [cluster[0][2] for cluster in clusters]
    if len(drawn) < 2 or abs(pdfium_c.FPDFText_GetCharAngle(textpage, clusters[0][0][0])) \
            > _UPRIGHT:
        return False
    for a, b in pairwise(drawn):
        if a is None or b is None:
            return False
        height = min(a[3] - a[1], b[3] - b[1])
        overlap = min(a[3], b[3]) - max(a[1], b[1])
        if overlap < _SAME_LINE * height or b[0] + b[2] <= a[0] + a[2]:
            return False
    return True


def _spelled(glyph: str) -> str:
    """The letters of one glyph in reading order: several letters sharing one box are
    turned round unless they read as such a glyph does in reading order already."""
    if len(glyph) > 1 and not _READING_ORDER_LIGATURE.match(glyph):
        return glyph[::-1]
    return glyph
