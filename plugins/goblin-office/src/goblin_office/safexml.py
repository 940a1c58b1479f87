"""Hardened XML parsing: no DTD loading, no external entities, no network, bounded depth.

Every XML part goblin-office reads (OOXML and ODF parts, flat ODF, EPUB) goes
through ``parse_xml``, which refuses a part that declares entities outright, as
defusedxml does: entity expansion is how billion-laughs and external-entity
attacks work, and no office format needs it.

An XML file that is a document of its own (.xml, .svg) goes through
``parse_xml_file`` instead. DocBook, TEI and JATS files declare entities or
use the named ones of a DTD they only point to (``&eacute;``), and
Illustrator declares its namespaces as entities: refusing them would lose
whole documents. There each reference becomes its text (``Entities``), and
nothing outside the file is ever read.
"""

from __future__ import annotations

import html.entities
import io
import re
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from lxml import etree

from goblin_core.errors import CorruptDocument


class UnsafeXML(CorruptDocument):
    """The XML declares entities or nests deeper than limits.max_xml_depth: a verdict on
    the file, which no other parser (LibreOffice last of all) is then asked to read."""

    kind = "CorruptDocument"
    final = True


class DeclaredEntities(UnsafeXML):
    """The XML's DTD declares entities (billion laughs, external entities)."""


#: Bytes from which an XML file or part is read as it parses instead of as a tree. A tree
#: takes thirty times the file when its elements are small, and is read twice as fast.
STREAM_XML_FROM = 8 * 1024 * 1024

# libxml2 refuses nesting past this without XML_PARSE_HUGE (huge_tree), which goblin never sets
_LIBXML_MAX_DEPTH = 256
# no DTD, no entity expansion, no network, libxml2's own depth bound
_HARDENED: dict[str, Any] = {
    "resolve_entities": False, "no_network": True, "load_dtd": False,
    "dtd_validation": False, "huge_tree": False, "remove_comments": True, "remove_pis": True}
# one parser per thread: an lxml parser serialises the threads that share it
_PARSERS = threading.local()


def _parser(recover: bool = False) -> etree.XMLParser:
    key = "recovering" if recover else "parser"
    parser: etree.XMLParser | None = getattr(_PARSERS, key, None)
    if parser is None:
        parser = etree.XMLParser(recover=recover, **_HARDENED)
        setattr(_PARSERS, key, parser)
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
        raise _syntax_error(exc, name, min(max_depth, _LIBXML_MAX_DEPTH)) from exc
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
    yield from _events(data, name, max_depth, refuse_entities=True)


def _events(data: bytes | tuple[bytes, memoryview], name: str, max_depth: int, *,
            refuse_entities: bool, recover: bool = False) -> Iterator[tuple[str, etree._Element]]:
    limit = min(max_depth, _LIBXML_MAX_DEPTH)
    stream = io.BytesIO(data) if isinstance(data, bytes) else io.BufferedReader(_Joined(*data))
    events = etree.iterparse(stream, events=("start", "end"), recover=recover, **_HARDENED)
    depth = inside_entity = 0
    try:
        for event, element in events:
            if event == "start":
                depth += 1
                if depth > limit:
                    raise _too_deep(limit, name)
                if depth == 1 and refuse_entities:  # the DTD is read before the root element
                    _refuse_entities(element, name)
                # libxml2 reports the elements of an entity's replacement text too, outside
                # the tree: the reference stands for them, and Entities gives its text
                if inside_entity or (depth > 1 and element.getparent() is None):
                    inside_entity += 1
                    continue
            else:
                depth -= 1
                if inside_entity:
                    inside_entity -= 1
                    continue
            yield event, element
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(exc, name, limit) from exc


