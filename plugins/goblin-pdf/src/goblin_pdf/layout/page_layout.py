"""One page's layout: reading-order text and blocks, or the structure tree's blocks.

Most pages are settled here from PDFium's text and rectangles; the rest are
rebuilt from their glyph boxes by :mod:`goblin_pdf.layout.rebuild`, loaded then.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pypdfium2 as pdfium

from goblin_pdf.layout.accent_marks import SPACING_TO_COMBINING
from goblin_pdf.layout.column_screen import Box, may_have_columns
from goblin_pdf.layout.hyphens import mend_marked_hyphens
from goblin_pdf.layout.native import drawn_text_rects
from goblin_pdf.layout.outcome import PageLayout, TagOutcome
from goblin_pdf.layout.settings import LayoutSettings
from goblin_pdf.rtl_order import RIGHT_TO_LEFT

# A spacing accent next to a letter: TeX-style accents only glyph boxes can put back.
_ACCENT_CLASS = "[" + "".join(re.escape(c) for c in SPACING_TO_COMBINING) + "]"
_LOOSE_ACCENT = re.compile(rf"[^\W\d_]{_ACCENT_CLASS}|{_ACCENT_CLASS}[^\W\d_]")
# The accents alone, a substring test each, which clears most pages before the pattern
# above (whose first atom is a letter, so it is tried at nearly every position) far
# sooner than a scan for the class.
_ACCENTS = "".join(SPACING_TO_COMBINING)
# A line of PDFium's text holding Latin and right-to-left letters both: PDFium may read
# the whole line as right to left and give its Latin words in reverse order
# (``Agreement Service``), where the rebuild reads each line from the words' places
_MIXED_LINE = re.compile("^[^\n]*(?:[A-Za-z][^\n]*" + RIGHT_TO_LEFT.pattern + "|"
                         + RIGHT_TO_LEFT.pattern + "[^\n]*[A-Za-z])", re.MULTILINE)


def read_page_layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, raw_text: str,
                     settings: LayoutSettings, tagged: bool = False,
                     joined: frozenset[int] = frozenset(),
                     corrected: Mapping[int, str] | None = None,
                     rects: Sequence[Box] | None = None) -> PageLayout:
    """Layout of one page; ``raw_text`` is PDFium's text of it, kept when no reordering
    is needed, ``tagged`` whether the document has a structure tree, ``joined`` the
    generated characters found not to separate words (see ``generated_gaps``),
    ``corrected`` the characters PDFium read wrongly, put right (by PDFium index),
    ``rects`` the page's ``drawn_text_rects`` when already read.

    >>> layout = read_page_layout(page, textpage, textpage.get_text_range(),
    ...                           LayoutSettings())  # doctest: +SKIP
    """
    layout = _page_layout(page, textpage, raw_text, settings, tagged, joined, corrected or {},
                          rects)
    texts = [layout.text, *(b.text for b in layout.blocks)]
    if not any(_UNFINISHED.search(text) for text in texts):
        return layout
    return replace(layout, text=_whole(layout.text),
                   blocks=tuple(replace(b, text=_whole(b.text)) for b in layout.blocks))


# PDFium gives a character past U+FFFF as two UTF-16 halves, each at an index of its own,
# which the glyph readers keep apart, one per index; and it marks a line-end hyphen as
# U+FFFE, which lines rebuilt in another order may leave inside a line; a character it
# holds as code 0 (read by index for a rotated run or a tag) is in no text it gives.
_UNFINISHED = re.compile("[\x00\ud800-\udfff\ufffe]")


def _whole(text: str) -> str:
    """``text`` with its UTF-16 halves joined into the characters they encode, PDFium's
    hyphen marks mended and its code-0 characters left out."""
    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return mend_marked_hyphens(text.replace("\x00", ""))


def _quarter_turned(page: pdfium.PdfPage) -> bool:
    """Whether /Rotate turns the page a quarter, which may show its text sideways
    (PDFium's rectangles, in the unturned frame, cannot tell): the rebuild finds out
    from the glyphs' angles. Text turned in the content stream instead shows in
    the rectangles, which the column screen catches."""
    return page.get_rotation() % 180 == 90


def _page_layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, raw_text: str,
                 settings: LayoutSettings, tagged: bool,
                 joined: frozenset[int], corrected: Mapping[int, str],
                 rects: Sequence[Box] | None) -> PageLayout:
    want_tags = tagged and settings.marked_content != "none"
    no_tags = TagOutcome.skipped("marked_content = none" if tagged else "untagged")
    if settings.layout == "raw" and not want_tags:
        return PageLayout(raw_text, (), 1, False, no_tags)
    accents = bool(any(map(raw_text.__contains__, _ACCENTS)) and _LOOSE_ACCENT.search(raw_text))
    misread = bool(RIGHT_TO_LEFT.search(raw_text) and _MIXED_LINE.search(raw_text)) or (
        settings.suppress_duplicate_text and _drawn_twice(raw_text))
    if settings.layout == "auto" and settings.suppress_duplicate_text and not misread:
        rects = drawn_text_rects(textpage) if rects is None else rects
        misread = _drawn_a_little_apart(rects)
    if settings.layout == "auto" and not (want_tags or accents or misread
                                          or _quarter_turned(page)
                                          or may_have_columns(textpage, rects)):
        return PageLayout(raw_text, (), 1, False, no_tags)
    # imported here: it loads NumPy, which a document of single-column pages never needs
    from goblin_pdf.layout.rebuild import rebuilt_layout

    return rebuilt_layout(page, textpage, raw_text, settings, tagged, joined, want_tags,
                          accents, no_tags, corrected, rects, misread)


# Four letters in a row each given twice: a word drawn twice over itself, a shadow a point
# or two off the text, whose glyphs PDFium interleaves (``TThhiiss``)
_DOUBLED_LETTERS = re.compile(r"([^\W\d_])\1([^\W\d_])\2([^\W\d_])\3([^\W\d_])\4")
#: Words of doubled letters a page shows at least for its text to be taken as drawn twice
_DOUBLED_WORDS = 2


def _drawn_twice(text: str) -> bool:
    """Whether PDFium's ``text`` interleaves the glyphs of words drawn twice, a little
    apart. Two counts of ``e`` settle most pages first: in such words every ``e`` is
    doubled, in ordinary text a few are."""
    doubled = text.count("ee")
    if doubled < 5 or doubled < 0.15 * text.count("e"):
        return False
    return len(_DOUBLED_LETTERS.findall(text)) >= _DOUBLED_WORDS


#: Pairs of PDFium's rectangles, one after the other, that are copies a little apart
#: for a page's text to be taken as drawn twice
_COPIED_RECTS = 2
_COPY_SIZE = 0.15  # difference in width and in height, as a share, of two copies
_COPY_SHIFT = 0.5  # shift, in the rectangle's height, of a copy
_COPY_COVER = 0.5  # share of a rectangle its copy covers


def _drawn_a_little_apart(rects: Sequence[Box]) -> bool:
    """Whether PDFium's text rectangles, in its order, show pieces of text drawn twice a
    point or two apart: a shadow Chrome (Skia) draws under its text, which PDFium
    partly keeps, so that its pieces come between the words (``wher eets where``).
    A copy is about as wide and high as the rectangle before it and covers most of it.
    PDFium drops a text object drawn again over itself whole; this catches the rest."""
    pairs = 0
    for (a0, b0, a1, b1), (x0, y0, x1, y1) in itertools.pairwise(rects):
        width, height, before = x1 - x0, y1 - y0, a1 - a0
        if (abs(x0 - a0) >= _COPY_SHIFT * height or abs(y0 - b0) >= _COPY_SHIFT * height
                or (x0 == a0 and y0 == b0)
                or abs(width - before) > _COPY_SIZE * max(width, before)
                or abs(height - (b1 - b0)) > _COPY_SIZE * max(height, b1 - b0)):
            continue
        covered = (min(x1, a1) - max(x0, a0)) * (min(y1, b1) - max(y0, b0))
        if covered >= _COPY_COVER * width * height:
            pairs += 1
            if pairs >= _COPIED_RECTS:
                return True
    return False
