"""Runs into lines, lines into column-ordered paragraphs.

The page is cut into horizontal bands at full-width lines (those crossing a
gutter). Within a band every column is read top to bottom, left column first;
full-width lines keep their place between bands. Paragraphs break where the
line spacing opens up or the type size changes.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from goblin_core.model import Block
from goblin_pdf.layout.hyphens import goes_on, join_lines
from goblin_pdf.layout.lines import Run

_CAPTION = re.compile(r"^(fig(ure)?|table|tab|chart|plate)\.?\s*\d", re.IGNORECASE)
_PARAGRAPH_GAP = 1.45  # line pitch, in median pitches, that starts a new paragraph
_BAND_GAP = 5.0  # empty height across the page, in line heights, that ends a band
_HEADING_SIZE = 1.15  # glyph height, in body heights, that marks a heading
_LIKE_SIZE = 0.15  # height difference, in the taller line's heights, of one type size
# paragraphs of notes at the foot of a column a word broken above them is followed over
_NOTES_STEPPED_OVER = 3


class Line(NamedTuple):
    """One line of one column: its runs' words and box (a named tuple, like Run)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    height: float
    column: int  # -1: full width
    direction: int = 0  # as a run's: above 0, the line reads right to left
    first: int = -1  # the stream index (PDFium's) of its earliest glyph


def order_lines(runs: Sequence[Run], gutters: Sequence[tuple[float, float]]) -> list[Line]:
    """Lines in reading order: bands top down, columns left to right within a band, or
    right to left in a band whose lines mostly read right to left. A band ends at a line
    across a gutter, and where no line stands for ``_BAND_GAP`` line heights across the
    whole page (a figure or a table drawn as an image between two bands of columns)."""
    lines = _merge(runs, gutters)
    if not gutters:
        return lines
    gap = _BAND_GAP * float(np.median([line.height for line in lines]))
    ordered: list[Line] = []
    band: list[Line] = []
    lowest = math.inf
    for line in lines:
        if line.column < 0:
            ordered.extend(_by_column(band))
            band = []
            ordered.append(line)
        else:
            if band and lowest - line.y1 > gap:
                ordered.extend(_by_column(band))
                band = []
            band.append(line)
        lowest = min(lowest, line.y0)
    ordered.extend(_by_column(band))
    return ordered


def _by_column(band: list[Line]) -> list[Line]:
    """The lines of one band column by column (a stable sort keeps each top-down)."""
    right_to_left = sum(line.direction for line in band) > 0
    return sorted(band, key=lambda ln: -ln.column if right_to_left else ln.column)


def _column(run: Run, gutters: Sequence[tuple[float, float]]) -> int:
    for i, (g0, g1) in enumerate(gutters):
        middle = (g0 + g1) / 2
        if run.x0 < middle < run.x1:  # column text seldom reaches into a gutter's middle
            return -1
        if run.x1 <= g1 and (run.x0 + run.x1) / 2 < g0 + (g1 - g0) / 2:
            return i
    return len(gutters)


def _side_by_side(a: Run, b: Run) -> bool:
    """Whether two runs overlap up and down by half the lower one's height: one line."""
    return min(a.y1, b.y1) - max(a.y0, b.y0) >= 0.5 * min(a.height, b.height)


def _on_the_line(run: Run, spanning: Run, gutters: Sequence[tuple[float, float]]) -> bool:
    """Whether ``run``, in a column, is on the line of ``spanning``, a run across a gutter:
    beside it with no gutter between them (a label before a heading, the page number at
    the end of a running head). A column's line with a gutter between it and the other
    is in its column, whatever reaches into the gutter from the other side."""
    if not _side_by_side(run, spanning):
        return False
    left, right = (run, spanning) if run.x0 < spanning.x0 else (spanning, run)
    return not any(g0 < right.x0 and g1 > left.x1 for g0, g1 in gutters)


#: Characters of a run short enough to be a page number set between two columns
_PAGE_NUMBER = 5


def _alone_by_a_gutter(runs: Sequence[Run], k: int,
                       gutters: Sequence[tuple[float, float]]) -> bool:
    """Whether run ``k``, a short one, reaches into a gutter with no other run at its
    height: a page number or a mark centred on the page, which a column would read in
    its middle."""
    run = runs[k]
    if not any(run.x1 > g0 and run.x0 < g1 for g0, g1 in gutters):
        return False
    return not any(j != k and _side_by_side(run, other) for j, other in enumerate(runs))