def parse_xml_file(data: bytes, *, name: str, max_depth: int = 256,
                   recover: bool = False) -> tuple[etree._Element, Entities]:
    """Parse an XML file that is a document of its own (.xml, .svg): the root element,
    its entity references already replaced by their text, and the ``Entities`` that did it
    (``left_out`` names what could not be, for the report).

    Raises ``UnsafeXML`` for entities that expand past libxml2's amplification limit or
    ``Entities``' budget (billion laughs) and for nesting deeper than ``max_depth``,
    ``CorruptDocument`` for XML that is not well formed. With ``recover``, XML that is not
    well formed gives what libxml2 can make of it (the elements before a cut, a stray
    ``&`` or ``<`` skipped) under the same hardening: read what it could not read strictly.

    >>> root, entities = parse_xml_file(
    ...     b'<!DOCTYPE d [<!ENTITY who "goblin">]><d>by &who;, caf&eacute;</d>', name="x.xml")
    >>> root.text
    'by goblin, café'
    """
    limit = min(max_depth, _LIBXML_MAX_DEPTH)
    if recover:
        data = _escape_stray_ampersands(data)
    try:
        root = etree.fromstring(b"".join(_unread_external_subset(data)), _parser(recover))
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(exc, name, limit) from exc
    if root is None:
        raise CorruptDocument("XML has no root element", file=name)
    if (max_depth < _LIBXML_MAX_DEPTH or recover) and _deeper_than(root, limit):
        raise _too_deep(limit, name)
    entities = Entities(name, budget=len(data))
    for holder in dict.fromkeys(node.getparent() for node in root.iter(etree.Entity)):
        if holder is None:
            continue
        for child in [c for c in holder if not isinstance(c, etree._Entity)]:
            entities.settle(holder, child)
        entities.settle(holder)
    return root, entities


def iterparse_xml_file(data: bytes, *, name: str, max_depth: int = 256,
                       recover: bool = False) -> Iterator[tuple[str, etree._Element]]:
    """``parse_xml_file``'s reading as ``iterparse_xml``'s events, for a file too large to
    hold as a tree. Entity references stay in the tree: before the caller reads an element's
    text or a child's tail, it calls ``Entities.settle(element, child)`` on each child's
    start and ``Entities.settle(element)`` on the element's end.
    """
    if recover:
        data = _escape_stray_ampersands(data)
    yield from _events(_unread_external_subset(data), name, max_depth, refuse_entities=False,
                       recover=recover)


# an ampersand that starts no reference: the commonest damage of a hand-written feed
_ESCAPE_PIECE = 1 << 16
_STRAY_AMPERSAND = re.compile(rb"&(?!(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9a-fA-F]+);)")


def _escape_stray_ampersands(data: bytes) -> bytes:
    """``data`` with each ``&`` that starts no reference written ``&amp;``, which libxml2's
    recovery would drop with the word after it ("AT&T" read as "AT"). A file with CDATA
    sections is left as it is: a ``&`` is literal there.

    >>> _escape_stray_ampersands(b"<t>AT&T &amp; Tom & Jerry &#233;</t>")
    b'<t>AT&amp;T &amp; Tom &amp; Jerry &#233;</t>'
    """
    if b"<![CDATA[" in data or b"\x00" in data[:4]:
        return data
    # a piece at a time: one substitution over a large file held a fragment per match,
    # ten times the file for a feed of short items
    pieces, start = [], 0
    while start < len(data):
        end = min(len(data), start + _ESCAPE_PIECE)
        if end < len(data):
            # cut before an ampersand, so no reference is split between two pieces
            before = data.rfind(b"&", start + 1, end)
            end = before if before > start else end
        pieces.append(_STRAY_AMPERSAND.sub(b"&amp;", data[start:end]))
        start = end
    return b"".join(pieces)


_DOCTYPE_NAME = re.compile(rb"<!DOCTYPE\s+[^\s\[>]+\s*(?=[\[>])")
_XML_DECLARATION = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*\?>")
_ELEMENT_START = re.compile(rb"<[A-Za-z_:\x80-\xff]")
_SPACES = re.compile(rb"\s*")
_UTF8_BOM = b"\xef\xbb\xbf"
#: the external subset given to a file that names none: libxml2 never loads it (no DTD
#: is ever loaded), but with one named, a reference to an entity the file does not
#: declare is a warning instead of the end of the parse
_UNREAD_SUBSET = b' SYSTEM "urn:goblin:unread-dtd"'


