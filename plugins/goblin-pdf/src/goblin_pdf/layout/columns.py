"""Column gutters from an x-coverage histogram of a page's runs.

A gutter is a vertical strip that few runs cross (only full-width ones:
titles, wide captions) with well-covered text on both sides. Each side must
read like prose (runs of many characters) and be reasonably wide, so the
gaps between table columns or between form labels and values do not count.

Where paragraphs across the whole width fill a page's gutter (an abstract above two
columns, an introduction above three), the gutter is looked for again among the runs
narrower than half the text: it stands when enough of its lines stand side by side with
lines of the next column, as two columns' lines do and a letter's address blocks do not.
"""

from __future__ import annotations

import bisect
import itertools
import math
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # lines needs NumPy, which the per-page column check does without
    from goblin_pdf.layout.lines import Run

LOW_COVERAGE = 0.3  # of the peak coverage: bins at or below this may be a gutter
MIN_GUTTER = 0.6  # gutter width, in median glyph heights
MIN_COLUMN_SHARE = 0.15  # narrowest column, as a share of the text width
_MIN_COLUMN_RUNS = 3
_MAX_BINS = 2000
_MIN_PROSE_CHARS = 15  # median characters per run in a column of prose
_MIN_PITCHES = 3  # steps between lines from which the usual line pitch is taken


def column_gutters(runs: Sequence[Run],
                   ask_plain: bool = True) -> tuple[list[tuple[float, float]], bool]:
    """The page's column gutters as (x0, x1) intervals, left to right ([] for one
    column), and whether the page shows columns to the plain page-wide
    search too, run by run (the one the column screen of ``layout = "auto"`` makes):
    columns found only with lines' runs added up or among the narrow runs are new to
    it, and ``auto`` reorders such a page only where PDFium's text reads across them.
    ``ask_plain`` False: the plain search is not made (every page is reordered), and
    the answer is False."""
    x0, x1 = [r.x0 for r in runs], [r.x1 for r in runs]
    y0, y1 = [r.y0 for r in runs], [r.y1 for r in runs]
    chars, height = [float(r.chars) for r in runs], type_heights([r.height for r in runs], y0)
    right_to_left = [r.direction > 0 for r in runs]
    page_wide = gutters_of(x0, x1, chars, height, right_to_left, y0, y1)
    beside = gutters_beside_wide_lines(x0, x1, chars, height, y0, y1, right_to_left)
    plain = ask_plain and bool(page_wide) and bool(
        gutters_of(x0, x1, chars, height, right_to_left))
    # the narrow runs' gutters when they add to the page-wide ones: a running head and a
    # footer across a gutter of a sparse page (a page of figures) hide it from the first
    if len(beside) > len(page_wide) and all(any(a0 < b1 and b0 < a1 for b0, b1 in beside)
                                            for a0, a1 in page_wide):
        return beside, plain
    return page_wide, plain


def type_heights(height: Sequence[float], y0: Sequence[float]) -> list[float]:
    """Run heights, the taller ones cut down to the page's usual line pitch: the boxes of a
    font whose ascent and descent reach far beyond its letters (Latin Modern as LuaTeX
    embeds it) stand taller than its lines are apart, and a gutter as wide as the type is
    tall, as TeX sets two columns, is measured against the type, not those boxes."""
    levels = sorted({round(y, 1) for y in y0})
    if len(levels) <= _MIN_PITCHES or not height:
        return list(height)
    floor = 0.5 * statistics.median(height)  # steps to a raised or lowered run
    steps = [b - a for a, b in itertools.pairwise(levels) if b - a > floor]
    if len(steps) < _MIN_PITCHES:
        return list(height)
    pitch = statistics.median(steps)
    return [h if h < pitch else pitch for h in height]


def read_across(runs: Sequence[Run], gutters: Sequence[tuple[float, float]]) -> bool:
    """Whether the page's stream, in PDFium's order, goes from a line of one column to a
    line of another at its height ``MIN_SIDE_BY_SIDE`` times or more: a producer writing
    the columns line across line, whose text only the rebuild puts in order. Chrome,
    Word and TeX write a column after the other, which PDFium's text keeps."""
    steps = 0
    for run, after in itertools.pairwise(sorted(runs, key=lambda r: r.first)):
        left, right = (run, after) if run.x0 < after.x0 else (after, run)
        if (any(left.x1 <= g0 and right.x0 >= g1 for g0, g1 in gutters)
                and _level(run.y0, run.y1, after.y0, after.y1)):
            steps += 1
    return steps >= MIN_SIDE_BY_SIDE


