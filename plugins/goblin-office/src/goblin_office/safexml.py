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
import threading
from collections.abc import Iterator, Sequence

from lxml import etree

from goblin_core.errors import CorruptDocument


class UnsafeXML(CorruptDocument):
    """The XML declares entities or nests deeper than limits.max_xml_depth."""

    kind = "CorruptDocument"


class DeclaredEntities(UnsafeXML):
    """The XML's DTD declares entities (billion laughs, external entities)."""


#: Bytes from which an XML file or part is read as it parses instead of as a tree. A tree
#: takes thirty times the file when its elements are small, and is read twice as fast.
STREAM_XML_FROM = 8 * 1024 * 1024

# libxml2 refuses nesting past this without XML_PARSE_HUGE (huge_tree), which goblin never sets
_LIBXML_MAX_DEPTH = 256
# one parser per thread: an lxml parser serialises the threads that share it
_PARSERS = threading.local()


def _parser() -> etree.XMLParser:
    parser: etree.XMLParser | None = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = etree.XMLParser(
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            dtd_validation=False,
            huge_tree=False,
            remove_comments=True,
            remove_pis=True,
        )
        _PARSERS.parser = parser
    return parser


def parse_xml(data: bytes, *, name: str, max_depth: int = 256) -> etree._Element:
    """Parse ``data`` safely and return the root element.

    Raises ``UnsafeXML`` for entity declarations or nesting deeper than
    ``max_depth``, ``CorruptDocument`` for XML that is not well formed.

    >>> parse_xml(b"<a><b>hi</b></a>", name="x.xml").findtext("b")
    'hi'
    """
    refuse_declared_entities(data, name)
    try:
        # parsed in C in one call: a per-element Python loop cost more than the parse itself
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        if "Excessive depth" in str(exc):
            raise _too_deep(min(max_depth, _LIBXML_MAX_DEPTH), name) from exc
        raise CorruptDocument(
            f"XML is not well formed ({exc}); the file is truncated or damaged", file=name
        ) from exc
    if root is None:
        raise CorruptDocument("XML has no root element", file=name)
    if max_depth < _LIBXML_MAX_DEPTH and _deeper_than(root, max_depth):
        raise _too_deep(max_depth, name)
    _refuse_entities(root, name)
    return root


def iterparse_xml(data: bytes, *, name: str,
                  max_depth: int = 256) -> Iterator[tuple[str, etree._Element]]:
    """``("start", element)`` and ``("end", element)`` for each element of ``data``, parsed
    with ``parse_xml``'s hardening, for a document too large to hold as a tree: the caller
    clears each element once it has read it.

    >>> [(event, element.tag) for event, element in iterparse_xml(b"<a><b/></a>", name="x")]
    [('start', 'a'), ('start', 'b'), ('end', 'b'), ('end', 'a')]
    """
    refuse_declared_entities(data, name)
    limit = min(max_depth, _LIBXML_MAX_DEPTH)
    events = etree.iterparse(io.BytesIO(data), events=("start", "end"), resolve_entities=False,
                             no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False, remove_comments=True, remove_pis=True)
    depth, seen_root = 0, False
    try:
        for event, element in events:
            if event == "start":
                depth += 1
                if depth > limit:
                    raise _too_deep(limit, name)
                if not seen_root:  # the DTD, if any, is read before the root element
                    _refuse_entities(element, name)
                    seen_root = True
            else:
                depth -= 1
            yield event, element
    except etree.XMLSyntaxError as exc:
        if "Excessive depth" in str(exc):
            raise _too_deep(limit, name) from exc
        raise CorruptDocument(
            f"XML is not well formed ({exc}); the file is truncated or damaged", file=name
        ) from exc


def _deeper_than(root: etree._Element, depth: int) -> bool:
    """True when an element sits more than ``depth`` levels deep (the root is level 1)."""
    return bool(root.xpath("boolean(/*" + "/*" * depth + ")"))


def _too_deep(max_depth: int, name: str) -> UnsafeXML:
    return UnsafeXML(
        f"XML nests deeper than limits.max_xml_depth ({max_depth}); refused "
        "(raise the limit if the file is trusted)",
        file=name,
    )


_DOCTYPE = re.compile(rb"<!DOCTYPE", re.I)
_ENTITY = re.compile(rb"<!ENTITY", re.I)
_PROLOG_BYTES = 1 << 20


