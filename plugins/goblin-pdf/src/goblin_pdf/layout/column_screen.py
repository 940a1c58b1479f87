"""Whether a page may have columns, judged from PDFium's text rectangles.

Every page of every PDF goes through this check in ``layout = "auto"``, so it
works on PDFium's rectangles (one per text object and line, tens a page)
rather than on character boxes. A bound settles most pages at once: when the
rectangles that cross the whole middle of the text carry enough of its
characters, no strip there can be covered thinly enough to be a gutter. The
other pages get the exact gutter test of :mod:`goblin_pdf.layout.columns`.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import pypdfium2 as pdfium

from goblin_pdf.layout.columns import (
    LOW_COVERAGE,
    MIN_COLUMN_SHARE,
    MIN_SIDE_BY_SIDE,
    NARROW_SHARE,
    gutters_beside_wide_lines,
    gutters_of,
    type_heights,
)
from goblin_pdf.layout.native import drawn_text_rects

_MIN_RECTS = 6
_SLIVER = 0.3  # rectangles lower than this share of the median height: accents, dots
_SAME_LINE = 0.5  # vertical step, in the smaller height, that starts a new line
_JOIN_GAP = 0.8  # horizontal gap, in the larger height, that still joins two pieces
_TALL = 3.0  # height over width of a rectangle that runs vertically
# The bound decides alone only when it clears the threshold by more than the
# rounding of adding the same widths in another order.
_SLACK = 1e-9


def may_have_columns(textpage: pdfium.PdfTextPage, rects: Sequence[Box] | None = None) -> bool:
    """True when the page shows a column gutter or runs its text vertically; ``rects``
    are the page's ``drawn_text_rects`` when already read."""
    boxes = drawn_text_rects(textpage) if rects is None else rects
    if len(boxes) < _MIN_RECTS:
        return False
    if _leans(boxes):
        return True
    kept = _without_slivers(boxes)
    crossed = _middle_is_crossed(kept)
    if crossed and not _narrow_beside(kept):
        return False
    x0, x1, chars, heights, y0, y1 = joined_runs(kept)
    heights = type_heights(heights, y0)
    # run by run, as the rebuild judges a column new to this search: a page that shows
    # columns only with its lines' runs added up is rebuilt for nothing where PDFium's
    # order reads them (see columns.column_gutters)
    return bool((not crossed and gutters_of(x0, x1, chars, heights))
                or gutters_beside_wide_lines(x0, x1, chars, heights, y0, y1, by_line=False))


def _narrow_beside(kept: list[Box]) -> bool:
    """Whether enough narrow rectangles start a column's width into the text for columns
    to stand among them below or above paragraphs across the page (which cross its
    middle): a page of one column has few, its short last lines starting at the margin."""
    left, right = min(b[0] for b in kept), max(b[2] for b in kept)
    start, limit = left + MIN_COLUMN_SHARE * (right - left), NARROW_SHARE * (right - left)
    inside = sum(1 for x0, _, x1, _ in kept if x0 >= start and x1 - x0 < limit)
    return inside >= MIN_SIDE_BY_SIDE


def _without_slivers(boxes: Sequence[Box]) -> list[Box]:
    """The rectangles at least ``_SLIVER`` of the median height high: accents and dots
    left out of the column check."""
    heights = [b[3] - b[1] for b in boxes]
    floor = _SLIVER * statistics.median(heights)
    return [b for b, height in zip(boxes, heights, strict=True) if height >= floor]


def _middle_is_crossed(kept: list[Box]) -> bool:
    """Whether rectangles spanning the whole middle of the text carry more than the
    gutter threshold of its characters.

    A gutter that survives the prose check has a column of at least
    ``MIN_COLUMN_SHARE`` of the text width on each side, so it lies in the
    middle; every rectangle across the middle (widened by a histogram bin on
    each side) covers it, and joining rectangles into runs only adds coverage.
    Its coverage is then above ``LOW_COVERAGE`` of the total, so above that
    share of the peak.
    """
    left, right = min(b[0] for b in kept), max(b[2] for b in kept)
    unit = 1.0 + (right - left) / 1000  # at least the histogram's bin, with room
    margin = MIN_COLUMN_SHARE * (right - left)
    low, high = left + margin - unit, right - margin + unit
    total = across = 0.0
    for x0, y0, x1, y1 in kept:
        weight = 2 * (x1 - x0) / (y1 - y0)
        total += weight
        if x0 <= low and x1 >= high:
            across += weight
    return across > LOW_COVERAGE * total * (1 + _SLACK)


Box = tuple[float, float, float, float]


def joined_runs(kept: list[Box]) -> tuple[list[float], list[float], list[float], list[float],
                                          list[float], list[float]]:
    """PDFium's rectangles joined into line runs: x0, x1, characters (estimated from
    the width), height, y0 and y1 of each. PDFium cuts a rectangle at every text object and
    some producers draw word by word, so one line may come in many pieces. ``kept`` are
    the rectangles without slivers (accents, dots). Plain Python, with comparisons
    written out rather than min()/max() calls: a page has tens to hundreds of rectangles."""
    kept = sorted(kept, key=lambda b: -(b[1] + b[3]))
    # (line, x0, index) per rectangle: sorted, it is reading order within each line
    keyed: list[tuple[int, float, int]] = []
    line = 0
    above_middle = above_height = 0.0
    for k, (x0, y0, _x1, y1) in enumerate(kept):
        middle, height = (y0 + y1) / 2, y1 - y0
        if k:
            lower = height if height < above_height else above_height
            line += above_middle - middle > _SAME_LINE * lower
        keyed.append((line, x0, k))
        above_middle, above_height = middle, height
    keyed.sort()
    x0s: list[float] = []
    x1s: list[float] = []
    chars: list[float] = []
    heights: list[float] = []
    y0s: list[float] = []
    y1s: list[float] = []
    previous_line = -1
    previous_x1 = previous_height = 0.0
    for line, x0, k in keyed:
        _, y0, x1, y1 = kept[k]
        height = y1 - y0
        wider = height if height > previous_height else previous_height
        if line != previous_line or x0 - previous_x1 > _JOIN_GAP * wider:
            x0s.append(x0)
            x1s.append(x1)
            chars.append(0.0)
            heights.append(height)
            y0s.append(y0)
            y1s.append(y1)
        else:
            if x0 < x0s[-1]:
                x0s[-1] = x0
            if x1 > x1s[-1]:
                x1s[-1] = x1
            if height > heights[-1]:
                heights[-1] = height
            if y0 < y0s[-1]:
                y0s[-1] = y0
            if y1 > y1s[-1]:
                y1s[-1] = y1
        chars[-1] += 2 * (x1 - x0) / height
        previous_line, previous_x1, previous_height = line, x1, height
    return x0s, x1s, chars, heights, y0s, y1s


def _leans(boxes: Sequence[Box]) -> bool:
    """Rectangles taller than wide in bulk: a rotated page or vertical text runs."""
    tall = sum(1 for b in boxes if (b[3] - b[1]) > _TALL * (b[2] - b[0]))
    return tall > max(3, len(boxes) // 4)
