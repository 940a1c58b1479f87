"""A sheet whose values are too scattered for a grid, read as a list of its cells.

A sheet's table is its grid, each row padded to the widest, and
``office.max_sheet_cells`` bounds that grid. A few values far apart (A1 and
XFD1; a value on each row of a diagonal; a stray cell at the sheet's far
corner) make a grid of millions of empty cells, which cost memory and spelled
out a page of tabs; cut at the limit, the values past it were lost though the
sheet held only a handful. Such a sheet, once its grid passes the limit, is
gathered cell by cell: each value with its place. When its values stay within
the limit it is read whole as a table of two columns, each row a cell's
reference and its text (``XFD1	FarRight``); a sheet with more values than
the limit is cut where its grid reached it, as a dense sheet is.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from goblin_office.sheetspan import column_letters

# a position packs its row and column in one integer: a sheet has at most 2**20 rows
# and 2**14 columns, an ODF table may count further, well within these bits
_COLUMN_BITS = 32


def cell_reference(row: int, column: int) -> str:
    """The A1 reference of a 0-based cell.

    >>> cell_reference(0, 0), cell_reference(399, 0), cell_reference(0, 16383)
    ('A1', 'A400', 'XFD1')
    """
    return f"{column_letters(column)}{row + 1}"


class ScatteredCells:
    """The values of a sheet, each with its place, in reading order; empty cells are
    not kept, so the memory follows the values, not the grid around them."""

    def __init__(self) -> None:
        self._positions = array("q")
        self._texts: list[str] = []

    def __len__(self) -> int:
        return len(self._texts)

    def add_row(
        self, row: int, cells: Sequence[str], first_column: int = 0, times: int = 1
    ) -> None:
        """Add the values of sheet row ``row`` (0-based), whose ``cells`` start at column
        ``first_column``; ``times`` adds it again on each following row (an ODF row repeated)."""
        values = [(column, text) for column, text in enumerate(cells, first_column) if text]
        for copy in range(row, row + times):
            for column, text in values:
                self._positions.append(copy << _COLUMN_BITS | column)
                self._texts.append(text)

    def rows(self) -> list[tuple[str, str]]:
        """The table of the cells: a row per value, its reference and its text."""
        mask = (1 << _COLUMN_BITS) - 1
        return [(cell_reference(position >> _COLUMN_BITS, position & mask), text)
                for position, text in zip(self._positions, self._texts, strict=True)]
