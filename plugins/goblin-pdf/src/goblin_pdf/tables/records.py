"""Rows of a table from its text lines: the lines of one record become one row.

A record's cells may wrap over several lines, and its one-line cells may
sit on the first, middle or last of them (top, centred or bottom aligned).
The lines of one record are known from outside (between two rules, or
closer together than the space between records); they make one row when at
most one of them has text in the first column (the key). Several keyed
lines are several records packed together, one row each.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from goblin_core.structured.brazilian_numbers import is_figure
from goblin_pdf.tables.columns import Span, line_cells
from goblin_pdf.tables.text_lines import TextLine

#: Lines further apart than this share of the smallest line pitch start a new record.
RECORD_PITCH = 1.3


def merged_row(lines: Sequence[TextLine], columns: Sequence[Span]) -> list[str]:
    """One row of several lines: each column's text joined line after line."""
    cells = [line_cells(line, columns) for line in lines]
    return ["\n".join(c[i] for c in cells if c[i]) for i in range(len(columns))]


def record_rows(lines: Sequence[TextLine], columns: Sequence[Span]) -> list[list[str]]:
    """The rows of a group of lines thought to be one record."""
    keyed = [i for i, line in enumerate(lines) if line_cells(line, columns)[0]]
    if len(keyed) <= 1:
        return [merged_row(lines, columns)]
    starts = [0, *keyed[1:], len(lines)]
    return [merged_row(lines[a:b], columns) for a, b in itertools.pairwise(starts)]


def has_figure(lines: Sequence[TextLine]) -> bool:
    """True when a word of ``lines`` is a figure (an amount, a date, a count)."""
    return any(is_figure(w.text) for line in lines for w in line.words)


def group_rows(lines: Sequence[TextLine], columns: Sequence[Span],
               first: bool) -> list[list[str]]:
    """The rows of a group of lines: ``record_rows``, unless the group is the ``first``
    of its table and holds no figure. It is then the column titles, one row however
    many lines they wrap over, though each line has a word in the first column."""
    if first and not has_figure(lines):
        return [merged_row(lines, columns)]
    return record_rows(lines, columns)


def spaced_records(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Lines grouped into records by spacing: a wider gap than the tightest pitch splits.

    With even spacing every line is a record of its own (``normalize_table_rows``
    still folds a wrapped line without figures into the row above).
    """
    if len(lines) < 2:
        return [list(lines)]
    pitches = [b.top - a.top for a, b in itertools.pairwise(lines)]
    tightest = min(p for p in pitches if p > 0) if any(p > 0 for p in pitches) else 0.0
    groups: list[list[TextLine]] = [[lines[0]]]
    for pitch, line in zip(pitches, lines[1:], strict=True):
        if pitch > RECORD_PITCH * tightest:
            groups.append([line])
        else:
            groups[-1].append(line)
    if len(groups) == 1:
        # Even spacing says nothing about records: each line stands alone.
        return [[line] for line in lines]
    return groups
