"""XML and SVG: the text content, read with the hardened parser."""

from __future__ import annotations

from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.safexml import local_name, parse_xml

_SVG_TEXT = frozenset({"text", "tspan", "textPath", "title", "desc"})


def xml_lines(root: Any, only: frozenset[str] | None = None) -> list[str]:
    """Each element's own text (and tail) as lines, in document order."""
    lines: list[str] = []
    for element in root.iter():
        name = local_name(element)
        if not name:
            continue
        if only is None or name in only:
            text = " ".join((element.text or "").split())
            if text:
                lines.append(text)
        if only is None and element is not root:
            tail = " ".join((element.tail or "").split())
            if tail:
                lines.append(tail)
    return lines


class XMLParser(BaseEngine):
    """Any XML document's text content; no entities, no network, bounded depth."""

    name = "office.xml"
    formats = (fmt.XML,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        root = parse_xml(
            source.bytes(),
            name=source.display_name,
            max_depth=int(config.get("limits", "max_xml_depth", 256)),
        )
        return TextDocument(["\n".join(xml_lines(root))], metadata={"root": local_name(root)})


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
