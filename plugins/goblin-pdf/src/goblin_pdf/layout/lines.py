"""Glyphs into runs: stretches of one text line, split at word gaps into words.

A run is a maximal stretch of glyphs that PDFium gives in sequence on one
baseline without a gap wide enough to be a column gutter, left to right or, for
right-to-left scripts, right to left. Runs are then
merged into lines within a column by the reading-order step.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from goblin_pdf.generated_gaps import FOOTNOTE_MARKS, RAISED, SCRIPT
from goblin_pdf.layout.native import MARKED_HYPHEN
from goblin_pdf.rtl_order import RIGHT_TO_LEFT

_SAME_LINE = 0.5  # vertical overlap (in glyph heights) below which a new line starts
_RUN_GAP = 0.8  # horizontal gap (in glyph heights) that ends a run
_WORD_GAP = 0.1  # horizontal gap (in glyph heights) that separates words
_DROP_CAPITAL = 2.0  # height, in the next glyphs' heights, of a run's opening drop capital


class Run(NamedTuple):
    """One stretch of a line: its words, box and typical glyph height.

    A named tuple rather than a dataclass: a page makes hundreds, and a tuple is
    built several times faster.
    """

    words: tuple[str, ...]
    x0: float
    y0: float
    x1: float
    y1: float
    height: float
    chars: int
    first: int  # stream index of its first glyph, to keep equal-place runs in order
    #: right-to-left letters less left-to-right ones: a line of runs whose sum is above 0
    #: reads from its right end
    direction: int = 0
    #: per word, its left edge, right edge and leaning (as ``direction`` counts it), on
    #: pages with right-to-left letters only: the line puts such words in reading order
    word_boxes: tuple[tuple[float, float, int], ...] = ()

    @property
    def yc(self) -> float:
        return (self.y0 + self.y1) / 2


def build_runs(chars: str, box: np.ndarray, index: np.ndarray,
               space_before: np.ndarray,
               ink_boxed: Callable[[int], bool] | None = None,
               joined_before: np.ndarray | None = None) -> list[Run]:
    """Runs from glyphs given in stream order.

    ``chars`` holds one character per glyph, ``box`` their (n, 4) boxes, ``index`` their
    stream positions and ``space_before`` whether PDFium put a space before them.
    ``ink_boxed`` tells, by stream position, a glyph whose box is its ink's, not its
    advance's: a gap PDFium put no space in is no word gap for being wide by its side
    bearings. ``joined_before`` marks glyphs after a space PDFium made up and the text
    took back as no word gap (letter-spaced type): they stay in the word before.
    Right-to-left text, which PDFium gives in reading order, runs leftward glyph after
    glyph: its gaps are measured that way, and its runs count the direction they lean.
    """
    n = len(chars)
    if n == 0:
        return []
    x0, y0, x1, y1 = box.T
    height = np.maximum(y1 - y0, 1e-3)
    gap = np.empty(n)
    gap[0] = 0
    gap[1:] = x0[1:] - x1[:-1]
    pair_h = np.empty(n)
    pair_h[0] = height[0]
    pair_h[1:] = np.minimum(height[1:], height[:-1])
    new_run = np.zeros(n, dtype=bool)
    new_run[0] = True
    backwards = x0[1:] < x0[:-1] - 0.5 * pair_h[1:]
    overlap = np.minimum(y1[1:], y1[:-1]) - np.maximum(y0[1:], y0[:-1])
    other_line = overlap < _SAME_LINE * pair_h[1:]
    directions = (_directions(chars, x0, x1, gap, other_line | backwards)
                  if RIGHT_TO_LEFT.search(chars) else None)
    reach = pair_h[1:]
    if directions is not None:
        gap = directions.gap
        backwards &= ~directions.leftward
        # PDFium boxes some right-to-left glyphs by their ink (those an /ActualText
        # spells), far lower than the line: the taller glyph gives the scale
        reach = np.where(directions.unspaced, np.maximum(height[1:], height[:-1]), reach)
    new_run[1:] = other_line | backwards | (gap[1:] > _RUN_GAP * reach)
    starts = np.nonzero(new_run)[0]
    run_of = np.cumsum(new_run) - 1
    tracking = _tracking(gap, new_run, run_of, starts.size)
    ends = np.append(starts[1:], n)
    drop = _drop_capitals(chars, y0, height, starts, ends)
    wide = gap > _WORD_GAP * pair_h + tracking[run_of]
    # a drop capital stands a little apart from the rest of its word (W / hen): only a
    # space PDFium kept there parts them
    wide[1:] &= ~drop[:-1]
    if joined_before is not None:
        wide &= ~joined_before
    # a hyphen PDFium marked as breaking the word at the line end (U+FFFE) belongs to the
    # word before it, however far it stands: LibreOffice sets it at the margin, a little
    # apart from the justified word it breaks (``compli -``)
    marked = chars.find(MARKED_HYPHEN)
    while marked >= 0:
        wide[marked] = False
        marked = chars.find(MARKED_HYPHEN, marked + 1)
    if directions is not None:
        # right-to-left letters that do not join stand apart by their side bearings, and
        # PDFium's text spaces their words right: its spaces part them; a Latin letter
        # and a right-to-left one are of two words however close (``Pythonمن``)
        wide[1:] &= ~directions.unspaced
        wide[1:] |= directions.leaning[1:] * directions.leaning[:-1] < 0
    if ink_boxed is not None:
        # asked only where the boxes alone would part a word PDFium wrote whole: few
        for after in np.nonzero(wide & ~new_run & ~space_before)[0].tolist():
            if ink_boxed(int(index[after - 1])) or ink_boxed(int(index[after])):
                wide[after] = False
    new_word = new_run | space_before | wide
    new_word[_after_leading_marks(chars, y0, height, starts, ends)] = True
    word_starts = np.nonzero(new_word)[0]
    word_ends = np.append(word_starts[1:], n)
    words = [chars[a:b] for a, b in zip(word_starts.tolist(), word_ends.tolist(), strict=True)]
    if directions is not None:
        words = _shown_order(words, word_starts, directions, x0)
    # words of run k are words[first_word[k]:first_word[k + 1]] (every run start is a word start)
    first_word = [*np.searchsorted(word_starts, starts).tolist(), len(words)]
    left = np.minimum.reduceat(x0, starts).tolist()
    right = np.maximum.reduceat(x1, starts).tolist()
    # a drop capital opens its run but spans the lines below too: the run's height
    # and extent are its line's, or the lines beside the capital would merge into it
    counted = np.add.reduceat(~drop, starts)
    bottom = np.minimum.reduceat(np.where(drop, np.inf, y0), starts).tolist()
    top = np.maximum.reduceat(np.where(drop, -np.inf, y1), starts).tolist()
    mean_h = (np.add.reduceat(np.where(drop, 0.0, height), starts) / counted).tolist()
    lengths = (ends - starts).tolist()
    firsts = index[starts].tolist()
    if directions is None:
        return [Run(tuple(words[first_word[k]:first_word[k + 1]]), left[k], bottom[k], right[k],
                    top[k], mean_h[k], lengths[k], int(firsts[k]))
                for k in range(len(lengths))]
    leaning = np.add.reduceat(directions.leaning, starts).tolist()
    boxes = list(zip(np.minimum.reduceat(x0, word_starts).tolist(),
                     np.maximum.reduceat(x1, word_starts).tolist(),
                     np.add.reduceat(directions.leaning, word_starts).tolist(), strict=True))
    return [Run(tuple(words[first_word[k]:first_word[k + 1]]), left[k], bottom[k], right[k],
                top[k], mean_h[k], lengths[k], int(firsts[k]), leaning[k],
                tuple(boxes[first_word[k]:first_word[k + 1]]))
            for k in range(len(lengths))]


def _shown_order(words: list[str], word_starts: np.ndarray, directions: _Directions,
                 x0: np.ndarray) -> list[str]:
    """``words`` with the letters of each word without right-to-left letters that PDFium
    gave in another order than they stand (``.road`` for ``road.`` at the end of a Latin
    line PDFium read as right to left) put in the order they stand, left to right."""
    stepped_back = np.zeros(len(directions.leaning), dtype=bool)
    stepped_back[1:] = directions.leftward
    stepped_back[word_starts] = False  # a step between two words is no step inside one
    inside = np.add.reduceat(stepped_back, word_starts)
    right_to_left = np.add.reduceat(directions.leaning > 0, word_starts)
    for k in np.nonzero((inside > 0) & (right_to_left == 0))[0].tolist():
        start = int(word_starts[k])
        places = x0[start:start + len(words[k])]
        words[k] = "".join(words[k][i] for i in np.argsort(places, kind="stable").tolist())
    return words


class _Directions(NamedTuple):
    """Per glyph: ``leaning`` +1 for a right-to-left letter, -1 for a left-to-right one,
    0 for the rest; ``gap`` the gap before it along the way its text runs. Per pair of
    glyphs in stream order (one shorter): ``leftward`` whether the second follows the
    first right to left, ``unspaced`` whether a right-to-left letter is one of the two
    and a left-to-right one neither."""

    leaning: np.ndarray
    gap: np.ndarray
    leftward: np.ndarray
    unspaced: np.ndarray


def _directions(chars: str, x0: np.ndarray, x1: np.ndarray, gap: np.ndarray,
                parted: np.ndarray) -> _Directions:
    """The writing direction of ``chars`` (one per glyph, in reading order, as PDFium gives
    right-to-left text), and ``gap`` (the gap before each glyph, left to right) measured
    right to left where the text runs leftward; ``parted`` marks the pairs of glyphs
    their boxes put on two lines or far apart.

    A pair runs leftward when the second glyph begins left of the first: right-to-left
    text, and Latin words PDFium gives in reverse order on a line it reads as right to
    left. A leftward gap lies between the stretches of glyphs before and after the
    step, a stretch being the glyphs from one leftward step to the next: a letter with
    the marks inside its box, or a word some producers (Skia) draw left to right in a
    right-to-left line. Such steps open no run; a gap too wide does, and a line break.
    """
    classes = [unicodedata.bidirectional(char) for char in chars]
    leaning = np.array([1 if c in ("R", "AL") else -1 if c == "L" else 0 for c in classes],
                       dtype=np.int64)
    right_to_left, left_to_right = leaning > 0, leaning < 0
    # right-to-left letters, with nothing left-to-right between them: their gaps part no
    # words (a Latin word beside them stands apart by its gap)
    unspaced = ((right_to_left[1:] | right_to_left[:-1]) & ~left_to_right[1:]
                & ~left_to_right[:-1])
    # Latin words too: PDFium gives those of a line it reads as right to left in reverse
    # order, and the line puts words in order by their places (``reading_order``)
    leftward = x0[1:] < x0[:-1]
    opens = np.empty(len(chars), dtype=bool)
    opens[0] = True
    opens[1:] = leftward | parted
    starts = np.nonzero(opens)[0]
    # the edges of each stretch of glyphs from one step to the next
    left_edge, right_edge = np.minimum.reduceat(x0, starts), np.maximum.reduceat(x1, starts)
    stretch = np.cumsum(opens) - 1
    turned = gap.copy()
    after = np.nonzero(leftward)[0] + 1
    turned[after] = left_edge[stretch[after] - 1] - right_edge[stretch[after]]
    return _Directions(leaning, turned, leftward, unspaced)


def _drop_capitals(chars: str, y0: np.ndarray, height: np.ndarray, starts: np.ndarray,
                   ends: np.ndarray) -> np.ndarray:
    """Per glyph, whether it is a drop capital: a letter opening a run of three or more
    glyphs, at least ``_DROP_CAPITAL`` times as tall as each of the next two, and
    reaching at least half their height below the next one (into the lines below, where
    a raised initial or a letter before a subscript does not)."""
    drop = np.zeros(height.size, dtype=bool)
    opening = starts[ends - starts >= 3]
    if opening.size:
        first, after, second = height[opening], height[opening + 1], height[opening + 2]
        tall = ((first >= _DROP_CAPITAL * after) & (first >= _DROP_CAPITAL * second)
                & (y0[opening] <= y0[opening + 1] - 0.5 * after))
        for k in np.nonzero(tall)[0].tolist():  # few: a page has a drop capital or two
            drop[opening[k]] = chars[int(opening[k])].isalpha()
    return drop


_MARKS = frozenset(FOOTNOTE_MARKS)


def _after_leading_marks(chars: str, y0: np.ndarray, height: np.ndarray, starts: np.ndarray,
                         ends: np.ndarray) -> list[int]:
    """The glyphs that open a word right after a footnote's number or mark opening a
    run: one to three digits or marks, raised and smaller than the letter after them,
    which PDFium and the gaps glue together (``4`` / ``Exceptions include``)."""
    found: list[int] = []
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        if chars[start] not in _MARKS:
            continue
        letter = start + 1
        while letter < min(end, start + 3) and chars[letter] in _MARKS:
            letter += 1
        if (letter + 1 < end and chars[letter].isalpha() and chars[letter + 1].isalpha()
                and height[letter - 1] < SCRIPT * height[letter]
                and y0[letter - 1] > y0[letter] + RAISED * height[letter]):
            found.append(letter)
    return found


def _tracking(gap: np.ndarray, new_run: np.ndarray, run_of: np.ndarray, runs: int) -> np.ndarray:
    """Each run's letter spacing: the lower median of the gaps inside it, 0 at least.

    Letter-spaced type (tracked headings, OCR text layers spread to match the scan)
    has wide gaps between all its letters, so a word gap must be wider than those.
    Most gaps inside a run are between letters of one word; ordinary type's are
    about 0, which leaves the word gap as it was.
    """
    inner = np.nonzero(~new_run)[0]
    tracking = np.zeros(runs)
    if inner.size == 0:
        return tracking
    order = np.lexsort((gap[inner], run_of[inner]))
    sorted_gaps, owners = gap[inner][order], run_of[inner][order]
    counts = np.bincount(owners, minlength=runs)
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    has = counts > 0
    tracking[has] = sorted_gaps[first[has] + (counts[has] - 1) // 2]
    return np.maximum(tracking, 0.0)
