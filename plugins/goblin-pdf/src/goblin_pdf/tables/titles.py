"""Column titles that cannot be read with the rows under them, placed on the rows' columns.

The columns of a table without grid lines are the x-ranges its words cover. Two
kinds of title run across the gutters between those ranges and would join two
columns into one: a spreadsheet's left-aligned title, standing left of its
right-aligned figures and a cell's padding from the figures of the column before;
and a title over a group of columns (``VALOR`` centred over ``UNIT.`` and
``TOTAL``). Such titles are read apart: the columns come from the rows, and each
title goes to the column it stands over, a group title to every column whose own
title, on the line below, stands under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goblin_pdf.tables.columns import Span, bridges, line_spans, realigned, segments
from goblin_pdf.tables.records import has_figure
from goblin_pdf.tables.text_lines import TextLine, Word

#: Column titles take at most this many lines.
MAX_TITLE_LINES = 3


@dataclass(frozen=True)
class Titles:
    """``count`` title lines read as one ``row`` over the ``columns`` of the lines below."""

    count: int
    row: list[str]
    columns: list[Span]


@dataclass(frozen=True)
class _Title:
    text: str
    x0: float
    x1: float
    columns: frozenset[int]


def titles_over(lines: Sequence[TextLine], gutter: float) -> Titles | None:
    """The leading lines without figures as one row of titles over the columns of the
    lines below them, when a title runs across a gutter of those columns; else None
    (and None when a title stands over two columns with no titles of their own under
    it: a heading over a pair of columns, not a table's titles)."""
    count = 0
    while count < min(MAX_TITLE_LINES, len(lines) - 1) and not has_figure(lines[count:count + 1]):
        count += 1
    if not count:
        return None
    head, body = lines[:count], lines[count:]
    columns = realigned(line_spans(body, gutter), body)
    if not any(bridges(columns, line, gutter) for line in head):
        return None
    placed = [_titles(line, columns, gutter) for line in head]
    if any(titles is None for titles in placed):
        return None
    cells: list[list[str]] = [[] for _ in columns]
    for index, titles in enumerate(placed):
        below = placed[index + 1] if index + 1 < len(placed) else None
        for title in titles or ():
            spanned = _spanned(title, below)
            if spanned is None:
                return None
            for column in sorted(spanned):
                cells[column].append(title.text)
    return Titles(count, [" ".join(c) for c in cells], columns)


def _titles(line: TextLine, columns: Sequence[Span], gutter: float) -> list[_Title] | None:
    """The titles of one line (its words closer than ``gutter``), each with the columns
    its words stand over; None when a word stands over none."""
    out = []
    for a, b in segments(line, gutter):
        words = [w for w in line.words if a <= w.x0 and w.x1 <= b]
        places = {_column(word, columns) for word in words}
        if None in places:
            return None
        out.append(_Title(" ".join(w.text for w in words), a, b,
                          frozenset(p for p in places if p is not None)))
    return out


def _column(word: Word, columns: Sequence[Span]) -> int | None:
    """The column a title word stands over: one it overlaps, else the first starting right
    of it that reaches past its end (a left-aligned title over right-aligned figures)."""
    overlapped = (i for i, (a, b) in enumerate(columns) if a < word.x1 and word.x0 < b)
    right = (i for i, (a, b) in enumerate(columns) if a > word.x0 and b >= word.x1)
    return next(overlapped, next(right, None))


def _spanned(title: _Title, below: Sequence[_Title] | None) -> frozenset[int] | None:
    """The columns ``title`` heads: those of the titles under it when it stands over two
    or more of them, else its own one; None when it stands over several columns with
    no titles of their own under it."""
    under = [t for t in below or () if t.x0 < title.x1 and title.x0 < t.x1]
    if len(under) >= 2:
        return title.columns.union(*(t.columns for t in under))
    return title.columns if len(title.columns) == 1 else None
