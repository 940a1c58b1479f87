"""A table found on a PDF page, with the geometry needed to join it across pages."""

from __future__ import annotations

from dataclasses import dataclass

from goblin_core.model import Table
from goblin_core.table_repair import Rows, header_rows

#: A table's part carried over a page break starts above this share of its page's height.
STARTS_HIGH = 0.5


@dataclass(frozen=True)
class FoundTable:
    """Clean rows of one table and where it sits.

    ``bbox`` is (x0, top, x1, bottom) in points on page ``page``, in the frame the table
    reads in (a page shown sideways is turned back, see ``turned``);
    ``last_page`` and ``last_bbox`` say where it ends once fragments from
    following pages are joined to it. ``page_size`` is (width, height).
    ``column_lefts``, for a ruled grid, is the left edge of each of its columns
    (empty when not known): a fragment on the next page whose rows leave a column
    empty, so that the column was dropped, is joined with its cells under theirs.
    ``column_spans``, for a table found without a grid, is the x-range of each of its
    columns (empty when not known).

    ``continuation`` marks rows that read as a table in every way but open with no row
    of column titles: alone they are too weak to be called a table (a list, a chart's
    labels), but at the top of a page, under the columns of the table the page before
    ends with, they are its rows carried over the page break without a header repeated.
    ``stitch`` joins such a fragment to its table, or drops it.
    """

    page: int
    rows: Rows
    bbox: tuple[float, float, float, float]
    page_size: tuple[float, float]
    last_page: int = 0
    last_bbox: tuple[float, float, float, float] | None = None
    column_lefts: tuple[float, ...] = ()
    column_spans: tuple[tuple[float, float], ...] = ()
    continuation: bool = False

    @property
    def kept(self) -> bool:
        """False for untitled rows starting too low on their page to carry on a table
        from the page before (``STARTS_HIGH``): no table at all."""
        return not self.continuation or self.bbox[1] <= STARTS_HIGH * self.page_size[1]

    @property
    def ends_on(self) -> int:
        return self.last_page or self.page

    @property
    def end_bbox(self) -> tuple[float, float, float, float]:
        return self.last_bbox or self.bbox

    @property
    def n_columns(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    def to_table(self, index: int, engine: str) -> Table:
        """The core Table of this fragment, ``index`` being its position on its page."""
        return Table(rows=self.rows, page=self.page, index=index,
                     header_rows=header_rows(self.rows), engine=engine)