def _reaching_into_gutter(runs: Sequence[Run], k: int,
                          gutters: Sequence[tuple[float, float]], starts: _Starts,
                          placed: _Placed) -> int:
    """The column of run ``k``, which crosses a gutter's middle, when it only reaches into
    the gutter from one side: a gutter is found where few lines reach, and the longest
    lines of a ragged column end past its middle. A line reaching in from its own
    column's aligned edge (the start of a left-to-right line, the end of a right-to-left
    one) is that column's; a line reaching in from its ragged end is when the column on
    the other side has text beside it, and otherwise spans the gutter (a footnote across
    the page). A line across the whole gutter is its column's when it overflows it (see
    ``_overflowing``). -1: it spans the gutter."""
    run = runs[k]
    for i, (g0, g1) in enumerate(gutters):
        if not run.x0 < (g0 + g1) / 2 < run.x1:
            continue
        if run.x0 >= g0 and starts.shared(k, g1):
            return i + 1
        if run.x0 < g0 and run.x1 <= g1:
            if run.direction > 0:
                return i
            column, beside = i, [r for r in runs if r.x0 >= g1]
        elif run.x0 >= g0 and run.x1 > g1 and (
                i + 1 == len(gutters) or run.x1 <= sum(gutters[i + 1]) / 2):
            if run.direction < 0:
                return i + 1
            column, beside = i + 1, [r for r in runs if r.x1 <= g0]
        elif _overflowing(run, i, gutters, placed):
            return i
        else:
            return -1
        return column if any(_side_by_side(run, other) for other in beside) else -1
    return -1


#: How far the line spacing above and below a line may differ, as a share of the larger
_EVEN_PITCH = 0.15
#: The largest line spacing, in the line's heights, of a line inside a column's text
_PITCH = 2.0


def _overflowing(run: Run, i: int, gutters: Sequence[tuple[float, float]],
                 placed: _Placed) -> bool:
    """Whether ``run``, from column ``i`` across the whole gutter after it, is a line of
    that column too long for it (a URL or a long name TeX could not break, set over the
    gutter and into the next column): it starts at the column's left edge, where at least
    ``_SHARED_EDGE`` of its lines do, its end stays short of the next gutter, and the
    column's lines go on above and below it at one line spacing, with no other line across
    the gutter at their height and the next column's text beside one of them. A line
    across the page between two bands of columns (a title, a full-width figure's caption)
    has no column line at one spacing on both sides; one column of prose that a gutter
    was found in by chance has lines across it all over, and its short lines have nothing
    beside them."""
    if run.direction > 0 or (i + 1 < len(gutters) and run.x1 > sum(gutters[i + 1]) / 2):
        return False
    if placed.starting_at(i, run.x0) < _SHARED_EDGE:
        return False
    above, below = placed.around(i, run)
    if above is None or below is None:
        return False
    rise, fall = above.yc - run.yc, run.yc - below.yc
    wider = max(rise, fall)
    if wider > _PITCH * run.height or abs(rise - fall) > _EVEN_PITCH * wider:
        return False
    if any(placed.beside(-1, line, run) for line in (above, below)):
        return False
    return any(placed.beside(i + 1, line) for line in (above, below))


class _Placed:
    """The runs of each column (-1: across a gutter) as first placed, by height, to ask
    which lines stand around a run across a gutter in a few steps each: a hostile page
    may hold thousands of such runs."""

    def __init__(self, runs: Sequence[Run], columns: Sequence[int]) -> None:
        members: dict[int, list[Run]] = {}
        for run, column in zip(runs, columns, strict=True):
            members.setdefault(column, []).append(run)
        self.members = {c: sorted(rs, key=lambda r: r.yc) for c, rs in members.items()}
        self.centres = {c: [r.yc for r in rs] for c, rs in self.members.items()}
        self.edges = {c: sorted(r.x0 for r in rs) for c, rs in members.items()}
        self.tallest = {c: max(r.height for r in rs) for c, rs in members.items()}

    def starting_at(self, column: int, x: float) -> int:
        """How many of ``column``'s runs start within a point of ``x``."""
        edges = self.edges.get(column, [])
        return bisect.bisect_right(edges, x + 1.0) - bisect.bisect_left(edges, x - 1.0)

    def around(self, column: int, run: Run) -> tuple[Run | None, Run | None]:
        """``column``'s nearest runs above and below ``run``, off its line (more than half
        its height away)."""
        members, centres = self.members.get(column, []), self.centres.get(column, [])
        high = bisect.bisect_right(centres, run.yc + run.height / 2)
        low = bisect.bisect_left(centres, run.yc - run.height / 2)
        return (members[high] if high < len(members) else None,
                members[low - 1] if low > 0 else None)

    def beside(self, column: int, line: Run, other: Run | None = None) -> bool:
        """Whether a run of ``column`` other than ``other`` is on the line of ``line``."""
        members, centres = self.members.get(column, []), self.centres.get(column, [])
        if not members:
            return False
        reach = (line.height + self.tallest[column]) / 2
        low = bisect.bisect_left(centres, line.yc - reach)
        high = bisect.bisect_right(centres, line.yc + reach)
        return any(r is not other and _side_by_side(r, line) for r in members[low:high])


