"""Horizontal rules of a PDF page and the stacks of equal-width rules that frame tables.

Many tables draw only horizontal rules: one under the header and one at the
end (the booktabs style of papers and bank statements), or one between
every row. pdfplumber's grid detection needs vertical lines too and finds
nothing there. A rule is a horizontal line, or a filled rectangle no taller
than ``MAX_RULE_THICKNESS``; white strokes are invisible and do not count.
Rules of (nearly) the same left and right ends, one below the other, form a
stack: the rows of one table lie between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: Filled rectangles up to this height (points) are drawn rules, taller ones are boxes.
MAX_RULE_THICKNESS = 2.5
#: Rules shorter than this (points) underline a word; they frame no table.
MIN_RULE_WIDTH = 60.0
#: Rule ends this close (points) are the same edge; segments this close join.
END_TOLERANCE = 4.0
#: Rules further apart than this (points) frame no table together.
MAX_RULE_GAP = 200.0
#: Rules closer than this (points) vertically are one rule drawn double.
SAME_RULE = 2.0
#: Colour components at or above this (grey, RGB) are white.
WHITE = 0.95


@dataclass(frozen=True)
class Rule:
    """A horizontal rule from ``x0`` to ``x1`` at height ``y`` (points from the top)."""

    x0: float
    x1: float
    y: float


def is_white(colour: Any) -> bool:
    """True for a grey, RGB or CMYK colour that leaves the page white."""
    if not isinstance(colour, tuple | list) or not colour:
        return False
    if not all(isinstance(c, int | float) for c in colour):
        return False
    if len(colour) == 4:  # CMYK: no ink is white
        return all(c <= 1 - WHITE for c in colour)
    return all(c >= WHITE for c in colour)


def _raw_rules(page: Any) -> Iterable[Rule]:
    for line in page.lines:
        if abs(line["bottom"] - line["top"]) <= SAME_RULE and not is_white(
                line.get("stroking_color")):
            yield Rule(float(line["x0"]), float(line["x1"]), (line["top"] + line["bottom"]) / 2)
    for rect in page.rects:
        thin = rect["bottom"] - rect["top"] <= MAX_RULE_THICKNESS
        colour = rect.get("non_stroking_color") if rect.get("fill") else rect.get(
            "stroking_color")
        if thin and not is_white(colour):
            yield Rule(float(rect["x0"]), float(rect["x1"]), (rect["top"] + rect["bottom"]) / 2)


def _joined(rules: Iterable[Rule]) -> list[Rule]:
    """Collinear segments that touch become one rule; double strokes become one."""
    out: list[Rule] = []
    for rule in sorted(rules, key=lambda r: (round(r.y), r.x0)):
        last = out[-1] if out else None
        if last and abs(last.y - rule.y) <= SAME_RULE and rule.x0 <= last.x1 + END_TOLERANCE:
            out[-1] = Rule(min(last.x0, rule.x0), max(last.x1, rule.x1), last.y)
        else:
            out.append(rule)
    return out


def horizontal_rules(page: Any) -> list[Rule]:
    """The visible horizontal rules of a pdfplumber page, wide enough to frame a table."""
    return [r for r in _joined(_raw_rules(page)) if r.x1 - r.x0 >= MIN_RULE_WIDTH]


def _same_width(a: Rule, b: Rule) -> bool:
    return abs(a.x0 - b.x0) <= END_TOLERANCE and abs(a.x1 - b.x1) <= END_TOLERANCE


def rule_stacks(rules: Sequence[Rule]) -> list[list[Rule]]:
    """Rules of the same width one below the other, two or more to a stack, top to bottom."""
    stacks: list[list[Rule]] = []
    for rule in sorted(rules, key=lambda r: r.y):
        for stack in stacks:
            last = stack[-1]
            if _same_width(last, rule) and 0 < rule.y - last.y <= MAX_RULE_GAP:
                if rule.y - last.y > SAME_RULE:
                    stack.append(rule)
                break
        else:
            stacks.append([rule])
    return [s for s in stacks if len(s) >= 2]