def _unread_external_subset(data: bytes) -> tuple[bytes, memoryview]:
    """``data`` with a DOCTYPE naming an external subset, its own DTD's or one never read,
    as a head and the rest of ``data`` (not copied: a file read as it parses is large).

    Any named entity (``&eacute;``) could be declared there, so libxml2 leaves an
    undeclared reference in the tree for ``Entities`` instead of refusing the file. A
    file in UTF-16 or UTF-32, or whose prolog cannot be followed, is left as it is.

    >>> b"".join(_unread_external_subset(b'<?xml version="1.0"?><r/>'))
    b'<?xml version="1.0"?><!DOCTYPE r SYSTEM "urn:goblin:unread-dtd"><r/>'
    >>> b"".join(_unread_external_subset(b'<!DOCTYPE r [<!ENTITY a "b">]><r>&a;</r>'))
    b'<!DOCTYPE r SYSTEM "urn:goblin:unread-dtd" [<!ENTITY a "b">]><r>&a;</r>'
    """
    whole = memoryview(data)
    if b"\x00" in data[:4]:
        return b"", whole
    declaration = _XML_DECLARATION.match(data)
    at = declaration.end() if declaration else len(_UTF8_BOM) * data.startswith(_UTF8_BOM)
    cut = at  # where a DOCTYPE goes in a file that has none
    # the prolog, item by item: a comment may well hold "<name@example.org>" or "<!DOCTYPE"
    while at < _PROLOG_BYTES:
        spaces = _SPACES.match(data, at)
        at = spaces.end() if spaces else at
        if data.startswith(b"<!--", at) or data.startswith(b"<?", at):
            close = b"-->" if data.startswith(b"<!--", at) else b"?>"
            end = data.find(close, at + 2, _PROLOG_BYTES)
            if end < 0:
                break
            at = end + len(close)
        elif data.startswith(b"<!DOCTYPE", at):
            named = _DOCTYPE_NAME.match(data, at)
            if named is None:  # it names a subset already (SYSTEM or PUBLIC), or is damaged
                break
            cut = at + len(named.group().rstrip())
            return data[:cut] + _UNREAD_SUBSET, whole[cut:]
        elif _ELEMENT_START.match(data, at):
            return data[:cut] + b"<!DOCTYPE r" + _UNREAD_SUBSET + b">", whole[cut:]
        else:
            break
    return b"", whole


class _Joined(io.RawIOBase):
    """A stream of a few buffers one after the other, none of them copied whole."""

    def __init__(self, *parts: bytes | memoryview) -> None:
        self._parts = [memoryview(part) for part in parts if len(part)]

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._parts:
            return 0
        part = self._parts[0]
        size = min(len(buffer), len(part))
        buffer[:size] = part[:size]
        if size == len(part):
            self._parts.pop(0)
        else:
            self._parts[0] = part[size:]
        return size


def _syntax_error(exc: etree.XMLSyntaxError, name: str, depth_limit: int) -> CorruptDocument:
    reason = " ".join(str(exc).split())
    if "Excessive depth" in reason:  # libxml2 calls it a resource limit, as it does bombs
        return _too_deep(depth_limit, name)
    if exc.code in (etree.ErrorTypes.ERR_RESOURCE_LIMIT, etree.ErrorTypes.ERR_ENTITY_LOOP):
        return UnsafeXML(f"XML entities expand past libxml2's limits ({reason}): a "
                         "billion-laughs file; refused", file=name)
    return CorruptDocument(
        f"XML is not well formed ({reason}); the file is truncated or damaged", file=name)


# a character or entity reference inside an entity's replacement text
_REFERENCE = re.compile(r"&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([^\s&;<>]{1,100}));")
_MARKUP = re.compile(r"<[^<>]*>")
# DocBook, TEI and JATS name characters as HTML does (ISO 8879's sets: eacute, nbsp, mdash)
_NAMED_CHARACTERS = html.entities.html5
_MAX_ENTITY_NESTING = 32
# what a file's entities may add to its text: ten times the file, and a little more for a small one
_ENTITY_GROWTH, _ENTITY_ALLOWANCE = 10, 1 << 20


