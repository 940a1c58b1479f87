"""Whether a page region holds a drawing (a chart, a plot) rather than a table.

Charts draw horizontal grid lines of one width, one above the other, and
tick labels that line up in rows and columns: from rules and alignment
alone they look like tables. What gives them away is what else is drawn in
the region: curves, vertical strokes (axes, ticks, bars' sides) and filled
boxes narrower than the region (bars). A table without a ruled grid draws
none of those; row stripes span its whole width and are allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from goblin_pdf.tables.rules import MAX_RULE_THICKNESS, is_white
from goblin_pdf.tables.text_lines import BBox

#: Strokes shorter than this (points) are specks, not part of a drawing.
MIN_STROKE = 3.0
#: A filled box narrower than this share of the region is a bar of a chart.
BAR_SHARE = 0.5
#: Objects are looked for this far (points) inside the region's edges.
INSET = 1.0


def _inside(obj: Mapping[str, Any], box: BBox) -> bool:
    return (obj["x0"] >= box[0] + INSET and obj["x1"] <= box[2] - INSET
            and obj["top"] >= box[1] + INSET and obj["bottom"] <= box[3] - INSET)


def _visible(obj: Mapping[str, Any]) -> bool:
    if obj.get("fill") and not obj.get("stroke"):
        return not is_white(obj.get("non_stroking_color"))
    return not is_white(obj.get("stroking_color"))


def _vertical(obj: Mapping[str, Any]) -> bool:
    return obj["bottom"] - obj["top"] >= MIN_STROKE and obj["x1"] - obj["x0"] <= MAX_RULE_THICKNESS


def _bar(obj: Mapping[str, Any], box: BBox) -> bool:
    tall = obj["bottom"] - obj["top"] > MAX_RULE_THICKNESS
    return tall and obj["x1"] - obj["x0"] < BAR_SHARE * (box[2] - box[0])


def _drawn(objects: Iterable[Mapping[str, Any]], box: BBox) -> Iterable[Mapping[str, Any]]:
    return (o for o in objects if _inside(o, box) and _visible(o))


def holds_drawing(page: Any, box: BBox) -> bool:
    """True when ``box`` (x0, top, x1, bottom) on a pdfplumber page holds chart strokes."""
    if any(True for _ in _drawn(page.curves, box)):
        return True
    if any(_vertical(o) for o in _drawn(page.lines, box)):
        return True
    return any(_vertical(o) or _bar(o, box) for o in _drawn(page.rects, box))
