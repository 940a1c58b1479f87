"""The numbers and bullets OpenDocument text shows before the items of its lists.

A list (``text:list``) holds items (``text:list-item``), whose first paragraph carries
the item's label; a list nested in an item is the next level of the same list, and a
``text:list-header`` is an item without a label. How each level's label is written is
the list style's (``text:list-style``, named by the list, else by the list it is nested
in; an item may name its own with ``text:style-override``): a bullet
(``text:list-level-style-bullet``, its ``text:bullet-char``), or a number
(``text:list-level-style-number``) in ``style:num-format`` (``1``, ``a``, ``A``, ``i``,
``I``, none) between ``style:num-prefix`` and ``style:num-suffix``, with the numbers of
the ``text:display-levels`` levels above it joined by dots before it (LibreOffice also
keeps the whole pattern, ``%1%.%2%.``, as ``loext:num-list-format``). Counting starts at
the level's ``text:start-value``, or an item's own; a list carries on the numbering of
the one it continues (``text:continue-list``, naming its ``xml:id``) or of the list
before it (``text:continue-numbering``), and starts afresh otherwise. A level starts
over when an item of a level above it is counted. Where the document holds the label an
item showed (``text:number``, which some writers keep), that is taken as it stands. The
items of a list that names no style, which each application shows in a way of its own
(LibreOffice with bullets), are read without a label.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from goblin_office.numbering import BULLET, ListLabel, letters, ordinal, roman, shown_bullet
from goblin_office.safexml import attr, local_name

#: levels past this are written as this one: ODF styles define ten
_LEVELS = 10
_STYLE_HOLDERS = frozenset({"styles", "automatic-styles"})


@dataclass(frozen=True)
class _Level:
    """One level of a list style."""

    bullet: str | None = None  # the bullet shown, None for a numbered level
    number_format: str = "1"
    prefix: str = ""
    suffix: str = ""
    display: int = 1
    start: int = 1
    letter_sync: bool = False
    #: LibreOffice's whole pattern (``%1%.%2%.``), '' when the file has none
    pattern: str = ""


def odf_number(number: int, number_format: str, *, letter_sync: bool = False) -> str:
    """``number`` written in an ODF number format (``style:num-format``); other formats
    (other scripts' numerals) in digits.

    >>> odf_number(4, "I"), odf_number(28, "a"), odf_number(28, "a", letter_sync=True)
    ('IV', 'ab', 'bb')
    """
    if number_format == "":
        return ""
    if number_format in ("i", "I"):
        text = roman(number)
        return text.upper() if number_format == "I" else text
    if number_format in ("a", "A"):
        text = letters(number, repeated=letter_sync)
        return text.upper() if number_format == "A" else text
    if number_format == "1st":
        return ordinal(number)
    if number_format.startswith("01"):  # LibreOffice's "01, 02, 03, ..."
        return f"{number:02d}"
    return str(number)


def _int(value: str, default: int) -> int:
    return int(value) if value.isdigit() else default


def _level(element: Any) -> _Level:
    name = local_name(element)
    if name == "list-level-style-bullet":
        char = attr(element, "bullet-char") or BULLET
        return _Level(bullet=shown_bullet(char, _font(element)) or BULLET)
    if name != "list-level-style-number":  # a picture bullet
        return _Level(bullet=BULLET)
    return _Level(
        number_format=attr(element, "num-format", "1"),
        prefix=attr(element, "num-prefix"),
        suffix=attr(element, "num-suffix"),
        display=_int(attr(element, "display-levels"), 1),
        start=_int(attr(element, "start-value"), 1),
        letter_sync=attr(element, "num-letter-sync") == "true",
        pattern=attr(element, "num-list-format"),
    )


def _font(element: Any) -> str | None:
    for props in element:
        if local_name(props) in ("text-properties", "properties"):
            family = attr(props, "font-family") or attr(props, "font-name")
            return family.split(",")[0].strip().strip("'\"") or None
    return None


class OdfLists:
    """A text document's list styles and the counters of its lists, read in order.

    ``roots``: the trees whose styles apply (content.xml, or the part of it before its
    body, then styles.xml).
    """

    def __init__(self, roots: Iterable[Any | None]) -> None:
        self._styles: dict[str, dict[int, _Level]] = {}
        for root in roots:
            for holder in root if root is not None else ():
                if local_name(holder) in _STYLE_HOLDERS:
                    self._read_styles(holder)
        # counters by list: each list continued shares the counters of the one it continues
        self._counters: dict[int, list[int | None]] = {}
        self._by_id: dict[str, int] = {}
        self._last: dict[str, int] = {}  # the last list of each style, for continue-numbering
        self._open: list[tuple[int, str]] = []  # (counters, style) of each list being read
        self._item: Any | None = None  # the item whose first paragraph is still to come

    def _read_styles(self, holder: Any) -> None:
        for element in holder:
            if local_name(element) == "list-style":
                levels = {}
                for level in element:
                    index = _int(attr(level, "level"), 0)
                    if 0 < index <= _LEVELS:
                        levels[index] = _level(level)
                self._styles.setdefault(attr(element, "name"), levels)

    def enter(self, element: Any) -> None:
        """A ``text:list`` begins: nested, the next level of its list; else a list that
        continues another or starts its own numbering."""
        self._item = None  # an item holding a nested list before any paragraph shows no label
        style = attr(element, "style-name")
        if self._open:
            key, outer = self._open[-1]
            self._open.append((key, style or outer))
        else:
            key = self._continued(element, style)
            self._last[style] = key
            self._open.append((key, style))
        identity = attr(element, "id")
        if identity:
            self._by_id[identity] = key

    def _continued(self, element: Any, style: str) -> int:
        continued = self._by_id.get(attr(element, "continue-list"))
        if continued is None and attr(element, "continue-numbering") == "true":
            continued = self._last.get(style)
        if continued is not None:
            return continued
        key = len(self._counters)
        self._counters[key] = [None] * (_LEVELS + 1)
        return key

    def leave(self) -> None:
        """The innermost ``text:list`` being read ends."""
        if self._open:
            self._open.pop()
        self._item = None

    def item(self, element: Any) -> None:
        """A ``text:list-item`` begins: its first paragraph takes its label."""
        self._item = element

    def label(self) -> ListLabel | None:
        """The label of the paragraph being read when it is an item's first, its level's
        counter advanced; None for any other paragraph."""
        item, self._item = self._item, None
        if item is None or not self._open:
            return None
        depth = len(self._open)
        key, style = self._open[-1]
        counters = self._counters[key]
        level = min(depth, _LEVELS)
        levels = self._styles.get(attr(item, "style-override") or style)
        if levels is None:
            return ListLabel("", 0, None)
        this = levels.get(level, _Level())
        start = attr(item, "start-value")
        current = counters[level]
        if start.isdigit():
            counters[level] = int(start)
        else:
            counters[level] = this.start if current is None else current + 1
        for deeper in range(level + 1, _LEVELS + 1):
            counters[deeper] = None
        written = _written(item)
        if written is not None:
            number = counters[level] if this.bullet is None else None
            return ListLabel(written, depth, number)
        if this.bullet is not None:
            return ListLabel(this.bullet, depth, None)
        text = _numbered(this, levels, counters, level)
        return ListLabel(text, depth, counters[level] if this.number_format else None)


def _written(item: Any) -> str | None:
    """The label an item keeps as it was shown (``text:number``), None when it keeps none."""
    for child in item:
        if local_name(child) == "number":
            return "".join(child.itertext()).strip()
    return None


def _numbered(this: _Level, levels: dict[int, _Level], counters: list[int | None],
              level: int) -> str:
    def shown(index: int) -> str:
        lvl = levels.get(index, _Level())
        value = counters[index]
        if value is None:  # a level above that has not counted yet shows its start
            value = lvl.start
        return odf_number(value, lvl.number_format, letter_sync=lvl.letter_sync)

    if this.pattern:
        text = this.pattern
        for index in range(level, 0, -1):  # %10% before %1%
            text = text.replace(f"%{index}%", shown(index))
        return text
    first = max(1, level - this.display + 1)
    numbers = ".".join(shown(index) for index in range(first, level + 1))
    return f"{this.prefix}{numbers}{this.suffix}"
