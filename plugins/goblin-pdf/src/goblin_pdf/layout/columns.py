"""Column gutters from an x-coverage histogram of a page's runs.

A gutter is a vertical strip that few runs cross (only full-width ones:
titles, wide captions) with well-covered text on both sides. Each side must
read like prose (runs of many characters) and be reasonably wide, so the
gaps between table columns or between form labels and values do not count.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from goblin_pdf.layout.lines import Run

_LOW = 0.3  # of the peak coverage: bins at or below this may be a gutter
_MIN_GUTTER = 0.6  # gutter width, in median glyph heights
_MIN_COLUMN_SHARE = 0.15  # narrowest column, as a share of the text width
_MIN_COLUMN_RUNS = 3
_MAX_BINS = 2000
_MIN_PROSE_CHARS = 15  # median characters per run in a column of prose


def find_gutters(runs: Sequence[Run]) -> list[tuple[float, float]]:
    """The page's column gutters as (x0, x1) intervals, left to right; [] for one column."""
    if len(runs) < 2 * _MIN_COLUMN_RUNS:
        return []
    return gutters_of(np.array([r.x0 for r in runs]), np.array([r.x1 for r in runs]),
                      np.array([r.chars for r in runs]), np.array([r.height for r in runs]))


def gutters_of(x0: np.ndarray, x1: np.ndarray, chars: np.ndarray,
               height: np.ndarray) -> list[tuple[float, float]]:
    """:func:`find_gutters` on run arrays: left and right edges, characters, heights."""
    if x0.size < 2 * _MIN_COLUMN_RUNS:
        return []
    left, right = float(x0.min()), float(x1.max())
    # bins of a point, or coarser on huge pages so the histogram stays small
    unit = max(1.0, (right - left) / _MAX_BINS)
    bins = int((right - left) / unit) + 2
    if bins < 4:
        return []
    start = np.clip(((x0 - left) / unit).astype(int), 0, bins - 1)
    stop = np.clip(np.ceil((x1 - left) / unit).astype(int), 0, bins - 1)
    diff = np.zeros(bins + 1)
    np.add.at(diff, start, chars)
    np.add.at(diff, stop, -chars)
    coverage = np.cumsum(diff)[:bins]
    low = coverage <= _LOW * coverage.max()
    min_width = _MIN_GUTTER * float(np.median(height)) / unit
    gutters = []
    for a, b in _low_spans(low):
        if b - a < min_width or a == 0 or b >= bins - 1:
            continue
        gutters.append((left + a * unit, left + b * unit))
    return _prose_columns(gutters, x0, x1, chars, left, right)


def _low_spans(low: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) index spans of consecutive True values."""
    edges = np.diff(np.concatenate([[0], low.astype(np.int8), [0]]))
    starts, ends = np.nonzero(edges == 1)[0].tolist(), np.nonzero(edges == -1)[0].tolist()
    return list(zip(starts, ends, strict=True))


def _prose_columns(gutters: list[tuple[float, float]], x0: np.ndarray, x1: np.ndarray,
                   chars: np.ndarray, left: float, right: float) -> list[tuple[float, float]]:
    """Keep only gutters whose neighbouring columns are wide and hold prose."""
    kept = list(gutters)
    changed = True
    while kept and changed:
        changed = False
        edges = [left, *[g for pair in kept for g in pair], right]
        for i in range(len(kept) + 1):
            c0, c1 = edges[2 * i], edges[2 * i + 1]
            inside = (x0 >= c0 - 1) & (x1 <= c1 + 1)
            wide = (c1 - c0) >= _MIN_COLUMN_SHARE * (right - left)
            prose = inside.sum() >= _MIN_COLUMN_RUNS and np.median(chars[inside]) >= \
                _MIN_PROSE_CHARS if inside.any() else False
            if wide and prose:
                continue
            # drop the gutter on the weaker side and look again
            kept.pop(min(i, len(kept) - 1))
            changed = True
            break
    return kept