#: Other runs of a column starting where a run does for that to be the column's left edge
_SHARED_EDGE = 2


class _Starts:
    """The left edges of the page's runs reaching past a gutter, to ask how many start
    where another run does."""

    def __init__(self, runs: Sequence[Run]) -> None:
        self.runs = runs
        self.past: dict[float, list[float]] = {}  # by the edge reached: sorted left edges

    def shared(self, k: int, reach: float) -> bool:
        """Whether ``_SHARED_EDGE`` other runs reaching past ``reach`` start where run
        ``k``, which starts inside a gutter, does (within a point): the left edge of the
        column after the gutter, which the search put inside it because that column's
        lines begin with short runs (the symbols of a list of symbols)."""
        edges = self.past.get(reach)
        if edges is None:
            edges = self.past[reach] = sorted(r.x0 for r in self.runs if r.x1 > reach)
        run = self.runs[k]
        found = (bisect.bisect_right(edges, run.x0 + 1.0)
                 - bisect.bisect_left(edges, run.x0 - 1.0) - (run.x1 > reach))
        return found >= _SHARED_EDGE


def _on_a_spanning_line(runs: Sequence[Run], column: list[int],
                        gutters: Sequence[tuple[float, float]]) -> list[int]:
    """The runs in a column that are on the line of a run across a gutter (see
    ``_on_the_line``); each is compared with the spanning runs at its height only."""
    spanning = sorted((r for r, col in zip(runs, column, strict=True) if col < 0),
                      key=lambda r: r.yc)
    if not spanning:
        return []
    centres = [r.yc for r in spanning]
    reach = max(r.y1 - r.y0 for r in spanning)
    found = []
    for k, run in enumerate(runs):
        if column[k] < 0:
            continue
        half = (run.y1 - run.y0 + reach) / 2
        low = bisect.bisect_left(centres, run.yc - half)
        high = bisect.bisect_right(centres, run.yc + half)
        if any(_on_the_line(run, other, gutters) for other in spanning[low:high]):
            found.append(k)
    return found


def _merge(runs: Sequence[Run], gutters: Sequence[tuple[float, float]]) -> list[Line]:
    """Runs on one baseline and in one column become a line, top to bottom."""
    if not runs:
        return []
    column = [_column(r, gutters) for r in runs]
    crossing = [k for k, col in enumerate(column) if col < 0]  # few: titles, footnotes
    if crossing:
        starts = _Starts(runs)
        placed = _Placed(runs, column)
        for k in crossing:
            column[k] = _reaching_into_gutter(runs, k, gutters, starts, placed)
    for k in [k for k, r in enumerate(runs) if r.chars <= _PAGE_NUMBER and column[k] >= 0]:
        if _alone_by_a_gutter(runs, k, gutters):
            column[k] = -1
    for k in _on_a_spanning_line(runs, column, gutters):
        column[k] = -1
    order = sorted(range(len(runs)), key=[(-r.yc, r.x0) for r in runs].__getitem__)
    lines: list[Line] = []
    open_lines: dict[int, list[int]] = {}
    for i in order:
        col = column[i]
        current = open_lines.get(col)
        if current is not None:
            if _side_by_side(runs[current[0]], runs[i]):
                current.append(i)
                continue
            lines.append(_line(runs, current, col))
        open_lines[col] = [i]
    lines.extend(_line(runs, members, col) for col, members in open_lines.items())
    lines.sort(key=lambda ln: -(ln.y0 + ln.y1) / 2)
    return lines


def _line(runs: Sequence[Run], members: list[int], column: int) -> Line:
    parts = [runs[i] for i in members]
    direction = sum(r.direction for r in parts)
    if len(parts) > 1:
        parts.sort(key=lambda r: (r.x0, r.first))
    first = parts[0]
    x0, y0, x1, y1, height = first.x0, first.y0, first.x1, first.y1, first.height
    for r in parts[1:]:
        # one pass instead of five min()/max() scans: lines are built for every page
        x0, y0, x1, y1 = min(x0, r.x0), min(y0, r.y0), max(x1, r.x1), max(y1, r.y1)
        height = max(height, r.height)
    if parts[0].word_boxes:  # a page with right-to-left letters
        words = _reading_order(parts, direction > 0)
    else:
        words = [w for r in parts for w in r.words]
    return Line(" ".join(words), x0, y0, x1, y1, height, column, direction,
                min(r.first for r in parts))


