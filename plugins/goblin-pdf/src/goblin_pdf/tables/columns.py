"""Columns from word positions: the x-ranges that text covers, split by white gutters.

Words of several lines are projected onto the x axis; ranges closer than
the gutter width merge. What is left between the ranges is white on every
line, the gutters of a table. Right-aligned figures and their left-aligned
header fall in one range because their boxes overlap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from goblin_pdf.tables.text_lines import TextLine, Word

Span = tuple[float, float]

#: A gutter between columns is at least this many glyph heights wide.
GUTTER_EM = 0.9


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
    centre = (word.x0 + word.x1) / 2
    best, distance = 0, float("inf")
    for index, (a, b) in enumerate(columns):
        away = 0.0 if a <= centre <= b else min(abs(centre - a), abs(centre - b))
        if away < distance:
            best, distance = index, away
    return best


def spans_of(columns: Sequence[Span], rows: Sequence[Sequence[str]]) -> tuple[Span, ...]:
    """``columns`` as a table's column ranges, or () when its cleaned ``rows`` no longer
    have one cell per column (a column emptied by the cleaning was dropped)."""
    width = max((len(row) for row in rows), default=0)
    return tuple(columns) if width == len(columns) else ()


def line_cells(line: TextLine, columns: Sequence[Span]) -> list[str]:
    """One line's text cut into ``columns``: words of a column joined by spaces."""
    cells: list[list[str]] = [[] for _ in columns]
    for word in line.words:
        cells[column_of(word, columns)].append(word.text)
    return [" ".join(c) for c in cells]