def refuse_declared_entities(data: bytes, name: str) -> None:
    """Refuse before parsing when an entity declaration follows the DOCTYPE.

    Two linear scans, not a pattern for the whole internal subset: a lazy pattern
    retried at every ``<!DOCTYPE`` of a hostile file takes quadratic time.
    """
    head = data[:_PROLOG_BYTES]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        head = head.decode("utf-16", "ignore").encode("utf-8")
    doctype = _DOCTYPE.search(head)
    if doctype is not None and _ENTITY.search(head, doctype.end()) is not None:
        raise DeclaredEntities(
            "XML declares entities (a billion-laughs or external-entity attack, or "
            "a DTD goblin will not expand); refused",
            file=name,
        )


def _refuse_entities(root: etree._Element, name: str) -> None:
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is None:
        return
    if any(True for _ in dtd.iterentities()):
        raise DeclaredEntities(
            "XML declares entities (a billion-laughs or external-entity attack, or "
            "a DTD goblin will not expand); refused",
            file=name,
        )


def local_name(element: etree._Element) -> str:
    """The tag without its namespace ('' for comments and processing instructions)."""
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag[tag.find("}") + 1 :]


def attr(element: etree._Element, name: str, default: str = "") -> str:
    """An attribute by local name, whatever its namespace (the element's own, or none, first)."""
    tag = element.tag
    if isinstance(tag, str) and tag.startswith("{"):
        value = element.get(tag[: tag.find("}") + 1] + name)
        if value is not None:
            return str(value)
    value = element.get(name)
    if value is not None:
        return str(value)
    for key, value in element.attrib.items():
        if key.rsplit("}", 1)[-1] == name:
            return str(value)
    return default


def children(element: etree._Element, name: str) -> list[etree._Element]:
    """Direct children with local name ``name``."""
    # lxml matches "{*}name" in C: any namespace, or none, and never a comment or PI
    return list(element.iterchildren("{*}" + name))


def descendants(element: etree._Element, name: str) -> list[etree._Element]:
    """All descendants with local name ``name`` (document order), ``element`` included."""
    return list(element.iter("{*}" + name))


def container_blocks(data: bytes, path: Sequence[str], *, name: str, max_depth: int = 256,
                     required: bool = False) -> Iterator[etree._Element]:
    """The child elements of the elements ``path`` leads to from the root (local names:
    ``("body",)`` for a Word document, ``("body", "text")`` for an OpenDocument text), in
    document order, each complete when yielded.

    ``data`` past ``STREAM_XML_FROM`` bytes is read as it parses: each block and each
    element around the path is let go once complete, so a body of a million short
    paragraphs never stands as one tree. ``required``: no element at ``path`` raises
    CorruptDocument.

    >>> xml = b"<doc><head>h</head><body><p>one</p><p>two</p></body></doc>"
    >>> [block.text for block in container_blocks(xml, ("body",), name="x")]
    ['one', 'two']
    """
    if len(data) <= STREAM_XML_FROM:
        holders = [parse_xml(data, name=name, max_depth=max_depth)]
        for step in path:
            holders = [found for holder in holders for found in children(holder, step)]
        if required and not holders:
            raise _missing(path, name)
        for holder in holders:
            yield from holder
        return
    # depth of the blocks; chain holds the local names of the open elements above them
    block_depth, found = len(path) + 2, False
    chain: list[str] = []
    for event, element in iterparse_xml(data, name=name, max_depth=max_depth):
        if event == "start":
            if len(chain) < block_depth - 1:
                chain.append(local_name(element))
                found = found or tuple(chain[1:]) == tuple(path)
            else:
                chain.append("")  # deeper: only the count matters
            continue
        depth = len(chain)
        chain.pop()
        if depth > block_depth:
            continue
        parent = element.getparent()
        if depth == block_depth and tuple(chain[1:]) == tuple(path):
            yield element
        element.clear()
        if parent is not None:
            while element.getprevious() is not None:
                del parent[0]
    if required and not found:
        raise _missing(path, name)


def _missing(path: Sequence[str], name: str) -> CorruptDocument:
    return CorruptDocument(f"the XML has no {'/'.join(path)} element under its root",
                           file=name)
