"""Tables without a ruled grid: framed by horizontal rules only, or by white space alone.

Runs after pdfplumber's grid detection, on the words outside every table it
kept, so a ruled table is never read twice; a grid it dropped (row stripes
drawn as boxes, a one-column frame) is searched again. Tables framed by
rules come first: the rules bound them, which is stronger evidence than
alignment; alignment is tried on the words left over. Either is dropped
when the region holds a drawing (``drawings``): charts have rules and
aligned tick labels too.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from goblin_pdf.tables.aligned import aligned_tables
from goblin_pdf.tables.drawings import holds_drawing
from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.framed import framed_table
from goblin_pdf.tables.rules import Rule, horizontal_rules, rule_stacks
from goblin_pdf.tables.text_lines import BBox, Word, centre_inside, page_words, text_lines

log = logging.getLogger(__name__)

#: Pages with more horizontal rules than this are drawings; rule stacks are not searched.
MAX_RULES = 1000


def _overlaps(a: BBox, b: BBox) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _outside(words: Sequence[Word], boxes: Sequence[BBox]) -> list[Word]:
    return [w for w in words if not any(centre_inside(w, box) for box in boxes)]


def _stacks(page: Any, number: int) -> list[list[Rule]]:
    rules = horizontal_rules(page)
    if len(rules) > MAX_RULES:
        # A drawing (a plan, a ruled form sheet), not a table; stacking is quadratic.
        log.info("page %d: %d horizontal rules; tables framed by rules not searched",
                 number, len(rules))
        return []
    return rule_stacks(rules)


def borderless_tables(page: Any, number: int, grids: Sequence[BBox]) -> list[FoundTable]:
    """Tables of a pdfplumber page outside the ruled ``grids`` found there, top to bottom."""
    words = page_words(page, grids)
    if not words:
        return []
    size = (float(page.width), float(page.height))
    found: list[FoundTable] = []
    for stack in _stacks(page, number):
        frame = (stack[0].x0, stack[0].y, stack[-1].x1, stack[-1].y)
        if any(_overlaps(frame, grid) for grid in grids):
            continue
        if any(_overlaps(frame, t.bbox) for t in found if not t.continuation):
            continue
        table = framed_table(stack, words, number, size)
        if table is not None and table.kept and not holds_drawing(page, table.bbox):
            found.append(table)
    # Rules over untitled rows may only continue a table from the page before: their
    # words stay open to alignment, which also sees a row above the first rule, and
    # whose reading of them wins.
    rest = _outside(words, [t.bbox for t in found if not t.continuation])
    aligned = [t for t in aligned_tables(text_lines(rest), number, size)
               if not holds_drawing(page, t.bbox)]
    kept = _unshadowed([*aligned, *found])
    return sorted(kept, key=lambda t: (round(t.bbox[1]), t.bbox[0]))


def _unshadowed(tables: Sequence[FoundTable]) -> list[FoundTable]:
    """The titled ``tables``, and the untitled fragments among them that overlap none of
    those nor a fragment before them: their rows are read already."""
    kept = [t for t in tables if not t.continuation]
    for fragment in (t for t in tables if t.continuation):
        if not any(_overlaps(fragment.bbox, t.bbox) for t in kept):
            kept.append(fragment)
    return kept
