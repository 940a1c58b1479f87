"""Bands of a page that hold columns of their own: three columns above two, a band of
two columns between single-column text.

The page-wide gutter search sees one set of columns: where a band of three columns sits
above a band of two, each band's lines cross the other's gutters, and the search keeps
what the busier band shows, or nothing. So the page is cut into parts searched apart,
where an empty row crosses all of it or where lines across the page meet a stretch of
narrower ones; a part whose own gutters are new to the page-wide search and crossed by
the other part's lines is a band of its own.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from typing import NamedTuple

from goblin_pdf.layout.columns import (
    MIN_SIDE_BY_SIDE,
    NARROW_SHARE,
    gutters_of,
    low_strips,
    side_by_side_rows,
)
from goblin_pdf.layout.lines import Run

#: Empty height across the page, in median run heights, where two bands may meet
CUT_GAP = 1.0
#: Places tried as cuts (stretch ends first, then empty rows, widest first), and twice
#: as many tries in all over the parts: each try looks at every run of the part
MAX_CUTS = 8
#: Lines of the other part crossing a part's new gutter for the part to be a band
MIN_CROSSING = 3
#: Share of letters in a band's text: a table's numbers and leader dots fall short of it
MIN_LETTER_SHARE = 0.75


class Band(NamedTuple):
    """Runs of one band, top to bottom as the page has them, and the band's gutters."""

    runs: list[Run]
    gutters: list[tuple[float, float]]


def column_bands(runs: Sequence[Run], gutters: Sequence[tuple[float, float]]) -> list[Band]:
    """The page's bands top down, each with its gutters; one band with the page's
    ``gutters`` when no part of the page holds columns of its own."""
    whole = [Band(list(runs), list(gutters))]
    if len(runs) < 4 * MIN_CROSSING:
        return whole
    cuts = _stretch_ends(runs)
    cuts += [cut for cut in _empty_rows(runs) if cut not in cuts]
    if not cuts:
        return whole
    tries = 2 * MAX_CUTS

    def split(band: Band, cuts: list[float]) -> list[Band]:
        nonlocal tries
        for cut in cuts:
            above = [r for r in band.runs if r.yc > cut]
            below = [r for r in band.runs if r.yc < cut]
            if len(above) < 2 * MIN_CROSSING or len(below) < 2 * MIN_CROSSING:
                continue
            if tries <= 0:
                break
            tries -= 1
            upper = _own_gutters(above, below, band.gutters)
            lower = _own_gutters(below, above, band.gutters)
            if upper is None and lower is None:
                continue
            # a part without columns of its own keeps the page's when the search finds
            # none in it: its few lines may be too few, and the page's gutters read it
            # as they did
            upper = upper if upper is not None else _gutters(above) or band.gutters
            lower = lower if lower is not None else _gutters(below) or band.gutters
            return (split(Band(above, upper), [c for c in cuts if c > cut])
                    + split(Band(below, lower), [c for c in cuts if c < cut]))
        return [band]

    return split(whole[0], cuts[:MAX_CUTS])


def _stretch_ends(runs: Sequence[Run]) -> list[float]:
    """Heights where a stretch of ``2 * MIN_CROSSING`` or more runs narrower than
    ``NARROW_SHARE`` of the text, top to bottom, meets a line across the page (one
    wider than that) with no run reaching across the meeting: a band of columns' lines
    under or over a paragraph across the page."""
    limit = NARROW_SHARE * (max(r.x1 for r in runs) - min(r.x0 for r in runs))
    ordered = sorted(runs, key=lambda r: -r.yc)
    wide = [r.x1 - r.x0 >= limit for r in ordered]
    meetings: list[tuple[int, int]] = []
    start = 0
    for end in range(1, len(ordered) + 1):
        if end < len(ordered) and wide[end] == wide[start]:
            continue
        if not wide[start] and end - start >= 2 * MIN_CROSSING:
            meetings += [(upper, upper + 1) for upper in (start - 1, end - 1)
                         if 0 <= upper < len(ordered) - 1]
        start = end
    # each meeting is checked against every run: a page of many stretches (a form, a
    # price list) has its first few tried only
    found = (_between(ordered[upper], ordered[lower], runs)
             for upper, lower in meetings[:2 * MAX_CUTS])
    return [cut for cut in found if cut is not None]


def _between(upper: Run, lower: Run, runs: Sequence[Run]) -> float | None:
    """A height between ``upper`` and ``lower`` that no run reaches across by more than a
    quarter of its height, if any: lines set tight touch, their boxes holding the
    ascenders and descenders of the type."""
    cut = (upper.y0 + lower.y1) / 2
    return None if any(r.y0 + (r.y1 - r.y0) / 4 < cut < r.y1 - (r.y1 - r.y0) / 4
                       for r in runs) else cut


def _empty_rows(runs: Sequence[Run]) -> list[float]:
    """Heights of the widest empty rows across the page (``MAX_CUTS`` at most), widest
    first: between a run's bottom and the top of the next run below all runs above it."""
    limit = CUT_GAP * statistics.median(r.height for r in runs)
    ordered = sorted(runs, key=lambda r: -r.y1)
    floor = ordered[0].y0
    rows: list[tuple[float, float]] = []
    for run in ordered[1:]:
        if floor - run.y1 >= limit:
            rows.append((floor - run.y1, (floor + run.y1) / 2))
        floor = min(floor, run.y0)
    rows.sort(reverse=True)
    return [height for _, height in rows[:MAX_CUTS]]


def _own_gutters(part: list[Run], other: list[Run],
                 page: Sequence[tuple[float, float]]) -> list[tuple[float, float]] | None:
    """``part``'s gutters when one of them is new to the ``page``'s gutters, crossed by
    ``MIN_CROSSING`` lines of the ``other`` part (which is why the page-wide search
    missed it) and has ``MIN_SIDE_BY_SIDE`` rows of ``part`` standing side by side
    across it, as columns' lines do, in a part that reads like prose: the columns of a
    table under a page's text (numbers, leader dots) are read row by row, as the
    page's gutters have them. None otherwise. The coverage histogram's low strips are
    asked first: they rule out most parts before the prose of any column is judged."""
    strips = low_strips([r.x0 for r in part], [r.x1 for r in part],
                        [float(r.chars) for r in part], [r.height for r in part])
    if not any(_beside_and_crossed(strip, part, other, page) for strip in strips):
        return None
    found = _gutters(part)
    if any(_beside_and_crossed(gutter, part, other, page) for gutter in found) and _wordy(part):
        return found
    return None


def _gutters(runs: list[Run]) -> list[tuple[float, float]]:
    return gutters_of([r.x0 for r in runs], [r.x1 for r in runs], [float(r.chars) for r in runs],
                      [r.height for r in runs], [r.direction > 0 for r in runs],
                      [r.y0 for r in runs], [r.y1 for r in runs])


def _beside_and_crossed(gutter: tuple[float, float], part: list[Run], other: list[Run],
                        page: Sequence[tuple[float, float]]) -> bool:
    g0, g1 = gutter
    if any(p0 < g1 and g0 < p1 for p0, p1 in page):
        return False
    middle = (g0 + g1) / 2
    return (sum(1 for r in other if r.x0 < middle < r.x1) >= MIN_CROSSING
            and side_by_side_rows(gutter, part) >= MIN_SIDE_BY_SIDE)


_LETTER = re.compile(r"[^\W\d_]")


def _wordy(runs: list[Run]) -> bool:
    text = "".join(word for run in runs for word in run.words)
    return len(_LETTER.findall(text)) >= MIN_LETTER_SHARE * len(text)
