"""A table running over hundreds of pages is joined in time linear in its rows."""

from __future__ import annotations

import time

from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.stitch import stitch

HEADER = ("N", "QUADRADO", "TEXTO")
A4 = (595.0, 842.0)
PAGES = 400
ROWS_A_PAGE = 50


def test_a_table_over_four_hundred_pages_is_joined_whole_and_quickly() -> None:
    pages: dict[int, list[FoundTable]] = {}
    expected: list[tuple[str, ...]] = [HEADER]
    for page in range(1, PAGES + 1):
        rows = [HEADER]
        for n in range((page - 1) * ROWS_A_PAGE + 1, page * ROWS_A_PAGE + 1):
            rows.append((str(n), str(n * n), f"linha {n}"))
        expected.extend(rows[1:])
        pages[page] = [FoundTable(page=page, rows=tuple(rows), bbox=(50.0, 50.0, 545.0, 800.0),
                                  page_size=A4)]

    started = time.monotonic()
    joined = stitch(pages)
    elapsed = time.monotonic() - started

    assert [len(joined[p]) for p in (1, 2, PAGES)] == [1, 0, 0]
    assert joined[1][0].rows == tuple(expected)
    assert joined[1][0].ends_on == PAGES
    # A safety ceiling: repairing the whole table again at every page break took minutes.
    assert elapsed < 20, f"stitching took {elapsed:.1f} s"