#: Width of a run, as a share of the text's, below which it may be a column's line
NARROW_SHARE = 0.5
#: Lines of a column standing beside lines of the next for the columns to be found
#: among the narrow runs alone
MIN_SIDE_BY_SIDE = 5


def gutters_beside_wide_lines(x0: Sequence[float], x1: Sequence[float],
                              chars: Sequence[float], height: Sequence[float],
                              y0: Sequence[float], y1: Sequence[float],
                              right_to_left: Sequence[bool] | None = None,
                              by_line: bool = True) -> list[tuple[float, float]]:
    """The gutters of the runs narrower than ``NARROW_SHARE`` of the text, each kept when
    ``MIN_SIDE_BY_SIDE`` lines of the column on its left stand beside lines of the column
    on its right with no line across the gutter between them: rows of a name and a label,
    each under a paragraph across the page, are no columns. ``by_line``: a column's
    prose is judged by its lines' characters (see ``gutters_of``), else run by run."""
    if not x0:
        return []
    left, right = min(x0), max(x1)
    limit = NARROW_SHARE * (right - left)
    narrow = [k for k, (a, b) in enumerate(zip(x0, x1, strict=True)) if b - a < limit]
    if len(narrow) < 2 * _MIN_COLUMN_RUNS + MIN_SIDE_BY_SIDE:
        return []
    rtl = right_to_left or [False] * len(x0)
    found = gutters_of([x0[k] for k in narrow], [x1[k] for k in narrow],
                       [chars[k] for k in narrow], [height[k] for k in narrow],
                       [rtl[k] for k in narrow], [y0[k] for k in narrow] if by_line else None,
                       [y1[k] for k in narrow] if by_line else None)
    return [gutter for gutter in found
            if _side_by_side_lines(gutter, narrow, x0, x1, y0, y1) >= MIN_SIDE_BY_SIDE]


def side_by_side_rows(gutter: tuple[float, float], runs: Sequence[Run]) -> int:
    """``_side_by_side_lines`` over all of ``runs``, a line parted into several runs on
    the gutter's left (a justified line's words) counted once."""
    return _side_by_side_lines(gutter, list(range(len(runs))), [r.x0 for r in runs],
                               [r.x1 for r in runs], [r.y0 for r in runs], [r.y1 for r in runs],
                               rows=True)


def _side_by_side_lines(gutter: tuple[float, float], narrow: list[int], x0: Sequence[float],
                        x1: Sequence[float], y0: Sequence[float],
                        y1: Sequence[float], rows: bool = False) -> int:
    """The most narrow runs ending left of ``gutter``'s middle, one below the other with
    no run across the middle between them, that have a narrow run starting right of it
    at their height (overlapping by half the lower one's height); ``rows``: runs level
    with the one before counted as one."""
    middle = (gutter[0] + gutter[1]) / 2
    before = [k for k in narrow if x1[k] <= middle]
    after = sorted((k for k in narrow if x0[k] >= middle), key=lambda k: y0[k] + y1[k])
    if not before or not after:
        return 0
    # runs beside one another have their middles less than their heights' mean apart:
    # each run of the left column is compared with the right column's runs near it only
    centres = [(y0[k] + y1[k]) / 2 for k in after]
    reach = max(y1[k] - y0[k] for k in after)
    paired = []
    for a in before:
        centre, size = (y0[a] + y1[a]) / 2, y1[a] - y0[a]
        low = bisect.bisect_left(centres, centre - (size + reach) / 2)
        high = bisect.bisect_right(centres, centre + (size + reach) / 2)
        if any(_level(y0[a], y1[a], y0[b], y1[b]) for b in after[low:high]):
            paired.append((centre, size))
    paired.sort()
    if rows:
        paired = [row for k, row in enumerate(paired)
                  if not k or row[0] - paired[k - 1][0] >= 0.5 * min(row[1], paired[k - 1][1])]
    across = sorted((a0 + a1) / 2 for a, b, a0, a1 in zip(x0, x1, y0, y1, strict=True)
                    if a < middle < b)
    longest = chain = 0
    for k, (level, _) in enumerate(paired):
        between = k and bisect.bisect_left(across, level) > bisect.bisect_right(
            across, paired[k - 1][0])
        chain = 1 if not k or between else chain + 1
        longest = max(longest, chain)
    return longest


