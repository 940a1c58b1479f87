"""Columns from word positions: the x-ranges that text covers, split by white gutters.

Words of several lines are projected onto the x axis; ranges closer than
the gutter width merge. What is left between the ranges is white on every
line, the gutters of a table. Right-aligned figures and their left-aligned
header fall in one range because their boxes overlap.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence

from goblin_core.structured.brazilian_numbers import is_figure
from goblin_pdf.tables.text_lines import TextLine, Word

Span = tuple[float, float]

#: A gutter between columns is at least this many glyph heights wide.
GUTTER_EM = 0.9
#: Word edges this close (points) line up.
EDGE_TOLERANCE = 1.0
#: A column is cut in two where at least this many of its lines...
MIN_CUT_LINES = 3
#: ...and this share of them break at one place.
CUT_SHARE = 0.8


def spans(words: Iterable[Word], gutter: float) -> list[Span]:
    """The x-ranges covered by ``words``, merged where closer than ``gutter``."""
    merged: list[list[float]] = []
    for x0, x1 in sorted((w.x0, w.x1) for w in words):
        if merged and x0 - merged[-1][1] < gutter:
            merged[-1][1] = max(merged[-1][1], x1)
        else:
            merged.append([x0, x1])
    return [(a, b) for a, b in merged]


def segments(line: TextLine, gutter: float) -> list[Span]:
    """The pieces of one line separated by gaps of at least ``gutter``."""
    return spans(line.words, gutter)


def line_spans(lines: Sequence[TextLine], gutter: float) -> list[Span]:
    """The columns of some lines together."""
    return spans((w for line in lines for w in line.words), gutter)


def bridges(columns: Sequence[Span], line: TextLine, gutter: float) -> bool:
    """True when ``line`` runs across a gutter between two of ``columns``."""
    joined = widened(columns, line, gutter)
    return any(sum(1 for c in columns if a <= c[0] and c[1] <= b) > 1 for a, b in joined)


def widened(columns: Sequence[Span], line: TextLine, gutter: float) -> list[Span]:
    """``columns`` once ``line``'s words are added to them."""
    return spans([*_as_words(columns), *line.words], gutter)


def _as_words(columns: Sequence[Span]) -> list[Word]:
    return [Word("", a, b, 0.0, 1.0) for a, b in columns]


def column_of(word: Word, columns: Sequence[Span]) -> int:
    """Index of the column holding most of ``word`` (the nearest one when it is in a gutter)."""
    return _place((word.x0 + word.x1) / 2, columns, [a for a, _ in columns])


def _place(centre: float, columns: Sequence[Span], starts: Sequence[float]) -> int:
    """Index of the column of ``columns`` (sorted, apart; ``starts`` their left edges)
    holding ``centre``, or nearest to it, the left one of two as near: found by bisection,
    as a page of small print cuts lines into hundreds of columns."""
    index = bisect.bisect_right(starts, centre) - 1
    if index < 0:
        return 0
    if centre <= columns[index][1] or index + 1 == len(columns):
        return index
    after = index + 1
    return index if centre - columns[index][1] <= columns[after][0] - centre else after


def spans_of(columns: Sequence[Span], rows: Sequence[Sequence[str]]) -> tuple[Span, ...]:
    """``columns`` as a table's column ranges, or () when its cleaned ``rows`` no longer
    have one cell per column (a column emptied by the cleaning was dropped)."""
    width = max((len(row) for row in rows), default=0)
    return tuple(columns) if width == len(columns) else ()


def line_cells(line: TextLine, columns: Sequence[Span]) -> list[str]:
    """One line's text cut into ``columns``: words of a column joined by spaces."""
    cells: list[list[str]] = [[] for _ in columns]
    starts = [a for a, _ in columns]
    for word in line.words:
        cells[_place((word.x0 + word.x1) / 2, columns, starts)].append(word.text)
    return [" ".join(c) for c in cells]


def realigned(columns: Sequence[Span], lines: Sequence[TextLine]) -> list[Span]:
    """``columns`` as a spreadsheet printed without grid lines lays them out.

    Its figures are right-aligned and its text and titles left-aligned, a cell's
    padding apart: a column of figures runs into the text column on its right with
    less than a gutter between them, and a column title stands left of its figures
    with a gutter between. A column is cut where its lines break at one place, the
    figures before the cut ending at one edge and the words after it starting at
    one; a column holding only the title line is then joined to the untitled
    column right of it.
    """
    cut = [part for span in columns for part in _cut_after_figures(span, lines)]
    return _titles_over_figures(cut, lines)


def _inside(span: Span, line: TextLine) -> list[Word]:
    return [w for w in line.words if span[0] <= (w.x0 + w.x1) / 2 <= span[1]]


def _cut_after_figures(span: Span, lines: Sequence[TextLine]) -> list[Span]:
    rows = [words for words in (_inside(span, line) for line in lines) if words]
    starts = Counter(round(w.x0) for words in rows for w in words[1:])
    for start, count in starts.most_common(2):
        if count < MIN_CUT_LINES or count < CUT_SHARE * len(rows):
            break
        parts = _parts_at(rows, start - EDGE_TOLERANCE)
        if parts is not None:
            return [(span[0], parts[0]), (parts[1], span[1])]
    return [span]


def _parts_at(rows: Sequence[Sequence[Word]], cut: float) -> tuple[float, float] | None:
    """The right edge of the figures before ``cut`` and the left edge of the words after
    it when every row breaks there as a right-aligned figure and left-aligned text."""
    ends: list[float] = []
    begins: list[float] = []
    for words in rows:
        before = [w for w in words if w.x0 < cut]
        after = [w for w in words if w.x0 >= cut]
        if before and after and before[-1].x1 > after[0].x0:
            return None
        if before:
            if not is_figure(" ".join(w.text for w in before)):
                return None
            ends.append(before[-1].x1)
        if after:
            begins.append(after[0].x0)
    if len(ends) < MIN_CUT_LINES or not begins:
        return None
    if max(ends) - min(ends) > 2 * EDGE_TOLERANCE or max(begins) - min(begins) > 2 * EDGE_TOLERANCE:
        return None
    return max(ends), min(begins)


def _titles_over_figures(columns: Sequence[Span], lines: Sequence[TextLine]) -> list[Span]:
    if len(lines) < 2:
        return list(columns)
    titles = [bool(_inside(span, lines[0])) for span in columns]
    body = [any(_inside(span, line) for line in lines[1:]) for span in columns]
    out: list[Span] = []
    index = 0
    while index < len(columns):
        span = columns[index]
        if (titles[index] and not body[index] and index + 1 < len(columns)
                and body[index + 1] and not titles[index + 1]):
            out.append((span[0], columns[index + 1][1]))
            index += 2
            continue
        out.append(span)
        index += 1
    return out
