"""XML and SVG files: the text content, read with the hardened parser."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.safexml import (
    STREAM_XML_FROM,
    Entities,
    UnsafeXML,
    iterparse_xml_file,
    local_name,
    parse_xml_file,
)

_SVG_TEXT = frozenset({"text", "tspan", "textPath", "title", "desc"})
#: what one reading of a file gives: its lines, the entities it settled, its metadata
Reading = tuple[list[str], Entities, dict[str, Any]]
Warnings = list[tuple[str, str]]
T = TypeVar("T")


def xml_lines(root: Any, only: frozenset[str]) -> list[str]:
    """The own text of each element named in ``only``, in document order."""
    lines: list[str] = []
    for element in root.iter():
        if local_name(element) in only:
            text = " ".join((element.text or "").split())
            if text:
                lines.append(text)
    return lines


class _Open:
    """An element being read: whether its own text was taken, and its last child read,
    whose tail comes next in the document."""

    __slots__ = ("element", "last_child", "text_read")

    def __init__(self, element: Any) -> None:
        self.element = element
        self.text_read = False
        self.last_child: Any = None


def _as_is(element: Any, before: Any = None) -> None:
    return None


def streamed_xml_lines(events: Iterable[tuple[str, Any]],
                       settle: Callable[[Any, Any], None] = _as_is) -> tuple[list[str], str]:
    """The text of each element and of each tail, in document order, from ``start`` and
    ``end`` events (``iterparse_xml``), and the root element's name. Each element is let go
    once its tail is read: a tree of millions of small elements would take thirty times
    the file. ``settle`` (``Entities.settle``) sees each element, and each child as it
    starts, before the text before them is read.

    >>> from goblin_office.safexml import iterparse_xml
    >>> streamed_xml_lines(iterparse_xml(b"<a>A<b>B<c>C</c>c tail</b>b tail</a>", name="x"))
    (['A', 'B', 'C', 'c tail', 'b tail'], 'a')
    """
    lines: list[str] = []
    root = ""
    open_elements: list[_Open] = []

    def take(text: str | None) -> None:
        words = " ".join((text or "").split())
        if words:
            lines.append(words)

    def take_tail(parent: _Open) -> None:
        if parent.last_child is not None:
            take(parent.last_child.tail)
            parent.element.remove(parent.last_child)
            parent.last_child = None

    for event, element in events:
        if event == "start":
            if open_elements:
                parent = open_elements[-1]
                settle(parent.element, element)
                if not parent.text_read:
                    take(parent.element.text)
                    parent.text_read = True
                take_tail(parent)
            else:
                root = local_name(element)
            open_elements.append(_Open(element))
            continue
        closing = open_elements.pop()
        settle(element, None)
        if not closing.text_read:
            take(element.text)
        take_tail(closing)
        element.clear(keep_tail=True)
        if open_elements:
            open_elements[-1].last_child = element
    return lines, root


class XMLParser(BaseEngine):
    """Any XML document's text content; entities as text, nothing outside the file read,
    bounded depth."""

    name = "office.xml"
    formats = (fmt.XML,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data, name = source.bytes(), source.display_name
        max_depth = int(config.get("limits", "max_xml_depth", 256))

        def read(recover: bool) -> Reading:
            if len(data) > STREAM_XML_FROM:
                entities = Entities(name, budget=len(data))
                lines, root = streamed_xml_lines(
                    iterparse_xml_file(data, name=name, max_depth=max_depth, recover=recover),
                    entities.settle)
            else:
                tree, entities = parse_xml_file(data, name=name, max_depth=max_depth,
                                                recover=recover)
                lines, root = text_lines(tree), local_name(tree)
            return lines, entities, {"root": root}

        return read_leniently(read)


def leniently(read: Callable[[bool], T], readable: Callable[[T], bool]) -> tuple[T, Warnings]:
    """``read(False)``; for XML that is not well formed (a file cut short, a stray ``&`` in
    a hand-written feed), ``read(True)``'s reading, with the damage in a warning, so text
    before or around it is not lost. A file refused as unsafe (too deep, a billion laughs)
    stays refused; one whose recovered reading is not ``readable`` keeps its error."""
    try:
        return read(False), []
    except UnsafeXML:
        raise
    except CorruptDocument as damage:
        try:
            found = read(True)
        except CorruptDocument:
            raise damage from None
        if not readable(found):
            raise damage from None
        return found, [("CorruptDocument", f"{damage.message}; read leniently, so text after "
                        "the damage may be missing")]


def read_leniently(read: Callable[[bool], Reading]) -> TextDocument:
    """``read``'s lines as one page, read ``leniently`` (metadata ``recovered`` when the
    strict reading failed)."""
    (lines, entities, metadata), warnings = leniently(read, lambda reading: bool(reading[0]))
    if warnings:
        metadata = {**metadata, "recovered": True}
    document = TextDocument(["\n".join(lines)], metadata=metadata)
    document.warnings = [*warnings, *entities.warnings()]
    return document


def text_lines(root: Any) -> list[str]:
    """The text of each element and of each tail under ``root``, in document order.

    >>> text_lines(parse_xml_file(b"<a>A<b>B<c>C</c>c tail</b>b tail</a>", name="x")[0])
    ['A', 'B', 'C', 'c tail', 'b tail']
    """
    return [words for text in root.itertext() if (words := " ".join(text.split()))]


class SVGParser(BaseEngine):
    """SVG images' text: text, tspan, title and desc elements."""

    name = "office.svg"
    formats = (fmt.SVG,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data, name = source.bytes(), source.display_name
        max_depth = int(config.get("limits", "max_xml_depth", 256))

        def read(recover: bool) -> Reading:
            root, entities = parse_xml_file(data, name=name, max_depth=max_depth,
                                            recover=recover)
            return xml_lines(root, _SVG_TEXT), entities, {}

        return read_leniently(read)