def _reading_order(parts: list[Run], right_to_left: bool) -> list[str]:
    """The words of a line holding right-to-left words, in reading order: laid out as the
    page shows them, then read from the line's right end if it mostly reads right to
    left, each stretch of words running the other way turned back. Where a word's
    letters came from (PDFium gives a right-to-left word inside a left-to-right line in
    the order it shows, Skia draws each word apart) does not matter.

    A stretch is words running against the line and the neutral words (figures, signs)
    between them; in a right-to-left line, figures beside a left-to-right word read with
    it (``Python 3.12``), as the Unicode bidirectional algorithm has them."""
    shown = sorted(((word, lean, left + right) for r in parts
                    for word, (left, right, lean) in zip(r.words, r.word_boxes, strict=True)),
                   key=lambda item: item[2])
    if right_to_left:
        shown.reverse()
    words = [word for word, _, _ in shown]
    against = [(lean < 0) if right_to_left else (lean > 0) for _, lean, _ in shown]
    joins = [turned or (lean == 0 and (not right_to_left or word[:1].isdigit()))
             for (word, lean, _), turned in zip(shown, against, strict=True)]
    start = 0
    while start < len(words):
        if not joins[start]:
            start += 1
            continue
        end = start
        while end < len(words) and joins[end]:
            end += 1
        first, last = start, end
        if not right_to_left:  # neutral words at the ends stay with the line
            while first < last and not against[first]:
                first += 1
            while last > first and not against[last - 1]:
                last -= 1
        if any(against[first:last]):
            words[first:last] = words[first:last][::-1]
        start = end
    return words


def paragraphs(lines: Sequence[Line]) -> list[Block]:
    """Blocks of consecutive lines: paragraphs, headings (larger type) and captions."""
    if not lines:
        return []
    pitch = np.array([a.y0 - b.y0 for a, b in itertools.pairwise(lines)])
    positive = pitch[(pitch > 0)]
    usual = float(np.median(positive)) if positive.size else 0.0
    body = float(np.median([ln.height for ln in lines]))
    page = "\n".join(ln.text for ln in lines)
    groups: list[list[Line]] = [[lines[0]]]
    for prev, line in itertools.pairwise(lines):
        step = prev.y0 - line.y0
        like = _like(line, prev)
        broken = (line.column != prev.column or step <= 0 or not usual
                  or step > _PARAGRAPH_GAP * usual or not like)
        # a word broken at the foot of a column goes on at the head of the next one, or
        # below a figure: its paragraph goes on with it
        if broken and not (like and goes_on(prev.text, line.text, page)):
            groups.append([line])
        else:
            groups[-1].append(line)
    groups = _notes_stepped_over(groups, page)
    sizes = sorted({round(g[0].height, 1) for g in groups
                    if g[0].height > _HEADING_SIZE * body}, reverse=True)
    return [_block(g, body, sizes, page) for g in groups]


def _notes_stepped_over(groups: list[list[Line]], page: str) -> list[list[Line]]:
    """``groups`` with a paragraph broken at the foot of a column, under which its
    footnotes stand in smaller type, joined to the lines that go on with its broken word
    at the head of the next column, the footnotes read after it (``pro-`` / ``1 A
    note.`` / ``tecting users``)."""
    k = 0
    while k < len(groups):
        last = groups[k][-1]
        notes = k + 1
        while notes < len(groups) and notes - k <= _NOTES_STEPPED_OVER and all(
                _note_under(line, last) for line in groups[notes]):
            notes += 1
        if k + 1 < notes < len(groups):
            head = groups[notes][0]
            if (head.column != last.column and _like(head, last)
                    and goes_on(last.text, head.text, page)):
                groups[k:notes + 1] = [groups[k] + groups[notes], *groups[k + 1:notes]]
        k += 1
    return groups


def _note_under(line: Line, body: Line) -> bool:
    """Whether ``line`` stands below ``body`` in its column, in smaller type: a note."""
    return (line.column == body.column and line.y1 <= body.y0
            and line.height < (1 - _LIKE_SIZE) * body.height)


def _like(a: Line, b: Line) -> bool:
    """Whether two lines are set in one type size."""
    return abs(a.height - b.height) <= _LIKE_SIZE * max(a.height, b.height)


def _block(group: list[Line], body: float, heading_sizes: list[float], page: str) -> Block:
    text = join_lines([ln.text for ln in group], page)
    bbox = (min(ln.x0 for ln in group), min(ln.y0 for ln in group),
            max(ln.x1 for ln in group), max(ln.y1 for ln in group))
    size = round(group[0].height, 1)
    if size in heading_sizes and len(group) <= 3:
        return Block("heading", text, level=min(heading_sizes.index(size) + 1, 6), bbox=bbox)
    if _CAPTION.match(text):
        return Block("caption", text, bbox=bbox)
    return Block("paragraph", text, bbox=bbox)
