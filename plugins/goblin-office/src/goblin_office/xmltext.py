"""XML and SVG: the text content, read with the hardened parser."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.safexml import STREAM_XML_FROM, iterparse_xml, local_name, parse_xml

_SVG_TEXT = frozenset({"text", "tspan", "textPath", "title", "desc"})


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


def streamed_xml_lines(events: Iterable[tuple[str, Any]]) -> tuple[list[str], str]:
    """The text of each element and of each tail, in document order, from ``start`` and
    ``end`` events (``iterparse_xml``), and the root element's name. Each element is let go
    once its tail is read: a tree of millions of small elements would take thirty times
    the file.

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
                if not parent.text_read:
                    take(parent.element.text)
                    parent.text_read = True
                take_tail(parent)
            else:
                root = local_name(element)
            open_elements.append(_Open(element))
            continue
        closing = open_elements.pop()
        if not closing.text_read:
            take(element.text)
        take_tail(closing)
        element.clear(keep_tail=True)
        if open_elements:
            open_elements[-1].last_child = element
    return lines, root


class XMLParser(BaseEngine):
    """Any XML document's text content; no entities, no network, bounded depth."""

    name = "office.xml"
    formats = (fmt.XML,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data = source.bytes()
        max_depth = int(config.get("limits", "max_xml_depth", 256))
        if len(data) > STREAM_XML_FROM:
            lines, root = streamed_xml_lines(
                iterparse_xml(data, name=source.display_name, max_depth=max_depth))
        else:
            tree = parse_xml(data, name=source.display_name, max_depth=max_depth)
            lines, root = text_lines(tree), local_name(tree)
        return TextDocument(["\n".join(lines)], metadata={"root": root})


def text_lines(root: Any) -> list[str]:
    """The text of each element and of each tail under ``root``, in document order.

    >>> text_lines(parse_xml(b"<a>A<b>B<c>C</c>c tail</b>b tail</a>", name="x"))
    ['A', 'B', 'C', 'c tail', 'b tail']
    """
    return [words for text in root.itertext() if (words := " ".join(text.split()))]


class SVGParser(BaseEngine):
    """SVG images' text: text, tspan, title and desc elements."""

    name = "office.svg"
    formats = (fmt.SVG,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        root = parse_xml(
            source.bytes(),
            name=source.display_name,
            max_depth=int(config.get("limits", "max_xml_depth", 256)),
        )
        return TextDocument(["\n".join(xml_lines(root, _SVG_TEXT))])
