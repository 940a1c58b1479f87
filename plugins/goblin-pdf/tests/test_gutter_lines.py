"""Lines and gutters: which column a line reaching into a gutter belongs to."""

from __future__ import annotations

import time

from goblin_pdf.layout.lines import Run
from goblin_pdf.layout.reading_order import order_lines


def _run(words: str, x0: float, x1: float, y: float, first: int) -> Run:
    return Run(tuple(words.split()), x0, y, x1, y + 10, 10, len(words), first)


def test_the_longest_line_of_a_ragged_column_stays_in_its_column() -> None:
    """A gutter is found where few lines reach: the longest lines of a ragged column end
    inside it, past its middle, and are still lines of that column while the next column
    has text beside them; a line reaching there with nothing beside it spans the page."""
    runs = []
    for row in range(6):
        y = 700 - 12 * row
        end = 236 if row == 2 else 200 + 5 * (row % 2)
        runs.append(_run(f"left {row}", 50, end, y, 100 + row))
        runs.append(_run(f"right {row}", 250, 450, y, 200 + row))
    runs.append(_run("footnote spanning the page", 50, 238, 100, 1))
    lines = order_lines(runs, [(210.0, 250.0)])
    assert [line.text for line in lines] == [
        *(f"left {row}" for row in range(6)), *(f"right {row}" for row in range(6)),
        "footnote spanning the page"]
    assert lines[2].column == 0 and lines[-1].column == -1


def test_a_page_number_between_two_columns_closes_the_page() -> None:
    """Centred under two columns, a page number reaches into the gutter with nothing
    beside it: it is read after both columns, not between them."""
    runs = []
    for row in range(6):
        y = 700 - 12 * row
        runs.append(_run(f"left {row} of the column", 50, 200, y, 100 + row))
        runs.append(_run(f"right {row} of the column", 250, 450, y, 200 + row))
    runs.append(_run("17", 216, 226, 60, 1))
    lines = order_lines(runs, [(210.0, 250.0)])
    assert lines[-1].text == "17" and lines[-1].column == -1
    assert [line.text for line in lines[:6]] == [f"left {row} of the column" for row in range(6)]


def test_a_label_beside_a_line_across_the_gutter_is_on_that_line() -> None:
    """``B.`` before a heading across both columns, a page number at the end of a running
    head: on the line they stand on. A column's line with the gutter between it and a
    line reaching into the gutter from the other side stays in its column."""
    runs = [_run("Running head of the journal", 120, 490, 760, 1), _run("47", 530, 545, 760, 2),
            _run("B.", 50, 62, 700, 3), _run("A heading across both columns", 70, 380, 700, 4)]
    for row in range(6):
        y = 680 - 12 * row
        runs.append(_run(f"left {row} of the column", 50, 200, y, 100 + row))
        runs.append(_run(f"right {row} of the column", 250, 450, y, 200 + row))
    runs.append(_run("left 6 beside a caption", 50, 200, 608, 106))
    runs.append(_run("Figure 1. A caption reaching into the gutter", 215, 450, 608, 206))
    lines = [line.text for line in order_lines(runs, [(210.0, 250.0)])]
    assert lines[:2] == ["Running head of the journal 47", "B. A heading across both columns"]
    assert "left 6 beside a caption" in lines and lines.index("left 6 beside a caption") < \
        lines.index("right 0 of the column")


def test_a_wide_empty_strip_across_the_page_ends_a_band_of_columns() -> None:
    """Columns above a figure drawn as an image, and columns below it: each band is read
    column by column before the next, though no line crosses the gutter between them."""
    runs = []
    for band, top in enumerate((700, 400)):
        for row in range(3):
            y = top - 12 * row
            runs.append(_run(f"left {band}.{row} of the column", 50, 200, y, 100 * band + row))
            runs.append(_run(f"right {band}.{row} of the column", 250, 450, y,
                             100 * band + 50 + row))
    lines = [line.text for line in order_lines(runs, [(210.0, 250.0)])]
    assert lines == [f"{side} {band}.{row} of the column" for band in (0, 1)
                     for side in ("left", "right") for row in range(3)]


def test_short_runs_starting_a_column_inside_the_gutter_are_that_columns() -> None:
    """A list of symbols in two halves: the right half's lines begin with short symbols,
    which leave the strip where they stand thinly covered, so the gutter found reaches
    into them. Runs starting where several of that column's lines start are its own."""
    runs = []
    for row in range(6):
        y = 700 - 12 * row
        runs.append(_run(f"A{row} definition of the left symbol", 90, 230, y, 100 + row))
        # the symbols start a hair left of the gutter's middle (319.5)
        runs.append(_run(f"S{row}" if row % 2 else f"Sym{row}(X)", 319, 332 if row % 2 else 360,
                         y, 200 + 2 * row))
        runs.append(_run(f"definition of the right symbol {row}", 378, 480, y, 201 + 2 * row))
    lines = order_lines(runs, [(293.0, 346.0)])
    assert [line.column for line in lines] == [0] * 6 + [1] * 6
    assert lines[6].text == "Sym0(X) definition of the right symbol 0"


