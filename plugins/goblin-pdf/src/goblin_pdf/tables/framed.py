"""Tables framed by horizontal rules only: columns from the words between the rules.

The rules of a stack bound the table at the top and bottom and cut it into
bands. The columns are the x-ranges the words between the rules cover. A
band holding one record (one line with a key in the first column, the rest
wrapped text) is one row; a band holding many records (booktabs: one rule
under the header, one at the end) gives a row per record. When the first
band is already data, the header sits just above the top rule (a bank
statement's column titles over a rule); those lines are taken when they
line up with the columns. Rules over rows with no column titles at all are
kept only as a possible continuation of the table the page before ends with.
"""

from __future__ import annotations

from collections.abc import Sequence

from goblin_core.table_repair import (
    Rows,
    is_header_row,
    is_meaningful_table,
    normalize_table_rows,
)
from goblin_pdf.tables.columns import (
    GUTTER_EM,
    bridges,
    line_cells,
    line_spans,
    spans_of,
)
from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.plausible import carried_rows, label_column, prose_column, titled
from goblin_pdf.tables.records import group_rows, has_figure
from goblin_pdf.tables.rules import END_TOLERANCE, Rule
from goblin_pdf.tables.text_lines import (
    TextLine,
    Word,
    centre_inside,
    median_height,
    text_lines,
)
from goblin_pdf.tables.titles import titles_over

#: Header lines above the top rule: at most this many...
MAX_HEADER_LINES = 4
#: ...each at most this many glyph heights below the one above it.
HEADER_LINE_GAP = 1.2


def _header_above(stack: Sequence[Rule], words: Sequence[Word], body: Sequence[TextLine],
                  gutter: float) -> list[TextLine]:
    """Column-title lines just above the top rule, when the first band is data."""
    first_band = [ln for ln in body if ln.bottom <= stack[1].y]
    if not first_band or not has_figure(first_band):
        return []
    x0, x1, top = stack[0].x0 - END_TOLERANCE, stack[0].x1 + END_TOLERANCE, stack[0].y
    height = median_height(body)
    window = (x0, top - 6 * height * MAX_HEADER_LINES, x1, top)
    above = [w for w in words if centre_inside(w, window)]
    columns = line_spans(body, gutter)
    taken: list[TextLine] = []
    edge = top
    for line in reversed(text_lines(above)):
        if edge - line.bottom > HEADER_LINE_GAP * height or len(taken) == MAX_HEADER_LINES:
            break
        if bridges(columns, line, gutter):
            break
        taken.insert(0, line)
        edge = line.top
    if taken and (has_figure(taken) or not is_header_row(line_cells(taken[0], columns))):
        return []
    return taken


def _bands(lines: Sequence[TextLine], cuts: Sequence[float]) -> list[list[TextLine]]:
    bands: list[list[TextLine]] = [[] for _ in range(len(cuts) - 1)]
    for line in lines:
        centre = (line.top + line.bottom) / 2
        for index in range(len(cuts) - 1):
            if cuts[index] <= centre <= cuts[index + 1]:
                bands[index].append(line)
                break
    return [b for b in bands if b]


def framed_table(stack: Sequence[Rule], words: Sequence[Word], number: int,
                 page_size: tuple[float, float]) -> FoundTable | None:
    """The table between the rules of ``stack``, or None when what lies there is no table."""
    x0 = min(r.x0 for r in stack) - END_TOLERANCE
    x1 = max(r.x1 for r in stack) + END_TOLERANCE
    top, bottom = stack[0].y, stack[-1].y
    body = text_lines(w for w in words if centre_inside(w, (x0, top, x1, bottom)))
    if not body:
        return None
    gutter = GUTTER_EM * median_height(body)
    header = _header_above(stack, words, body, gutter)
    lines = [*header, *body]
    cuts = [header[0].top] if header else []
    cuts += [r.y for r in stack]
    # titles running across the gutters of the rows, or over a group of columns, are
    # placed on the rows' columns
    titles = titles_over(lines, gutter)
    title_rows = [titles.row] if titles is not None else []
    rest = lines[titles.count:] if titles is not None else lines
    columns = titles.columns if titles is not None else line_spans(lines, gutter)
    if len(columns) < 2:
        return None
    raw = list(title_rows)
    for index, band in enumerate(_bands(rest, cuts)):
        raw += group_rows(band, columns, first=index == 0 and not title_rows)
    rows = normalize_table_rows(raw)
    if not _plausible(rows, [*title_rows, *(line_cells(ln, columns) for ln in rest)]):
        return None
    # Without a title row, rules over label/figure lines are a list or a chart's grid,
    # unless they carry on the table the page before ends with.
    return FoundTable(page=number, rows=rows, bbox=(x0, cuts[0], x1, bottom),
                      page_size=page_size, column_spans=spans_of(columns, rows),
                      continuation=not titled(rows))


def _plausible(rows: Rows, cells: Sequence[Sequence[str]]) -> bool:
    if label_column(rows) or prose_column(cells):
        return False
    return is_meaningful_table(rows) if titled(rows) else carried_rows(rows)
