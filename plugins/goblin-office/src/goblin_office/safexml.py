"""Hardened XML parsing: no DTD loading, no entities, no network, bounded depth.

Every XML document goblin-office reads (OOXML and ODF parts, flat ODF, EPUB,
.xml and .svg files) goes through ``parse_xml``. A document that declares
entities is refused outright, as defusedxml does, because entity expansion is
how billion-laughs and external-entity attacks work and no office format
needs it.
"""

from __future__ import annotations

import io
import re

from lxml import etree

from goblin_core.errors import CorruptDocument


class UnsafeXML(CorruptDocument):
    """The XML declares entities or nests deeper than limits.max_xml_depth."""

    kind = "CorruptDocument"


def _parser_options() -> dict[str, bool]:
    return {
        "resolve_entities": False,
        "no_network": True,
        "load_dtd": False,
        "dtd_validation": False,
        "huge_tree": False,
        "remove_comments": True,
        "remove_pis": True,
    }


def parse_xml(data: bytes, *, name: str, max_depth: int = 256) -> etree._Element:
    """Parse ``data`` safely and return the root element.

    Raises ``UnsafeXML`` for entity declarations or nesting deeper than
    ``max_depth``, ``CorruptDocument`` for XML that is not well formed.

    >>> parse_xml(b"<a><b>hi</b></a>", name="x.xml").findtext("b")
    'hi'
    """
    refuse_declared_entities(data, name)
    depth = 0
    root: etree._Element | None = None
    try:
        events = etree.iterparse(io.BytesIO(data), events=("start", "end"), **_parser_options())
        for event, element in events:
            if event == "start":
                depth += 1
                if depth > max_depth:
                    raise UnsafeXML(
                        f"XML nests deeper than limits.max_xml_depth ({max_depth}); refused "
                        "(raise the limit if the file is trusted)",
                        file=name,
                    )
            else:
                depth -= 1
                root = element
        tree = root
    except etree.XMLSyntaxError as exc:
        raise CorruptDocument(
            f"XML is not well formed ({exc}); the file is damaged or truncated", file=name
        ) from exc
    if tree is None:
        raise CorruptDocument("XML has no root element", file=name)
    _refuse_entities(tree, name)
    return tree


_DOCTYPE_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[(.*?)\]\s*>", re.S | re.I)
_PROLOG_BYTES = 1 << 20


def refuse_declared_entities(data: bytes, name: str) -> None:
    """Refuse before parsing when the DOCTYPE's internal subset declares entities."""
    head = data[:_PROLOG_BYTES]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        head = head.decode("utf-16", "ignore").encode("utf-8")
    found = _DOCTYPE_SUBSET.search(head)
    if found is not None and b"<!ENTITY" in found.group(1).upper():
        raise UnsafeXML(
            "XML declares entities (a billion-laughs or external-entity attack, or "
            "a DTD goblin will not expand); refused",
            file=name,
        )


def _refuse_entities(root: etree._Element, name: str) -> None:
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is None:
        return
    if any(True for _ in dtd.iterentities()):
        raise UnsafeXML(
            "XML declares entities (a billion-laughs or external-entity attack, or "
            "a DTD goblin will not expand); refused",
            file=name,
        )


def local_name(element: etree._Element) -> str:
    """The tag without its namespace ('' for comments and processing instructions)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def attr(element: etree._Element, name: str, default: str = "") -> str:
    """An attribute by local name, whatever its namespace."""
    for key, value in element.attrib.items():
        if key.rsplit("}", 1)[-1] == name:
            return str(value)
    return default


def children(element: etree._Element, name: str) -> list[etree._Element]:
    """Direct children with local name ``name``."""
    return [c for c in element if local_name(c) == name]


def descendants(element: etree._Element, name: str) -> list[etree._Element]:
    """All descendants with local name ``name`` (document order)."""
    return [e for e in element.iter() if local_name(e) == name]