def test_thousands_of_runs_in_a_gutter_are_ordered_in_a_fraction_of_a_second() -> None:
    """A safety ceiling: each run in a column is compared with the runs across a gutter at
    its height only, and each run in the gutter with the runs starting where it does."""
    runs = []
    for row in range(2000):
        y = 20000 - 10 * row
        runs.append(_run("left", 50, 250, y, 2 * row))
        runs.append(_run("right", 300, 500, y, 2 * row + 1))
    runs += [_run("x", 260, 290, 20003 - 20 * row, 4000 + row) for row in range(1000)]
    started = time.perf_counter()
    lines = order_lines(runs, [(255.0, 295.0)])
    assert time.perf_counter() - started < 1.0
    assert len(lines) == 5000


def _two_columns(rows: range, top: float = 700) -> list[Run]:
    runs = []
    for row in rows:
        y = top - 12 * row
        runs.append(_run(f"left {row} of the column", 50, 200, y, 100 + row))
        runs.append(_run(f"right {row} of the column", 250, 400, y, 200 + row))
    return runs


def test_a_line_overflowing_its_column_over_the_gutter_stays_in_its_column() -> None:
    """A URL TeX could not break runs from the left column's edge over the gutter into the
    right column, at the left column's line spacing: it is read in its place in the left
    column, and the right column's line it overprints stays in the right column."""
    runs = [r for r in _two_columns(range(8)) if r.words[:2] != ("left", "3")]
    runs.append(_run("https://example.org/a/very/long/address/that/would/not/break",
                     50, 330, 700 - 12 * 3, 103))
    lines = [line.text for line in order_lines(runs, [(210.0, 250.0)])]
    assert lines == [*(f"left {row} of the column" for row in range(3)),
                     "https://example.org/a/very/long/address/that/would/not/break",
                     *(f"left {row} of the column" for row in range(4, 8)),
                     *(f"right {row} of the column" for row in range(8))]


def test_a_line_across_the_gutter_between_two_bands_of_columns_still_spans_them() -> None:
    """A caption across both columns, set apart by more than a line's spacing, starting at
    the left column's edge: the columns above it are read, then it, then those below."""
    runs = [*_two_columns(range(4)), *_two_columns(range(4), top=616),
            _run("Figure 2. A caption across both columns", 50, 330, 640, 1)]
    lines = order_lines(runs, [(210.0, 250.0)])
    assert [line.column for line in lines].count(-1) == 1
    assert lines[8].text == "Figure 2. A caption across both columns"


def test_lines_across_a_gutter_found_in_one_column_of_prose_are_not_a_column_s() -> None:
    """One column of justified prose whose gutter is a chance river: the long lines that
    cross it have others crossing beside them, so none is taken for a column's line
    overflowing, and the page reads line by line."""
    runs = []
    for row in range(8):
        y = 700 - 12 * row
        if row % 2:
            runs.append(_run(f"short line {row}", 50, 200, y, 100 + row))
        else:
            runs.append(_run(f"long line {row} across the river", 50, 400, y, 100 + row))
    lines = order_lines(runs, [(210.0, 250.0)])
    assert [line.text.split()[2] for line in lines] == [str(row) for row in range(8)]
    assert all(line.column == -1 for line in lines if "long" in line.text)


def test_thousands_of_lines_overflowing_their_column_are_placed_in_a_fraction_of_a_second(
        ) -> None:
    """A safety ceiling: each line across the gutter asks for the lines around it by
    height, not by a pass over the page."""
    runs = []
    for row in range(3000):
        y = 40000 - 12 * row
        if row % 3 == 1:
            runs.append(_run(f"https://example.org/{row}", 50, 330, y, 3 * row))
        else:
            runs.append(_run(f"left {row}", 50, 200, y, 3 * row))
        runs.append(_run(f"right {row}", 250, 400, y, 3 * row + 1))
    started = time.perf_counter()
    lines = order_lines(runs, [(210.0, 250.0)])
    assert time.perf_counter() - started < 1.0
    assert [line.column for line in lines[:3]] == [0, 0, 0]
    assert lines[1].text == "https://example.org/1"