def _level(low: float, high: float, low2: float, high2: float) -> bool:
    """Whether two runs, bottom and top, overlap up and down by half the lower one."""
    return min(high, high2) - max(low, low2) >= 0.5 * min(high - low, high2 - low2)


def gutters_of(x0: Sequence[float], x1: Sequence[float], chars: Sequence[float],
               height: Sequence[float], right_to_left: Sequence[bool] | None = None,
               y0: Sequence[float] | None = None,
               y1: Sequence[float] | None = None) -> list[tuple[float, float]]:
    """The gutters of :func:`column_gutters`'s page-wide search, on run lists: left and
    right edges, characters, heights and, when known, which runs read right to left and
    their bottoms and tops.

    Plain Python on purpose: a page has tens to a few hundred runs, where NumPy's
    per-call cost outweighs its speed, and this runs on every page of every PDF.
    """
    gutters = low_strips(x0, x1, chars, height)
    if not gutters:
        return []
    left, right = min(x0), max(x1)
    rows = _Rows(x0, x1, chars, y0, y1, gutters) if y0 is not None and y1 is not None else None
    return _prose_columns(gutters, x0, x1, chars, left, right,
                          right_to_left or [False] * len(x0), rows)


def low_strips(x0: Sequence[float], x1: Sequence[float], chars: Sequence[float],
               height: Sequence[float]) -> list[tuple[float, float]]:
    """The strips of the coverage histogram low and wide enough to be gutters, before
    the columns beside them are asked to read like prose."""
    if not x0:
        return []  # a page without upright text (blank, or only rotated runs)
    left, right = min(x0), max(x1)
    frame = histogram_frame(left, right, len(x0))
    if frame is None:
        return []
    unit, bins = frame
    # coverage changes only where a run starts or stops: sweep those bin edges
    change: dict[int, float] = {}
    last = bins - 1
    for a, b, weight in zip(x0, x1, chars, strict=True):
        start = int((a - left) / unit)
        stop = math.ceil((b - left) / unit)
        start = last if start > last else 0 if start < 0 else start
        stop = last if stop > last else 0 if stop < 0 else stop
        change[start] = change.get(start, 0.0) + weight
        change[stop] = change.get(stop, 0.0) - weight
    edges = sorted(change)
    levels = list(itertools.accumulate(change[e] for e in edges))
    threshold = LOW_COVERAGE * max(levels)
    min_width = MIN_GUTTER * statistics.median(height) / unit
    gutters = []
    for a, b in _low_spans(edges, levels, threshold, bins):
        if b - a < min_width or a == 0 or b >= bins - 1:
            continue
        gutters.append((left + a * unit, left + b * unit))
    return gutters


def histogram_frame(left: float, right: float, runs: int) -> tuple[float, int] | None:
    """Bin width and bin count of the coverage histogram from ``left`` to ``right``;
    None when ``runs`` runs are too few, or the span too narrow, for two columns."""
    if runs < 2 * _MIN_COLUMN_RUNS:
        return None
    # bins of a point, or coarser on huge pages so the histogram stays small
    unit = max(1.0, (right - left) / _MAX_BINS)
    bins = int((right - left) / unit) + 2
    return None if bins < 4 else (unit, bins)


def _low_spans(edges: list[int], levels: list[float], threshold: float,
               bins: int) -> list[tuple[int, int]]:
    """(start, end) bin spans where the coverage stays at or below ``threshold``;
    ``levels[k]`` holds from ``edges[k]`` to the next edge (the last to ``bins``)."""
    spans: list[tuple[int, int]] = []
    begin: int | None = None
    if edges[0] > 0:
        begin = 0  # bins before the first run are empty
    for k, edge in enumerate(edges):
        low = levels[k] <= threshold
        if low and begin is None:
            begin = edge
        elif not low and begin is not None:
            if edge > begin:
                spans.append((begin, edge))
            begin = None
    if begin is not None and bins > begin:
        spans.append((begin, bins))
    return spans


