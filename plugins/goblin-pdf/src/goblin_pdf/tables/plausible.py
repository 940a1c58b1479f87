"""Guards that keep text which merely lines up from being taken for a table.

A table found from white space alone must look like data: some column of
figures, no column of running prose, no column of ``Label:`` captions (a
key/value block such as an invoice letterhead), and cells that fill most of
the grid. These checks read the cells line by line (before wrapped lines
are merged) and the cleaned rows.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from goblin_core.structured.brazilian_numbers import is_figure
from goblin_core.table_repair import is_meaningful_table, is_years_header

#: A column whose line-cells hold this many words (median) is running prose.
PROSE_WORDS = 8
#: A column is prose only when it has at least this many filled line-cells.
MIN_PROSE_SAMPLE = 3
#: A column at a side of the table whose line-cells hold this many words (median)...
FLOWING_WORDS = 5
#: ...and at least this share of which open with a lower-case letter is running prose.
FLOWING_SHARE = 0.5
#: A column of figures has at least this share of figures among its filled data cells...
FIGURE_SHARE = 0.6
#: ...and at least this many figures.
MIN_FIGURES = 2
#: A column with at least this share of ``Label:`` cells is a key/value caption column.
LABEL_SHARE = 0.5

#: Above this share of line-cells with dot leaders the block is a contents list or an index.
LEADER_SHARE = 0.2
#: Two columns each wider than this share of the table are two columns of a page layout.
WIDE_COLUMN_SHARE = 0.3

_LABEL = re.compile(r"[^\W\d_]\s*:(\s|$)")
_LEADER = re.compile(r"(?:\.\s?){4,}|(?:·\s?){4,}|(?:_\s?){4,}")

#: Untitled rows fewer than a table may still be the last rows of one, carried over a
#: page break: at most this many.
MAX_CARRIED_TAIL = 2

Cells = Sequence[Sequence[str]]


def _column(rows: Cells, index: int) -> list[str]:
    return [r[index].strip() for r in rows if index < len(r) and r[index].strip()]


def _width(rows: Cells) -> int:
    return max((len(r) for r in rows), default=0)


def prose_column(line_cells: Cells) -> bool:
    """True when some column reads as running text: many words on each of its lines."""
    return any(_is_prose(_column(line_cells, i)) for i in range(_width(line_cells)))


def _is_prose(filled: Sequence[str]) -> bool:
    return len(filled) >= MIN_PROSE_SAMPLE and statistics.median(
        len(c.split()) for c in filled) >= PROSE_WORDS


def _flows(filled: Sequence[str]) -> bool:
    """True for a column of short lines of running text: a narrow page column, whose
    lines mostly go on with the sentence of the line above."""
    if len(filled) < MIN_PROSE_SAMPLE or statistics.median(
            len(c.split()) for c in filled) < FLOWING_WORDS:
        return False
    return sum(1 for c in filled if c[0].islower()) >= FLOWING_SHARE * len(filled)


def prose_side(line_cells: Cells) -> int | None:
    """Index of the one prose column when it is the first or the last column, else None.

    A column at the side is prose with fewer words a line than one inside the table
    when its lines go on each other's sentences: the narrow column of a two-column
    page beside a table, on baselines of its own.
    """
    width = _width(line_cells)
    prose = [i for i in range(width) if _is_prose(_column(line_cells, i))
             or (i in (0, width - 1) and _flows(_column(line_cells, i)))]
    if len(prose) == 1 and width > 1 and prose[0] in (0, width - 1):
        return prose[0]
    return None


def label_column(rows: Cells) -> bool:
    """True when some column is mostly ``Label:`` captions (a form or key/value block)."""
    for index in range(_width(rows)):
        filled = _column(rows, index)
        labels = sum(1 for c in filled if _LABEL.search(c))
        if len(filled) >= 2 and labels >= LABEL_SHARE * len(filled):
            return True
    return False


def figure_column(rows: Cells, header_rows: int) -> bool:
    """True when some column of the data rows holds mostly figures (amounts, dates, counts)."""
    data = rows[header_rows:]
    for index in range(_width(data)):
        filled = _column(data, index)
        figures = sum(1 for c in filled if is_figure(c))
        if figures >= MIN_FIGURES and figures >= FIGURE_SHARE * len(filled):
            return True
    return False


def carried_rows(rows: Cells) -> bool:
    """True when untitled ``rows`` may be a table's rows carried over a page break: a
    table but for its titles, or its last row or two, each filling two cells or more
    and one holding a figure. The join with the table they carry on checks them
    against its columns."""
    if not rows:
        return False
    if is_meaningful_table(rows):
        return figure_column(rows, 0)
    return (len(rows) <= MAX_CARRIED_TAIL
            and all(sum(1 for c in row if c.strip()) >= 2 for row in rows)
            and any(is_figure(c) for row in rows for c in row))


def titled(rows: Cells) -> bool:
    """True when the first row reads as column titles: two or more cells of words.

    A title may hold a digit (``F1``, ``Area (km2)``) but never more digits
    than letters: ``2022``, ``09:00`` or ``2019 – 2021`` open data rows (a
    key/value block, an agenda, a résumé), not a header. Years in order after
    the titles in words are titles too (``is_years_header``: a statement of
    figures by year).
    """
    if not rows:
        return False
    filled = [c.strip() for c in rows[0] if c.strip()]
    if len(filled) < 2:
        return False
    return all(_worded(c) for c in filled) or is_years_header(rows[0])


def _worded(cell: str) -> bool:
    letters = sum(1 for ch in cell if ch.isalpha())
    digits = sum(1 for ch in cell if ch.isdigit())
    return letters > 0 and digits <= letters


def leaders(line_cells: Cells) -> bool:
    """True when dot leaders run through the lines (a table of contents, an index)."""
    filled = [c for row in line_cells for c in row if c.strip()]
    hits = sum(1 for c in filled if _LEADER.search(c))
    return bool(filled) and hits >= LEADER_SHARE * len(filled)


def wide_columns(columns: Sequence[tuple[float, float]]) -> bool:
    """True when two columns each take a large share of the width: layout columns of prose."""
    if not columns:
        return False
    width = columns[-1][1] - columns[0][0]
    wide = sum(1 for a, b in columns if b - a > WIDE_COLUMN_SHARE * width)
    return wide >= 2


def fill_ratio(rows: Cells) -> float:
    """Share of the grid's cells that hold text."""
    total = len(rows) * _width(rows)
    filled = sum(1 for r in rows for c in r if c.strip())
    return filled / total if total else 0.0
