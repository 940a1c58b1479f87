"""A pdfplumber page whose text runs down or up it, turned a quarter so it reads across.

pdfplumber lays a page out as it is shown (``/Rotate`` applied). A landscape table set
on a page turned by ``/Rotate``, or drawn turned in the content stream, shows its text
running down the page: pdfplumber then groups the letters of one row into words stacked
a letter high, and its grids come out with rows for columns. The turned page holds the
same objects with their coordinates turned back, so the table search sees the table the
way it reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pdfplumber.page import DerivedPage, Page

#: Share of the page's letters that must run one way, down or up, for it to be turned.
MOST = 0.5
#: A letter runs down (or up) when its baseline leans less than this from the vertical.
_LEAN = 0.1

Point = tuple[float, float]


def _direction(matrix: tuple[float, ...]) -> int:
    """+1 for a letter whose baseline runs down the page as shown, -1 up, 0 otherwise
    (pdfminer's device space has y going up)."""
    a, b = matrix[0], matrix[1]
    if abs(a) > _LEAN * abs(b):
        return 0
    return 1 if b < 0 else -1 if b > 0 else 0


def turn_of(page: Page) -> int:
    """+1 when most of ``page``'s letters run down it, -1 when most run up, else 0."""
    chars = page.chars
    if not chars:
        return 0
    counts = {1: 0, -1: 0, 0: 0}
    for char in chars:
        counts[_direction(char.get("matrix") or (1, 0))] += 1
    for turn in (1, -1):
        if counts[turn] > MOST * len(chars):
            return turn
    return 0


class TurnedPage(DerivedPage):
    """``parent_page`` turned a quarter: counterclockwise for ``turn`` +1 (text running
    down reads across), clockwise for -1. Its origin is its top-left corner."""

    def __init__(self, parent_page: Page, turn: int) -> None:
        super().__init__(parent_page)
        x0, top, x1, bottom = (float(v) for v in parent_page.bbox)
        width, height = x1 - x0, bottom - top
        self.turn = turn
        self.bbox = (0.0, 0.0, height, width)
        if turn > 0:
            self._point: Callable[[Point], Point] = lambda p: (p[1] - top, x1 - p[0])
        else:
            self._point = lambda p: (bottom - p[1], p[0] - x0)

    @property
    def objects(self) -> dict[str, list[dict[str, Any]]]:
        if hasattr(self, "_objects"):
            return self._objects
        self._objects: dict[str, list[dict[str, Any]]] = {
            kind: [self._turned(obj) for obj in objects]
            for kind, objects in self.parent_page.objects.items()
        }
        return self._objects

    def _turned(self, obj: dict[str, Any]) -> dict[str, Any]:
        turned = dict(obj)
        if all(key in obj for key in ("x0", "x1", "top", "bottom")):
            corners = [self._point((obj["x0"], obj["top"])),
                       self._point((obj["x1"], obj["bottom"]))]
            x0, x1 = sorted(x for x, _ in corners)
            top, bottom = sorted(y for _, y in corners)
            page_height = self.bbox[3]
            turned.update(x0=x0, x1=x1, top=top, bottom=bottom, y0=page_height - bottom,
                          y1=page_height - top, width=x1 - x0, height=bottom - top,
                          doctop=self.initial_doctop + top)
        if "pts" in obj:
            turned["pts"] = [self._point(tuple(p)) for p in obj["pts"]]
        if "path" in obj:
            turned["path"] = [(step[0], *(self._point(tuple(p)) for p in step[1:]))
                              for step in obj["path"]]
        if obj.get("matrix") is not None and obj.get("object_type") == "char":
            a, b, c, d, *_ = obj["matrix"]
            # y goes up in the matrix: a quarter turn counterclockwise takes (x, y) to
            # (-y, x), clockwise to (y, -x)
            a, b, c, d = (-b, a, -d, c) if self.turn > 0 else (b, -a, d, -c)
            # its origin (e, f) is left as it was: the box above places the letter
            turned["matrix"] = (a, b, c, d, *obj["matrix"][4:])
            turned["upright"] = a * d > 0 and b * c <= 0
        return turned

    def close(self) -> None:
        self.parent_page.close()
        super().close()


def upright_page(page: Page) -> Page:
    """``page`` itself, or turned so that most of its text reads across."""
    turn = turn_of(page)
    return TurnedPage(page, turn) if turn else page
