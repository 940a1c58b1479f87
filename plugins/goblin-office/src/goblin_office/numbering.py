"""The numbers and bullets Word shows before the paragraphs of its lists.

A numbered paragraph names a numbering instance and a level (``w:numPr``: ``w:numId``,
``w:ilvl``), directly or through its paragraph style and the styles that one is based
on; ``w:numId`` 0 takes a style's numbering away. In numbering.xml an instance
(``w:num``) points at an abstract definition (``w:abstractNum``, or through
``w:numStyleLink`` a numbering style to the definition whose ``w:styleLink`` names it),
whose levels (``w:lvl``) say where counting starts (``w:start``), how a number is written
(``w:numFmt``), the label's pattern (``w:lvlText``: ``%1.%2.`` shows the first two levels'
numbers), when a level starts over (``w:lvlRestart``), whether every number in it is
written in digits (``w:isLgl``) and what follows the label (``w:suff``). An instance may
override a level (``w:lvlOverride``), or only its start (``w:startOverride``).

Counters belong to the abstract definition, as Word keeps them: two instances of one
definition continue each other's numbering, and an instance that overrides a start
begins again from it at its first paragraph. A level's counter starts over when a level
above it advances. python-docx reads numbering.xml but does not number paragraphs, so
the counting is here; the ways of writing a number are shared with OpenDocument's lists.

Word 2003 XML says the same in other words: ``w:listDef`` for a definition, ``w:list``
(``w:ilfo``, ``w:ilst``) for an instance, ``w:nfc`` codes for number formats and
``w:listPr`` for a paragraph's numbering, beside which Word wrote the label it showed
(``wx:t``): that label is taken as it is, and the counting gives its number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from goblin_office.safexml import attr
from goblin_office.symbolfonts import symbol_run_text, symbol_table

#: the levels a Word list has
_LEVELS = 9
#: the bullet shown for a bullet whose character is a symbol-font code no table maps
BULLET = "\u2022"
_ROMAN = (
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
    (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
)
# Word's "chicago" footnote-style marks, doubled, tripled... past the fourth
_CHICAGO = ("*", "\u2020", "\u2021", "\u00a7")
#: Word 2003 XML's number format codes (``w:nfc``, as the binary format keeps them)
_NFC = {
    "0": "decimal", "1": "upperRoman", "2": "lowerRoman", "3": "upperLetter",
    "4": "lowerLetter", "5": "ordinal", "9": "chicago", "22": "decimalZero",
    "23": "bullet", "255": "none",
}


@dataclass(frozen=True)
class ListLabel:
    """What stands before a list item: ``text`` as shown (``1.``, ``1.1``, ``a)``,
    ``•``; '' for none), ``separator`` between it and the item's text (' ' or ''),
    ``level`` the item's depth (1 the outermost) and ``number`` its counter's value
    (None for a bullet or a level whose number is not shown)."""

    text: str
    level: int
    number: int | None
    separator: str = " "

    def before(self, text: str) -> str:
        """``text`` with the label before it.

        >>> ListLabel("1.", 1, 1).before("First")
        '1. First'
        """
        return f"{self.text}{self.separator}{text}" if self.text else text


def roman(number: int) -> str:
    """``number`` in lower-case Roman numerals (in digits past 3999, as Word writes it).

    >>> roman(1994), roman(4000)
    ('mcmxciv', '4000')
    """
    if not 0 < number < 4000:
        return str(number)
    out = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def letters(number: int, *, repeated: bool = True) -> str:
    """``number`` as lower-case letters: Word's a..z, aa, bb.. (``repeated``), or a
    spreadsheet's a..z, aa, ab.. (an OpenDocument level without letter sync).

    >>> letters(1), letters(27), letters(28), letters(28, repeated=False)
    ('a', 'aa', 'bb', 'ab')
    """
    if number < 1:
        return str(number)
    if repeated:
        return chr(ord("a") + (number - 1) % 26) * ((number - 1) // 26 + 1)
    out = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


def ordinal(number: int) -> str:
    """``number`` as an English ordinal in digits.

    >>> ordinal(1), ordinal(12), ordinal(23)
    ('1st', '12th', '23rd')
    """
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def word_number(number: int, number_format: str) -> str:
    """``number`` written in a Word number format (``w:numFmt``); formats goblin does not
    write (other scripts' numerals, numbers spelled out) are written in digits.

    >>> word_number(4, "upperRoman"), word_number(3, "lowerLetter"), word_number(7, "decimalZero")
    ('IV', 'c', '07')
    """
    if number_format == "upperRoman":
        return roman(number).upper()
    if number_format == "lowerRoman":
        return roman(number)
    if number_format == "upperLetter":
        return letters(number).upper()
    if number_format == "lowerLetter":
        return letters(number)
    if number_format == "decimalZero":
        return f"{number:02d}"
    if number_format == "ordinal":
        return ordinal(number)
    if number_format == "decimalEnclosedParen":
        return f"({number})"
    if number_format == "decimalEnclosedFullstop":
        return f"{number}."
    if number_format == "decimalEnclosedCircle" and 1 <= number <= 20:
        return chr(0x2460 + number - 1)
    if number_format == "chicago" and number > 0:
        return _CHICAGO[(number - 1) % 4] * ((number - 1) // 4 + 1)
    return str(number)


def shown_bullet(text: str, font: str | None) -> str:
    """A bullet's character as it is drawn: a symbol font's code (Symbol's U+F0B7) as the
    character that font draws (``•``); one no table maps, ``•``."""
    table = symbol_table(font)
    shown = symbol_run_text(table, text) if table else text
    if shown and all(0xE000 <= ord(char) <= 0xF8FF for char in shown):
        return BULLET
    return shown


@dataclass(frozen=True)
class _Level:
    """One ``w:lvl`` of a definition."""

    start: int = 1
    number_format: str = "decimal"
    text: str = ""
    #: w:lvlRestart: None to start over after any level above, 0 never, n after level n
    restart: int | None = None
    legal: bool = False
    separator: str = " "
    font: str | None = None
    #: the paragraph style this level is for (``w:pStyle``)
    style: str = ""


def _int(element: Any | None) -> int | None:
    """The whole number an element's ``w:val`` holds (negative too), None for none."""
    value = attr(element, "val") if element is not None else ""
    try:
        return int(value)
    except ValueError:
        return None


def _level(lvl: Any) -> _Level:
    suffix = (_child_val(lvl, "suff") or "tab").lower()
    fonts = lvl.find("{*}rPr/{*}rFonts")
    legal = lvl.find("{*}isLgl")
    code = _child_val(lvl, "nfc")  # Word 2003 XML
    number_format = _child_val(lvl, "numFmt") or _NFC.get(code or "0", "decimal")
    start = _int(lvl.find("{*}start"))
    return _Level(
        start=1 if start is None else start,
        number_format=number_format,
        text=_child_val(lvl, "lvlText") or "",
        restart=_int(lvl.find("{*}lvlRestart")),
        legal=legal is not None and attr(legal, "val").lower() not in ("0", "false", "off"),
        # a tab reads as a space in plain text: a tab there parts a table's cells
        separator="" if suffix == "nothing" else " ",
        font=(attr(fonts, "ascii") or attr(fonts, "hAnsi")) if fonts is not None else None,
        style=_child_val(lvl, "pStyle") or "",
    )


def _levels(element: Any) -> dict[int, _Level]:
    found: dict[int, _Level] = {}
    for lvl in element.iterchildren("{*}lvl"):
        index = _int_attr(lvl, "ilvl")
        if index is not None and 0 <= index < _LEVELS:
            found[index] = _level(lvl)
    return found


def _int_attr(element: Any, name: str) -> int | None:
    value = attr(element, name)
    return int(value) if value.isdigit() else None


@dataclass(frozen=True)
class _Instance:
    """A ``w:num``: its definition and the levels or starts it overrides."""

    definition: str
    levels: dict[int, _Level]
    starts: dict[int, int]


#: a paragraph style's numbering, its own or the nearest style's it is based on: the
#: instance (``w:numId``) and level (``w:ilvl``) its ``w:numPr`` names, None for none
StyleNumbering = Callable[[str], "tuple[str | None, int | None] | None"]


class WordNumbering:
    """numbering.xml's definitions (``root``, None for a document without numbering),
    read once for a document; ``style_numbering`` tells the numbering styles give."""

    def __init__(self, root: Any | None, style_numbering: StyleNumbering) -> None:
        self.style_numbering = style_numbering
        self._definitions: dict[str, dict[int, _Level]] = {}
        self._links: dict[str, str] = {}  # definition -> the numbering style it links to
        self._styled: dict[str, str] = {}  # numbering style -> the definition it names
        self._instances: dict[str, _Instance] = {}
        if root is None:
            return
        for definition in root.iterchildren("{*}abstractNum", "{*}listDef"):
            key = attr(definition, "abstractNumId") or attr(definition, "listDefId")
            self._definitions[key] = _levels(definition)
            link = definition.find("{*}numStyleLink")
            if link is not None:
                self._links[key] = attr(link, "val")
            named = definition.find("{*}styleLink")
            if named is not None:
                self._styled[attr(named, "val")] = key
        for instance in root.iterchildren("{*}num", "{*}list"):
            self._instances[attr(instance, "numId") or attr(instance, "ilfo")] = _instance(instance)

    def definition(self, num_id: str) -> tuple[str, _Instance] | None:
        """The definition an instance counts in (numbering styles followed), and the
        instance; None for an instance numbering.xml does not hold."""
        instance = self._instances.get(num_id)
        if instance is None:
            return None
        key = instance.definition
        seen = {key}
        while key in self._links:
            style = self._links[key]
            linked = self._styled.get(style)
            if linked is None:  # the style names an instance rather than a definition
                numbered = self.style_numbering(style)
                target = self._instances.get(numbered[0] or "") if numbered else None
                linked = target.definition if target is not None else None
            if linked is None or linked in seen:
                break
            seen.add(linked)
            key = linked
        return key, instance

    def levels(self, definition: str) -> dict[int, _Level]:
        """The levels a definition defines, by index."""
        return self._definitions.get(definition, {})


def _instance(num: Any) -> _Instance:
    definition = _child_val(num, "abstractNumId") or _child_val(num, "ilst") or ""
    levels: dict[int, _Level] = {}
    starts: dict[int, int] = {}
    for override in num.iterchildren("{*}lvlOverride"):
        index = _int_attr(override, "ilvl")
        if index is None or index >= _LEVELS:
            continue
        lvl = override.find("{*}lvl")
        if lvl is not None:
            levels[index] = _level(lvl)
        start = _int(override.find("{*}startOverride"))
        if start is not None:
            starts[index] = start
    return _Instance(definition, levels, starts)


class WordListCounter:
    """Numbers the paragraphs of one story (the body, a header, the notes) in order.

    >>> numbering = WordNumbering(None, lambda style: None)
    >>> WordListCounter(numbering).label("", "1", 0) is None
    True
    """

    def __init__(self, numbering: WordNumbering) -> None:
        self.numbering = numbering
        # each definition's counters, by level: None for a level that has not counted yet
        self._counters: dict[str, list[int | None]] = {}
        self._begun: set[str] = set()  # instances whose start overrides were applied

    def fresh(self) -> WordListCounter:
        """A counter for another story, over the same definitions."""
        return WordListCounter(self.numbering)

    def paragraph(self, props: Any | None, style: str) -> ListLabel | None:
        """The label of a paragraph with properties ``props`` (``w:pPr``) in paragraph
        style ``style``, its level's counter advanced; None when it is not numbered."""
        numbered = numbering_reference(props)
        num_id, level = numbered if numbered is not None else (None, None)
        if (num_id is None or level is None) and style:
            inherited = self.numbering.style_numbering(style)
            if inherited is not None:
                num_id = inherited[0] if num_id is None else num_id
                level = inherited[1] if level is None else level
        if not num_id or num_id == "0":
            return None
        label = self.label(style, num_id, level)
        written = props.find("{*}listPr/{*}t") if props is not None else None
        if label is None or written is None:
            return label
        return replace(label, text=_written_label(written))

    def label(self, style: str, num_id: str, level: int | None) -> ListLabel | None:
        """The label of a paragraph numbered ``num_id`` at ``level`` (None: the level
        meant for ``style``, else the first)."""
        found = self.numbering.definition(num_id)
        if found is None:
            return None
        definition, instance = found
        levels = {**self.numbering.levels(definition), **instance.levels}
        if level is None:
            meant = (i for i, lvl in sorted(levels.items()) if style and lvl.style == style)
            level = next(meant, 0)
        if not 0 <= level < _LEVELS:
            return None
        counters = self._counters.setdefault(definition, [None] * _LEVELS)
        if num_id not in self._begun:
            self._begun.add(num_id)
            for index in instance.starts:
                counters[index] = None
        starts = {i: instance.starts.get(i, lvl.start) for i, lvl in levels.items()}
        current = counters[level]
        counters[level] = starts.get(level, 1) if current is None else current + 1
        for deeper in range(level + 1, _LEVELS):
            restart = levels[deeper].restart if deeper in levels else None
            if restart is None or (restart and level < restart):
                counters[deeper] = None
        this = levels.get(level, _Level())
        return _shown(this, levels, counters, starts, level)


def _shown(this: _Level, levels: dict[int, _Level], counters: list[int | None],
           starts: dict[int, int], level: int) -> ListLabel:
    if this.number_format == "bullet":
        return ListLabel(shown_bullet(this.text, this.font), level + 1, None, this.separator)
    pieces: list[str] = []
    text = this.text
    index = 0
    while index < len(text):
        char = text[index]
        if char == "%" and index + 1 < len(text) and text[index + 1] in "123456789":
            shown = int(text[index + 1]) - 1
            pieces.append(_level_number(shown, levels, counters, starts, this.legal, level))
            index += 2
            continue
        pieces.append(char)
        index += 1
    number = counters[level] if this.number_format != "none" else None
    return ListLabel("".join(pieces), level + 1, number, this.separator)


def _level_number(shown: int, levels: dict[int, _Level], counters: list[int | None],
                  starts: dict[int, int], legal: bool, level: int) -> str:
    """The number of level ``shown`` in the label of a paragraph at ``level``: a level
    above that has not counted yet shows its start, one below shows nothing."""
    if shown > level:
        return ""
    lvl = levels.get(shown, _Level())
    if lvl.number_format == "none":
        return ""
    value = counters[shown]
    if value is None:
        value = starts.get(shown, 1)
    if legal and lvl.number_format != "bullet":
        return str(value)
    return word_number(value, lvl.number_format)


def _child_val(element: Any | None, name: str) -> str | None:
    found = element.find("{*}" + name) if element is not None else None
    return attr(found, "val") if found is not None else None


def _child_int(element: Any | None, name: str) -> int | None:
    value = _child_val(element, name)
    return int(value) if value is not None and value.isdigit() else None


def numbering_reference(props: Any | None) -> tuple[str | None, int | None] | None:
    """The numbering instance and level paragraph (or style) properties name, each None
    when unnamed (``w:numPr``; Word 2003's ``w:listPr``); None when they name neither."""
    if props is None:
        return None
    numbered = props.find("{*}numPr")
    if numbered is None:
        numbered = props.find("{*}listPr")
    if numbered is None:
        return None
    num_id = _child_val(numbered, "numId")
    return num_id if num_id is not None else _child_val(numbered, "ilfo"), \
        _child_int(numbered, "ilvl")


def _written_label(written: Any) -> str:
    """A Word 2003 label as Word wrote it (``wx:t``), a symbol font's codes in it (the font
    ``wx:font`` beside it names) as the characters drawn."""
    text = attr(written, "val")
    font = written.getparent().find("{*}font")
    return shown_bullet(text, attr(font, "val")) if font is not None else text
