"""Tables drawn with no lines at all: columns that stay aligned over consecutive lines.

A line cut into at least ``MIN_SEED_COLUMNS`` pieces by wide gaps seeds a
block. The block grows to the lines below and above while they are close
(no paragraph gap), set in the same size, and never run across a gutter of
the block: a prose line or a title spanning the columns ends it. A column
of prose at either side of the block is the page's other text column, on
the same baselines as the table: its words are left out. Lines
closer together than the space between records are one record
(``records``), and wrapped descriptions are folded in by
``normalize_table_rows``. Strict guards (``plausible``) then decide: three
columns, three full rows, a first row of column titles, a column of
figures, no prose, no ``Label:`` column, no dot leaders, no two wide
columns side by side (a page's text columns), most cells filled. Prose,
two-column pages, bulleted lists and letterheads fail them. A block that
passes all but the column titles is kept as a possible continuation of the
table the page before ends with (``FoundTable.continuation``).

A spreadsheet printed without grid lines left-aligns its titles and text and
right-aligns its figures: a title may run across the gutter between the
figures of the column before and its own, and stop the block under it. The
columns are then read from the rows, each title placed over its own column
(``columns.cells_of_title``), and a column of figures hugging the text
column beside it is cut from it (``columns.realigned``).
"""

from __future__ import annotations

from collections.abc import Sequence

from goblin_core.table_repair import is_meaningful_table, normalize_table_rows
from goblin_pdf.tables.columns import (
    GUTTER_EM,
    Span,
    bridges,
    column_of,
    line_cells,
    line_spans,
    realigned,
    segments,
    spans_of,
    widened,
)
from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.plausible import (
    carried_rows,
    figure_column,
    fill_ratio,
    label_column,
    leaders,
    prose_column,
    prose_side,
    titled,
    wide_columns,
)
from goblin_pdf.tables.records import group_rows, spaced_records
from goblin_pdf.tables.text_lines import TextLine, median_height
from goblin_pdf.tables.titles import titles_over

#: A line in this many pieces at least starts a candidate table.
MIN_SEED_COLUMNS = 3
#: A table found from alignment has at least this many columns...
MIN_COLUMNS = 3
#: ...and this many lines with text in three columns or more.
MIN_FULL_ROWS = 3
#: Lines further apart than this many glyph heights are separate blocks.
MAX_ROW_GAP = 2.0
#: Lines whose glyphs differ in height by more than this share are not one table.
SIZE_TOLERANCE = 0.25
#: Below this share of filled cells (over the lines, and over the records when they
#: wrap over several lines) the grid is scattered text.
MIN_FILL = 0.45


def _near(line: TextLine, near: TextLine, height: float) -> bool:
    """True when ``line`` is close to ``near`` (no paragraph gap), set in the same size."""
    gap = max(line.top - near.bottom, near.top - line.bottom)
    return gap <= MAX_ROW_GAP * height and abs(line.height - height) <= SIZE_TOLERANCE * height


def _fits(line: TextLine, near: TextLine, columns: Sequence[Span], gutter: float,
          height: float) -> bool:
    return _near(line, near, height) and not bridges(columns, line, gutter)


def _grow(lines: Sequence[TextLine], seed: int, floor: int) -> tuple[int, int]:
    """First and last index of the block grown from ``lines[seed]``, not above ``floor``."""
    height = lines[seed].height
    gutter = GUTTER_EM * height
    columns = segments(lines[seed], gutter)
    first = last = seed
    while last + 1 < len(lines) and _fits(lines[last + 1], lines[last], columns, gutter, height):
        last += 1
        columns = widened(columns, lines[last], gutter)
    while first - 1 >= floor and _fits(lines[first - 1], lines[first], columns, gutter, height):
        first -= 1
        columns = widened(columns, lines[first], gutter)
    return first, last


