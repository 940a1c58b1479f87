"""Joining a table that runs over a page break into one table.

The last table of a page and the first table of the next page are one
table when they have the same columns, span the same width, the first runs
into the lower part of its page and the second starts in the upper part of
its page, and the second either repeats the first one's title and header
rows (dropped) or starts straight with data. Rows found with no column
titles at all (a table without grid lines carried over with no header)
continue a table only when each of their columns lies under one of its
columns. A description wrapped over the page break (a first row with no key
and no figures) is folded into the last item.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from goblin_core.structured.brazilian_numbers import is_figure
from goblin_core.table_repair import header_rows, is_header_row, joined_continuation
from goblin_pdf.tables.found import STARTS_HIGH, FoundTable

#: Table edges may differ by this share of the page width and still line up.
ALIGN_TOLERANCE = 0.02
#: A table that continues must reach below this share of its page's height (and its
#: continuation start above ``STARTS_HIGH`` of the next page's).
ENDS_LOW = 0.6


#: A repeated column header is looked for in this many leading rows of the table.
HEADER_SEARCH_ROWS = 10
#: What a column holds is read from this many of the table's first data rows.
KIND_SAMPLE_ROWS = 50
#: A column with at least this share of figures holds figures.
FIGURE_SHARE = 0.6
FIGURES, WORDS, MIXED = "figures", "words", "mixed"


def _same_row(a: Sequence[str], b: Sequence[str]) -> bool:
    return [" ".join(c.lower().split()) for c in a] == [" ".join(c.lower().split()) for c in b]


def repeated_rows(before: FoundTable, after: FoundTable) -> int:
    """How many leading rows of ``after`` repeat ``before``'s title and header rows.

    A continued table repeats either all its leading rows (a title row, then
    the column header) or only the column header.
    """
    count = 0
    while (count < min(len(before.rows), len(after.rows))
           and _same_row(before.rows[count], after.rows[count])):
        count += 1
    if count:
        return count
    first = after.rows[0]
    if is_header_row(first) and any(_same_row(first, row)
                                    for row in before.rows[:HEADER_SEARCH_ROWS]):
        return 1
    return 0


def continues(before: FoundTable, after: FoundTable) -> bool:
    """True when ``after`` (first on its page) carries on ``before`` (last on the previous)."""
    if after.page != before.ends_on + 1 or after.n_columns != before.n_columns:
        return False
    end = before.end_bbox
    if end[3] < ENDS_LOW * before.page_size[1] or after.bbox[1] > STARTS_HIGH * after.page_size[1]:
        return False
    if after.continuation:
        # Rows without titles: their columns must be the table's, one under each of its.
        return _under_columns(before, after)
    width = max(before.page_size[0], after.page_size[0])
    if abs(end[0] - after.bbox[0]) > ALIGN_TOLERANCE * width:
        return False
    if abs(end[2] - after.bbox[2]) > ALIGN_TOLERANCE * width:
        return False
    return repeated_rows(before, after) > 0 or not is_header_row(after.rows[0])


def _under_columns(before: FoundTable, after: FoundTable) -> bool:
    """True when each column of ``after`` lies under the same column of ``before``.

    Edges alone do not tell: the table's column titles may reach wider than the
    figures under them, and the rows carried over have none.
    """
    spans = (before.column_spans, after.column_spans)
    if any(len(s) != after.n_columns for s in spans):
        return False
    if not all(a[0] < b[1] and b[0] < a[1] for a, b in zip(*spans, strict=True)):
        return False
    # a page's running head spread over the width is no row: words under figures
    data = before.rows[header_rows(before.rows):][:KIND_SAMPLE_ROWS]
    kinds = zip((_kind(c) for c in _columns(data, after.n_columns)),
                (_kind(c) for c in _columns(after.rows, after.n_columns)), strict=True)
    return all(MIXED in pair or pair[0] == pair[1] for pair in kinds)


def _columns(rows: Sequence[Sequence[str]], width: int) -> list[list[str]]:
    return [[row[i] for row in rows if i < len(row) and row[i].strip()] for i in range(width)]


def _kind(cells: Sequence[str]) -> str:
    """FIGURES for a column of mostly figures, WORDS for one without any, else MIXED
    (an empty column too)."""
    figures = sum(1 for cell in cells if is_figure(cell))
    if cells and figures >= FIGURE_SHARE * len(cells):
        return FIGURES
    return WORDS if cells and not figures else MIXED


def join(before: FoundTable, after: FoundTable) -> FoundTable:
    """One table: ``before``'s rows, then ``after``'s without a repeated header.

    Each part was repaired on its own page; only the seam is left to mend, a
    description wrapped over the page break. Repairing the whole table again at
    every page made a table running over hundreds of pages take minutes.
    """
    rows: list[tuple[str, ...]] = [*before.rows, *after.rows[repeated_rows(before, after):]]
    seam = len(before.rows)
    if 0 < seam < len(rows):
        joined = joined_continuation(rows[seam - 1], rows[seam])
        if joined is not None:
            rows[seam - 1:seam + 1] = [joined]
    return FoundTable(page=before.page, rows=tuple(rows), bbox=before.bbox,
                      page_size=before.page_size, last_page=after.page, last_bbox=after.bbox,
                      column_lefts=before.column_lefts, column_spans=before.column_spans)


def on_common_columns(before: FoundTable, after: FoundTable) -> tuple[FoundTable, FoundTable]:
    """``before`` and ``after`` with their cells under the columns of both, when both are
    ruled grids whose column edges are known: a part whose rows left a column empty
    lost it in repair, and its cells would stand one column off. Unchanged otherwise.
    """
    lefts = (before.column_lefts, after.column_lefts)
    if not all(lefts) or any(len(edges) != t.n_columns for edges, t in zip(lefts, (before, after),
                                                                           strict=True)):
        return before, after
    tolerance = ALIGN_TOLERANCE * max(before.page_size[0], after.page_size[0])
    common: list[float] = []
    for left in sorted((*lefts[0], *lefts[1])):
        if not common or left - common[-1] > tolerance:
            common.append(left)
    places = [[_column_of(left, common) for left in edges] for edges in lefts]
    if any(len(set(p)) != len(p) for p in places):
        return before, after  # two columns of one part under one column of the other
    return (_widened(before, places[0], common), _widened(after, places[1], common))


def _column_of(left: float, common: Sequence[float]) -> int:
    return min(range(len(common)), key=lambda i: abs(common[i] - left))


def _widened(table: FoundTable, places: Sequence[int], common: Sequence[float]) -> FoundTable:
    if list(places) == list(range(len(common))):
        return table
    rows = []
    for row in table.rows:
        cells = [""] * len(common)
        for place, cell in zip(places, row, strict=False):
            cells[place] = cell
        rows.append(tuple(cells))
    return replace(table, rows=tuple(rows), column_lefts=tuple(common))


def stitch(pages: Mapping[int, Sequence[FoundTable]]) -> dict[int, list[FoundTable]]:
    """Tables per page with cross-page continuations joined into the table they continue.

    A joined table belongs to the page where it starts. Untitled fragments
    (``FoundTable.continuation``) that do not continue a table are dropped.
    """
    out: dict[int, list[FoundTable]] = {}
    open_table: FoundTable | None = None
    for number in sorted(pages):
        tables = list(pages[number])
        out[number] = []
        open_table = _carried_on(open_table, tables) if open_table is not None else None
        if open_table is not None:
            out[open_table.page][-1] = open_table
        # untitled rows that carry on no table are no table of their own
        tables = [t for t in tables if not t.continuation]
        out[number].extend(tables)
        if tables:
            open_table = tables[-1]
    return out


def _carried_on(table: FoundTable, tables: list[FoundTable]) -> FoundTable | None:
    """``table`` joined with its part that opens ``tables`` (taken out of them), or None.

    Untitled fragments above that part are passed over: a running head spread over
    the page in line with the table's columns is no part of it.
    """
    for index, candidate in enumerate(tables):
        before, after = on_common_columns(table, candidate)
        if continues(before, after):
            del tables[:index + 1]
            return join(before, after)
        if not candidate.continuation:
            return None
    return None