class _Rows:
    """Characters per line of a column, for justified narrow columns: their word gaps
    may be wider than the gutter, which parts their lines into runs of a word or two
    that read like no prose one by one. A column holding a low strip the search set
    aside (the gap between two columns of a table) is judged run by run: its cells, a
    row's added up, would read like prose."""

    def __init__(self, x0: Sequence[float], x1: Sequence[float], chars: Sequence[float],
                 y0: Sequence[float], y1: Sequence[float],
                 strips: list[tuple[float, float]]) -> None:
        self.x0, self.x1, self.chars, self.y0, self.y1 = x0, x1, chars, y0, y1
        self.strips = strips

    def lengths(self, inside: list[int], c0: float, c1: float) -> list[float] | None:
        """The characters of each line the runs ``inside`` make, or None when the
        column from ``c0`` to ``c1`` holds a set-aside strip."""
        if any(c0 < s0 and s1 < c1 for s0, s1 in self.strips):
            return None
        lengths: list[float] = []
        starts: list[list[float]] = []  # where each line's later runs start
        top = bottom = 0.0
        for k in sorted(inside, key=lambda k: -(self.y0[k] + self.y1[k])):
            low, high = self.y0[k], self.y1[k]
            if lengths and _level(low, high, bottom, top):
                lengths[-1] += self.chars[k]
                starts[-1].append(self.x0[k])
                continue
            lengths.append(self.chars[k])
            starts.append([])
            top, bottom = high, low
        return None if _aligned(starts, top - bottom) else lengths


def _aligned(starts: list[list[float]], height: float) -> bool:
    """Whether most lines parted into runs (``_ALIGNED_SHARE``) have a later run starting
    at one place: the cells of a table's column. A justified line parts at word gaps,
    which fall anywhere, though a short first word often leaves the second about one
    place."""
    parted = [line for line in starts if line]
    if len(parted) < _MIN_COLUMN_RUNS:
        return False
    # a table's cells start within a point or two of one another; places a quarter of
    # a glyph's height wide, counted with the next so a cell edge on a boundary counts
    unit = max(0.25 * height, 0.5)
    counts: dict[int, int] = {}
    for line in parted:
        for place in {p for x in line for p in (int(x / unit), int(x / unit) - 1)}:
            counts[place] = counts.get(place, 0) + 1
    return max(counts.values()) >= _ALIGNED_SHARE * len(parted)


#: Share of a column's parted lines with a run starting at one place that makes it a table's
_ALIGNED_SHARE = 0.75


def _prose_columns(gutters: list[tuple[float, float]], x0: Sequence[float],
                   x1: Sequence[float], chars: Sequence[float], left: float,
                   right: float, right_to_left: Sequence[bool],
                   rows: _Rows | None = None) -> list[tuple[float, float]]:
    """Keep only gutters whose neighbouring columns are wide and hold prose. A gutter's
    edge lies where few lines reach: right-to-left lines, set flush right, start inside
    the gutter on their left when they are longer than most, and count in their column
    up to the gutter's middle."""
    kept = list(gutters)
    changed = True
    while kept and changed:
        changed = False
        edges = [left, *[g for pair in kept for g in pair], right]
        middles = [left, *[(g0 + g1) / 2 for g0, g1 in kept]]
        for i in range(len(kept) + 1):
            c0, c1 = edges[2 * i], edges[2 * i + 1]
            members = [k for k, (a, b, rtl) in enumerate(zip(x0, x1, right_to_left, strict=True))
                       if a >= (middles[i] if rtl else c0) - 1 and b <= c1 + 1]
            lines = rows.lengths(members, c0, c1) if rows is not None else None
            inside = lines if lines is not None else [chars[k] for k in members]
            wide = (c1 - c0) >= MIN_COLUMN_SHARE * (right - left)
            prose = len(inside) >= _MIN_COLUMN_RUNS and statistics.median(inside) >= \
                _MIN_PROSE_CHARS
            if wide and prose:
                continue
            # drop the gutter on the weaker side and look again
            kept.pop(min(i, len(kept) - 1))
            changed = True
            break
    return kept