class Entities:
    """Replaces the entity references libxml2 left in a tree by their text.

    goblin never loads a DTD, nor lets libxml2 expand an entity in text, so
    every ``&name;`` stays in the tree as a reference. Each becomes:

    - an internal declaration's replacement text, its own references expanded
      in turn and its markup dropped, within a budget of characters that a
      billion-laughs file runs out of;
    - the character of a standard character entity (``&eacute;``, ``&nbsp;``)
      that a DTD the file only points to would have declared;
    - nothing for an external entity, which is never read, or an unknown name:
      ``left_out`` lists them for the report.
    """

    def __init__(self, name: str, budget: int) -> None:
        self.name = name
        self._budget = budget * _ENTITY_GROWTH + _ENTITY_ALLOWANCE
        self._declared: dict[str, str | None] | None = None
        self._left_out: dict[str, None] = {}

    @property
    def left_out(self) -> tuple[str, ...]:
        """Names of the references replaced by nothing, in the order first met."""
        return tuple(self._left_out)

    def warnings(self) -> list[tuple[str, str]]:
        """The report's line for ``left_out``, if any."""
        if not self._left_out:
            return []
        names = ", ".join(f"&{name};" for name in list(self._left_out)[:20])
        more = len(self._left_out) - 20
        return [("EntitiesLeftOut",
                 f"entity references left out: {names}{f' and {more} more' if more > 0 else ''} "
                 "(external entities and DTDs are never read)")]

    def settle(self, element: etree._Element, before: etree._Element | None = None) -> None:
        """Replace the references right before ``before``, a child of ``element`` (at the
        end of ``element`` when None), by their text, written once into the text they join.

        Nothing at or after ``before`` is touched: a file read as it parses may have only
        part of what follows yet, and libxml2 is still adding to it.
        """
        node = before.getprevious() if before is not None else (
            element[-1] if len(element) else None)
        references: list[etree._Entity] = []
        while isinstance(node, etree._Entity):
            references.append(node)
            node = node.getprevious()
        if not references:
            return
        if self._declared is None:
            self._declared = _declared_entities(element)
        holder = node  # whose tail the references follow; None: the element's own text
        run = [(element.text if holder is None else holder.tail) or ""]
        for reference in reversed(references):
            run += [self._text(str(reference.name), 0), reference.tail or ""]
        if holder is None:
            element.text = "".join(run)
        else:
            holder.tail = "".join(run)
        for reference in references:
            element.remove(reference)  # its tail, already in the run, goes with it

    def _text(self, name: str, nesting: int) -> str:
        declared = self._declared or {}
        if name in declared:
            content = declared[name]
            if content is None:  # external: never read
                self._left_out.setdefault(name, None)
                return ""
            if nesting >= _MAX_ENTITY_NESTING:
                raise self._bomb()
            text = _MARKUP.sub("", content) if "<" in content else content
            if "&" in text:
                text = _REFERENCE.sub(lambda found: self._reference(found, nesting + 1), text)
        elif name + ";" in _NAMED_CHARACTERS:
            text = _NAMED_CHARACTERS[name + ";"]
        else:
            self._left_out.setdefault(name, None)
            return ""
        self._budget -= len(text)
        if self._budget < 0:
            raise self._bomb()
        return text

    def _reference(self, found: re.Match[str], nesting: int) -> str:
        hexadecimal, decimal, name = found.groups()
        if name is not None:
            return self._text(name, nesting)
        code = int(hexadecimal, 16) if hexadecimal else int(decimal)
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else ""

    def _bomb(self) -> UnsafeXML:
        return UnsafeXML("XML entities expand past ten times the file's size: a billion-laughs "
                         "file; refused", file=self.name)


def _declared_entities(element: etree._Element) -> dict[str, str | None]:
    """The general entities the file's own DTD declares: name -> replacement text, None
    for an external one."""
    dtd = element.getroottree().docinfo.internalDTD
    if dtd is None:
        return {}
    return {str(entity.name): None if entity.system_url else str(entity.content or "")
            for entity in dtd.iterentities()}


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
