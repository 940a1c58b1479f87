"""Word gaps drawn on the page that PDFium's text leaves out: two words read as one.

Inside one text object PDFium ends a word only where the object's kerning opens a
gap, and some gaps made another way come out as no gap at all:

- Ghostscript (ps2pdf, and so most PDFs made from PostScript: groff, dvips, printer
  drivers) moves the next word with character spacing (``Tc``), often in an object
  of two glyphs, the last of one word and the first of the next
  (``givenstarting-point``, ``find.GNU``, ``ofapage``);
- PDFium misses some kerning gaps after a space it made itself, and on tightly
  justified lines: two cells of a table row read as one number (``3`` and ``0`` as
  ``30``), two words of a line as one (``ofimportance``).

The glyph boxes show every such gap. A gap counts as a word gap when it is wider
than ``WORD_GAP`` of the glyphs' height beyond the letter spacing around it: the
spacing of the run of glyphs it is in (a tracked heading spaces all its letters
alike), or of its line for a run too short to tell. Scripts written without spaces
between words (Chinese, Japanese, Thai...), superscripts and combining marks are
left as they are.

A box costs a native call per character, about as much as reading the text, so a
document is probed first: its first ``PROBE_CHARS`` characters. Only a document
whose probe finds at least ``MIN_FOUND`` such gaps, before a letter or figure (after a
comma or a stop too), has every page checked; the others (most documents) pay for the
probe alone. A page is checked whatever the
probe found when its text objects abut one another along its lines in bulk, as
Ghostscript's do (``gi`` ``ve`` ``ns`` ``tarting``): PDFium gives a text rectangle
per object and line, so this costs nothing per character; the gaps found there count
with the probe's. A document whose abutting pages showed no word gap missed
``MAX_IDLE`` times is checked no further.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from itertools import pairwise

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_pdf.generated_gaps import SCRIPT, UNSPACED, WORD_GAP
from goblin_pdf.layout.native import (
    IS_GENERATED,
    LOOSE_BOX,
    TEXT_OBJECT,
    ink_boxed,
    loose_boxes_of,
)

_SAME_LINE = 0.5  # vertical overlap, in the smaller glyph height, of glyphs of one line
#: Characters a document is probed on before its pages are checked one by one
PROBE_CHARS = 2000
#: Word gaps (before a letter or figure) the probe and the pages the abutting objects
#: sent must find between them for every page to be checked
MIN_FOUND = 2
# at least this many gaps inside a run for its own letter spacing to count
_RUN_GAPS = 3
_RUN = re.compile(r"\S+")
# A lone space between two glyphs (a kerned pair's last letter may end its word: ``hav e``)
_INNER_SPACE = re.compile(r"(?<=\S) (?=\S)")
# Share of the word gap, beyond the letter spacing of its line, a space read from the
# file may open and still be taken back: half of it, to keep clear of tight word spaces
_TAKEN_BACK = WORD_GAP / 2
# Share of a space's own advance the pen may still move past it for the space to be
# taken back: tight word spaces in justified lines keep a third of it and more.
_ADVANCE_KEPT = 0.25
# How close (in the glyph's height) the glyphs on either side of a space stand for it to
# be looked at as taken back: ordinary word spaces stand twice as far apart
_NARROW = 0.1
_ORIGIN = ctypes.cast(pdfium_c.FPDFText_GetCharOrigin, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p))
# Glyphs lower than this (in points) are too small to see: their boxes are rounding.
_MIN_HEIGHT = 1.0
# Share of a page's text rectangles that abut the one before on its line, and their
# least number, for the page to be checked without the probe: Ghostscript's pages have
# a fifth to a third, other producers' a few hundredths (a word in bold, a kerned pair).
ABUTTING_SHARE = 0.05
#: Pages sent to be checked by their abutting objects that may show no word gap missed
#: before a document's abutting objects no longer send its pages: its producer abuts
#: objects for some other reason.
MAX_IDLE = 3
_MIN_ABUTTING = 2
_ABUTS = 0.05  # horizontal distance, in the smaller rectangle height, of abutting rectangles

Rect = tuple[float, float, float, float]


class WordGaps:
    """The word gaps PDFium's text misses, page by page, for one document: the probe's
    outcome is kept from page to page."""

    def __init__(self) -> None:
        self._probed = 0
        self._found = False
        # word gaps found before a letter or figure, over the pages looked at so far
        self._hits = 0
        # pages the abutting objects sent to be checked that showed no word gap missed
        self._idle = 0

    def edits(self, textpage: pdfium.PdfTextPage, text: str,
              rects: Sequence[Rect]) -> dict[int, str]:
        """``word_gap_edits`` of ``text`` (PDFium's text of ``textpage``, one character
        per PDFium character) where the document or the page calls for them; ``rects``
        are the page's text rectangles (x0, y0, x1, y1), in PDFium's order."""
        if len(text) != pdfium_c.FPDFText_CountChars(textpage):
            return {}  # PDFium left characters out: indices are no character indices
        gated = False
        if self._found:
            end = len(text)
        elif self._idle < MAX_IDLE and abutting_objects(rects):
            # a page checked whole is more than the probe would have looked at
            end, gated = len(text), True
            self._probed += end
        elif self._probed < PROBE_CHARS:
            end = min(len(text), PROBE_CHARS - self._probed)
            self._probed += end
        else:
            return {}
        found = word_gap_edits(textpage, text, end)
        if self._found:
            return found
        # a gap after a comma or a stop counts as one after a letter: a word starts there
        self._hits += sum(bool(new) and text[i + 1].isalnum() for i, new in found.items())
        if self._hits >= MIN_FOUND:
            self._found = True
            if end < len(text):
                return word_gap_edits(textpage, text)
        elif gated and not any(found.values()):
            self._idle += 1
        return found


def abutting_objects(rects: Sequence[Rect]) -> bool:
    """Whether enough of the text rectangles abut the one before them on its line."""
    abutting = 0
    for (_x0, y0, x1, y1), (u0, v0, _u1, v1) in pairwise(rects):
        low = min(y1 - y0, v1 - v0)
        if min(y1, v1) - max(y0, v0) >= _SAME_LINE * low and abs(u0 - x1) <= _ABUTS * low:
            abutting += 1
    return abutting >= max(_MIN_ABUTTING, ABUTTING_SHARE * len(rects))


def word_gap_edits(textpage: pdfium.PdfTextPage, text: str,
                   end: int | None = None) -> dict[int, str]:
    """Where ``text`` (up to ``end``) misreads the word gaps its glyphs show, as
    ``mend_generated_gaps`` takes edits: index -> what replaces the character there.

    A glyph and the next that stand a word gap apart on one line with nothing between
    them in ``text`` get a space after the first. A space PDFium read from the file
    between two glyphs of one text object that stand no further apart than letters
    of a word goes: Ghostscript writes some kerned pairs as a space and a word
    spacing that takes it back (``giv en``, ``nev er``)."""
    stop = len(text) if end is None else end
    runs = [(m.start(), m.end()) for m in _RUN.finditer(text, 0, stop)]
    if not runs:
        return {}
    page = _PageGaps(text, _loose_boxes(textpage, runs), runs)
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
    edits: dict[int, str] = {}
    for index in page.wide_gaps():
        gap = page.pair(index, index + 1)
        if gap is not None and gap[0] > WORD_GAP * gap[1] + max(page.tracking(index), 0.0) \
                and not ink_boxed(handle, index) and not ink_boxed(handle, index + 1):
            edits[index] = text[index] + " "
    for space in page.narrow_spaces(stop):
        gap = page.pair(space - 1, space + 1)
        if gap is None:
            continue
        # the boxes only screen: a glyph whose ink reaches past its advance (an italic
        # f) widens its box, so the pen's move over the space decides
        most = max(page.line_gap(space - 1), 0.0) + _TAKEN_BACK * gap[1]
        if gap[0] <= most and _space_taken_back(textpage, space, most):
            edits[space] = ""
    return edits


class _PageGaps:
    """The loose boxes of a page's runs of glyphs (``runs``: start and end index of each),
    and the letter spacing of runs and lines, worked out when first asked."""

    def __init__(self, text: str, box: list[float], runs: list[tuple[int, int]]) -> None:
        self.text = text
        self.runs = runs
        self.starts = [start for start, _ in runs]
        # FS_RECTF: left, top, right, bottom
        self.left, self.right = box[0::4], box[2::4]
        self.top, self.bottom = box[1::4], box[3::4]
        self.height = [top - bottom for top, bottom in zip(self.top, self.bottom, strict=True)]
        self.breaks = [m.start() for m in re.finditer("\n", text)]
        self._run_gaps: dict[int, list[float]] = {}
        self._line_gaps: dict[int, float] = {}

    def wide_gaps(self) -> list[int]:
        """Indices of glyphs farther from the next glyph of their run than ``WORD_GAP`` of
        their own height: the suspects, few on most pages."""
        text = self.text
        wide = [i for i, (left, right, height)
                in enumerate(zip(self.left[1:], self.right, self.height, strict=False))
                if height > 0 and left - right > WORD_GAP * height]
        # a glyph after the last of a run has no box read: it is no suspect
        return [i for i in wide if not text[i + 1].isspace() and not text[i].isspace()]

    def narrow_spaces(self, stop: int) -> list[int]:
        """Spaces between two runs whose glyphs on either side stand closer than a word
        gap: the suspects of a space taken back."""
        left, right, height = self.left, self.right, self.height
        return [space for m in _INNER_SPACE.finditer(self.text, 0, stop)
                if height[(space := m.start()) - 1] > 0
                and left[space + 1] - right[space - 1] <= _NARROW * height[space - 1]]

    def pair(self, i: int, j: int) -> tuple[float, float] | None:
        """(gap, smaller height) between glyphs ``i`` and ``j``; None when they are not two
        glyphs of a line read left to right, or are glyphs a gap does not part."""
        height_a, height_b = self.height[i], self.height[j]
        if (height_a < _MIN_HEIGHT or height_b < _MIN_HEIGHT or self.right[i] <= self.left[i]
                or self.right[j] <= self.left[j]):
            return None  # no box (nothing drawn), or too small to read
        low, high = min(height_a, height_b), max(height_a, height_b)
        overlap = min(self.top[i], self.top[j]) - max(self.bottom[i], self.bottom[j])
        if overlap < _SAME_LINE * low or self.left[j] < self.left[i] or low < SCRIPT * high:
            return None
        pair = self.text[i] + self.text[j]
        if UNSPACED.search(pair) or any(unicodedata.category(c)[0] == "M" for c in pair):
            return None
        return self.left[j] - self.right[i], low

    def tracking(self, index: int) -> float:
        """The letter spacing around glyph ``index``: its run's, or its line's when the
        run has too few gaps to tell."""
        gaps = self._gaps_of(bisect_right(self.starts, index) - 1)
        return _lower_median(gaps) if len(gaps) >= _RUN_GAPS else self.line_gap(index)

    def line_gap(self, index: int) -> float:
        """The letter spacing of the line of glyph ``index``: the lower median of the gaps
        inside its runs."""
        line = bisect_right(self.breaks, index)
        if line not in self._line_gaps:
            low = self.breaks[line - 1] if line else -1
            high = self.breaks[line] if line < len(self.breaks) else len(self.text)
            first, last = bisect_right(self.starts, low), bisect_right(self.starts, high)
            gaps = [gap for run in range(first, last) for gap in self._gaps_of(run)]
            self._line_gaps[line] = _lower_median(gaps)
        return self._line_gaps[line]

    def _gaps_of(self, run: int) -> list[float]:
        if run not in self._run_gaps:
            start, end = self.runs[run]
            pairs = (self.pair(i, i + 1) for i in range(start, end - 1))
            self._run_gaps[run] = [p[0] for p in pairs if p is not None]
        return self._run_gaps[run]


def _space_taken_back(textpage: pdfium.PdfTextPage, space: int, most: float) -> bool:
    """Whether the space at ``space`` is one read from the file that moves the pen at most
    ``most`` to the glyph after it, or at most ``_ADVANCE_KEPT`` of its own advance, all
    three in one text object."""
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value
    if IS_GENERATED(handle, space) != 0:
        return False
    objects = {TEXT_OBJECT(handle, i) for i in (space - 1, space, space + 1)}
    if len(objects) != 1 or 0 in objects:
        return False
    x, y = ctypes.c_double(), ctypes.c_double()
    next_x, next_y = ctypes.c_double(), ctypes.c_double()
    if not (_ORIGIN(handle, space, ctypes.byref(x), ctypes.byref(y))
            and _ORIGIN(handle, space + 1, ctypes.byref(next_x), ctypes.byref(next_y))):
        return False
    if abs(next_y.value - y.value) > most:
        return False
    moved = next_x.value - x.value
    if moved <= most:
        return True
    # An italic kerned pair (``PA GE_SIZE``) takes back a little less than the height
    # allows, yet nearly all of the space's own advance.
    box = (ctypes.c_float * 4)()  # left, top, right, bottom
    return bool(LOOSE_BOX(handle, space, ctypes.addressof(box))) and \
        moved <= _ADVANCE_KEPT * (box[2] - box[0])


def _lower_median(values: list[float]) -> float:
    """The lower median of ``values`` (0 for none)."""
    return sorted(values)[(len(values) - 1) // 2] if values else 0.0


def _loose_boxes(textpage: pdfium.PdfTextPage, runs: list[tuple[int, int]]) -> list[float]:
    """Loose boxes of the characters of ``runs`` as a flat FS_RECTF list (left, top,
    right, bottom per character index; zeros for the characters not asked about)."""
    indices = [i for start, stop in runs for i in range(start, stop)]
    return loose_boxes_of(ctypes.cast(textpage.raw, ctypes.c_void_p), indices, runs[-1][1])[:]