def _trimmed(block: Sequence[TextLine], gutter: float) -> list[TextLine]:
    """The block without title lines above the first row and notes below the last."""
    lines = list(block)

    def cells(line: TextLine) -> list[str]:
        return line_cells(line, line_spans(lines, gutter))

    while lines and _filled(cells(lines[0])) < 2:
        lines.pop(0)
    while lines and _filled(cells(lines[-1])) < 2 and cells(lines[-1])[0]:
        lines.pop()
    return lines


def _filled(cells: Sequence[str]) -> int:
    return sum(1 for c in cells if c)


def _without_column(lines: Sequence[TextLine], columns: Sequence[Span],
                    index: int) -> list[TextLine]:
    kept = [tuple(w for w in line.words if column_of(w, columns) != index) for line in lines]
    return [TextLine(words) for words in kept if words]


def aligned_table(block: Sequence[TextLine], number: int,
                  page_size: tuple[float, float]) -> FoundTable | None:
    """The table a block of aligned lines holds, or None when the guards reject it."""
    gutter = GUTTER_EM * median_height(block)
    lines = _trimmed(block, gutter)
    if not lines:
        return None
    titles = titles_over(lines, gutter)
    body = lines[titles.count:] if titles is not None else lines
    columns = titles.columns if titles is not None else realigned(line_spans(lines, gutter),
                                                                  lines)
    if len(columns) < MIN_COLUMNS:
        return None
    title_cells = [titles.row] if titles is not None else []
    cells = [*title_cells, *(line_cells(line, columns) for line in body)]
    side = prose_side(cells)
    if side is not None:
        # The prose of the page's other text column shares the table's baselines.
        return aligned_table(_without_column(lines, columns, side), number, page_size)
    full_rows = sum(1 for c in cells if _filled(c) >= MIN_COLUMNS)
    if not full_rows:
        return None
    if wide_columns(columns) or leaders(cells) or prose_column(cells) or label_column(cells):
        return None
    records = spaced_records(body)
    raw = [*title_cells, *(row for index, record in enumerate(records)
                           for row in group_rows(record, columns,
                                                 first=index == 0 and not title_cells))]
    # Cells beside a wrapped description sit on one of its lines and leave the others
    # blank: the grid fills up once the lines of each record are read as one row.
    if max(fill_ratio(cells), fill_ratio(raw)) < MIN_FILL:
        return None
    rows = normalize_table_rows(raw)
    # Without column titles the block may still be a table's rows carried over a page
    # break, the last one or two included: kept as such, for the join with the page
    # before to confirm or drop.
    headed = titled(rows)
    if headed and (full_rows < MIN_FULL_ROWS or not is_meaningful_table(rows)
                   or not figure_column(rows, 1)):
        return None
    if not headed and not carried_rows(rows):
        return None
    bbox = (columns[0][0], lines[0].top, columns[-1][1], lines[-1].bottom)
    return FoundTable(page=number, rows=rows, bbox=bbox, page_size=page_size,
                      column_spans=spans_of(columns, rows), continuation=not headed)


def aligned_tables(lines: Sequence[TextLine], number: int,
                   page_size: tuple[float, float]) -> list[FoundTable]:
    """Every table of aligned text among ``lines`` (top to bottom), each line used once."""
    found: list[FoundTable] = []
    floor = index = 0
    while index < len(lines):
        line = lines[index]
        if len(segments(line, GUTTER_EM * line.height)) < MIN_SEED_COLUMNS:
            index += 1
            continue
        first, last = _grow(lines, index, floor)
        table = aligned_table(lines[first:last + 1], number, page_size)
        if ((table is None or table.continuation) and first > floor
                and _near(lines[first - 1], lines[first], lines[first].height)):
            # column titles left of their right-aligned figures run across the gutters
            # of the rows below, which stopped the block under them
            headed = aligned_table(lines[first - 1:last + 1], number, page_size)
            if headed is not None and not headed.continuation:
                table = headed
        # A rejected block is not searched again from its other lines: seeds inside it
        # grow into the same block (this keeps long prose pages linear).
        index = max(last, index) + 1
        if table is not None and table.kept:
            found.append(table)
            floor = index
    return found
