"""XML and SVG files: the text content, read with the hardened parser."""

from __future__ import annotations

import codecs
import html
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from lxml import etree

from goblin_core.builtin.text import declared_codecs, looks_utf16
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.markup import decode_markup
from goblin_office.safexml import (
    STREAM_XML_FROM,
    Entities,
    UnsafeXML,
    attr,
    iterparse_xml_file,
    local_name,
    parse_xml,
    parse_xml_file,
    refuse_declared_entities,
)

#: SVG elements whose text is read as lines of their own; Inkscape's flowed text is
#: paragraphs (flowPara) in a frame.
_SVG_TEXT_BLOCKS = frozenset({"text", "title", "desc", "flowPara"})
#: SVG elements whose content is never shown as text
_SVG_UNSHOWN = frozenset({"style", "script"})
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
#: what one reading of a file gives: its lines, the entities it settled, its metadata
Reading = tuple[list[str], Entities, dict[str, Any]]
Warnings = list[tuple[str, str]]
T = TypeVar("T")

#: The encoding an XML declaration names, where libxml2 looks for it: the file's start.
_DECLARATION = re.compile(
    rb"""\A\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z][\w.:-]*)["']""")
_DECLARATION_TEXT = re.compile(r"""\A(\s*<\?xml[^>]*?\bencoding\s*=\s*)(["'])[^"']*\2""")
_BOMS = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
#: Labels a file without a BOM or UTF-16's byte pattern names wrongly: its bytes are
#: single-byte, left so by an editor that re-saved it
_UTF16_LABELS = frozenset({"utf-16", "utf16", "ucs-2", "unicode", "utf-16le", "utf-16be"})


def in_read_encoding(data: bytes) -> bytes:
    """``data`` in an encoding libxml2 reads as a person would read the file.

    libxml2 takes the XML declaration at its word, and a file without one as UTF-8. Files
    written on Windows often say otherwise: a declared ISO-8859-1 whose curly quotes,
    dashes and euro signs are Windows-1252 (libxml2 makes them control characters, as
    browsers never do), no declaration over Windows-1252 or Windows-1251 text, a UTF-8
    file with one stray Windows-1252 byte, a stale ``encoding="UTF-16"`` on single-byte
    text (libxml2 refuses the file). Such a file is decoded as a web page is
    (``decode_markup``: a declared label read as browsers read it, else a code page
    guessed from the text between the tags) and handed over as UTF-8, its declaration
    saying so. A BOM, UTF-16's byte pattern, a label Python does not know and a file
    that reads as the same text in what it declares and as browsers read that label are
    left to libxml2.

    >>> in_read_encoding(b'<?xml version="1.0" encoding="ISO-8859-1"?><a>\\x93q\\x94</a>')
    b'<?xml version="1.0" encoding="utf-8"?><a>\\xe2\\x80\\x9cq\\xe2\\x80\\x9d</a>'
    >>> in_read_encoding(b"<a>caf\\xc3\\xa9</a>")
    b'<a>caf\\xc3\\xa9</a>'
    """
    if data.startswith(_BOMS) or looks_utf16(data):
        return data
    declared = _DECLARATION.match(data)
    label = declared.group(1).decode("ascii").lower() if declared else None
    stale = label in _UTF16_LABELS
    label = None if stale else label
    named = declared_codecs(label) if label else ("utf-8",)
    if not named:
        return data  # libxml2's iconv may know a name Python does not
    if label and _mislabelled_utf8(data, named):
        text = data.decode("utf-8")
        return _DECLARATION_TEXT.sub(r"\1\2utf-8\2", text, count=1).encode("utf-8")
    try:
        text = data.decode(named[0])
    except UnicodeDecodeError:
        text, _encoding = decode_markup(data, label or "utf-8")
    else:
        if not stale and (len(named) == 1 or text == data.decode(named[-1], "replace")):
            return data  # what libxml2 reads it as, the same text as a browser's reading
    if declared:
        text = _DECLARATION_TEXT.sub(r"\1\2utf-8\2", text, count=1)
    return text.encode("utf-8")


def _mislabelled_utf8(data: bytes, named: tuple[str, ...]) -> bool:
    """Whether ``data``, declared in a legacy encoding (``named`` its codecs), is UTF-8:
    bytes past ASCII, every one of them in a well-formed UTF-8 sequence. Legacy text
    hardly ever is ("Ã§" for "ç" is), so the label is stale, left by an editor or
    exporter that wrote UTF-8 (read as ISO-8859-1, "Ação" became "AÃ§Ã£o"); mail bodies
    are read so too.

    >>> _mislabelled_utf8("Ação".encode(), ("cp1252", "iso8859-1"))
    True
    >>> _mislabelled_utf8("Ação".encode("cp1252"), ("cp1252", "iso8859-1"))
    False
    """
    if named[-1].startswith("utf") or data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def svg_lines(root: Any) -> list[str]:
    """The text an SVG image shows, in document order: each ``text`` element's lines
    (its ``tspan``, ``textPath`` and ``a`` pieces joined as written, words after a
    ``tspan`` kept), titles and descriptions, Inkscape's flowed paragraphs, and the HTML
    of a ``foreignObject`` (where diagrams.net writes its labels); style sheets, scripts
    and what is not drawn (``display="none"``, a hidden Inkscape layer) left out.

    Of the children of a ``switch`` a browser shows the first it can render: the rest
    are fallbacks (diagrams.net follows each label with a shortened copy, and its
    drawing with a "Text is not SVG - cannot display" notice). So only the first child
    is read, besides children for other languages (``systemLanguage``), which are
    translations of the image's text and all read.

    >>> svg = b'<svg><text>Total: <tspan font-weight="bold">42</tspan> units</text></svg>'
    >>> svg_lines(parse_xml_file(svg, name="x")[0])
    ['Total: 42 units']
    """
    lines: list[str] = []
    _svg_element(root, lines)
    return lines


def _svg_element(element: Any, lines: list[str]) -> None:
    name = local_name(element)
    if not name or name in _SVG_UNSHOWN or _svg_hidden(element):
        return
    if name in _SVG_TEXT_BLOCKS:
        lines.extend(_svg_text(element))
    elif name == "foreignObject":
        lines.extend(text_lines(element))
    else:
        shown = [child for child in element if isinstance(child.tag, str)]
        for child in _switch_choices(shown) if name == "switch" else shown:
            _svg_element(child, lines)


def _svg_hidden(element: Any) -> bool:
    """Whether an SVG element is not drawn: ``display="none"`` or ``visibility="hidden"``,
    as an attribute or in its style (Inkscape hides a layer so)."""
    style = attr(element, "style").replace(" ", "").lower()
    return (attr(element, "display").strip() == "none"
            or attr(element, "visibility").strip() in ("hidden", "collapse")
            or "display:none" in style or "visibility:hidden" in style)


def _switch_choices(options: list[Any]) -> list[Any]:
    """The children of a ``switch`` read: one per language it names, and the first of
    those that name none (the one browsers show)."""
    chosen: list[Any] = []
    languages: set[str] = set()
    fallback_read = False
    for option in options:
        language = attr(option, "systemLanguage")
        if language and language not in languages:
            languages.add(language)
            chosen.append(option)
        elif not language and not fallback_read:
            fallback_read = True
            chosen.append(option)
    return chosen


def _svg_text(element: Any) -> list[str]:
    """The lines of one SVG text element. A ``tspan`` placed on another baseline (a
    ``y`` of its own, ``x`` with a ``dy``, Inkscape's ``sodipodi:role="line"``) starts a
    line, one moved along the baseline only (``x``) is a word apart, any other joins
    the text as written: ``H<tspan dy="3">2</tspan>O`` reads ``H2O``."""
    lines: list[list[str]] = [[]]
    baseline = attr(element, "y")

    def read(node: Any, text: str | None) -> None:
        nonlocal baseline
        lines[-1].append(text or "")
        for child in node:
            name = local_name(child)
            if (name and name not in _SVG_UNSHOWN and name not in ("title", "desc")
                    and not _svg_hidden(child)):
                x, y, dy = attr(child, "x"), attr(child, "y"), attr(child, "dy")
                if attr(child, "role") == "line" or (y and y != baseline) or (
                        x and any(float(n) for n in _NUMBER.findall(dy))):
                    lines.append([])
                    baseline = y or baseline
                elif x:
                    lines[-1].append(" ")
                read(child, child.text)
            lines[-1].append(child.tail or "")

    read(element, element.text)
    joined = (" ".join("".join(pieces).split()) for pieces in lines)
    return [line for line in joined if line]


class TextLines:
    """An XML document's text pieces, in document order, joined into the lines a reader
    sees. Pieces the file separates with a line break are lines of their own, and so
    are the texts of elements that follow each other with nothing between them
    (``<name>Ana</name><city>Porto</city>``, as exports and feeds write data). Pieces
    inside mixed content (an element holding text beside its child elements: a sentence
    with ``<b>bold</b>`` words in it) join as the file writes them: with a space where
    it has one or where an empty element such as ``<br/>`` stands, else with nothing,
    so ``H<sub>2</sub>O`` reads ``H2O``. Two pieces are in mixed content when the
    innermost element holding both has shown text of its own beside a child, or text
    after a child, by then. Pieces split by spaces alone
    (``<first>Ana</first> <last>Lima</last>``) share a line.

    A reader calls ``open`` and ``close`` as elements start and end, and ``take`` for
    each text: an element's own text while it is the innermost open element, a child's
    tail after the child is closed."""

    __slots__ = ("_crossed", "_done", "_gap", "_line", "_low", "_mixed")

    def __init__(self) -> None:
        self._done: list[str] = []
        # the line being built, in pieces: a string grown by += is copied whole each
        # time, and a paragraph of a million inline elements took minutes
        self._line: list[str] = []
        self._gap = ""
        self._crossed = False
        self._mixed: list[bool] = []  # per open element, outermost first
        self._low = 0  # fewest elements open since the last piece taken

    @property
    def lines(self) -> list[str]:
        """The lines so far."""
        return [*self._done, "".join(self._line)] if self._line else list(self._done)

    def _new_line(self, words: str) -> None:
        if self._line:
            self._done.append("".join(self._line))
        self._line = [words]

    def open(self) -> None:
        self._mixed.append(False)

    def close(self, empty: bool = False) -> None:
        """The innermost element ends; ``empty`` when it held no text and no element."""
        self._mixed.pop()
        self._low = min(self._low, len(self._mixed))
        self._crossed = self._crossed or empty

    def take(self, text: str | None, beside_children: bool) -> None:
        """One piece: the innermost open element's text (``beside_children`` when it has
        child elements) or the tail of its last child (``beside_children`` True)."""
        raw = text or ""
        words = " ".join(raw.split())
        if not words:
            self._gap += raw
            return
        depth = len(self._mixed)
        if beside_children and depth:
            self._mixed[-1] = True
        holder = min(self._low, depth)
        mixed = holder > 0 and self._mixed[holder - 1]
        gap = self._gap + raw[: len(raw) - len(raw.lstrip())]
        if not self._line or "\n" in gap or "\r" in gap:
            self._new_line(words)
        elif mixed:
            self._line += (" ", words) if gap or self._crossed else (words,)
        elif gap:
            self._line += (" ", words)
        else:
            self._new_line(words)
        self._gap = raw[len(raw.rstrip()):]
        self._crossed = False
        self._low = depth


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
    """The document's text as ``TextLines`` joins it, from ``start`` and ``end`` events
    (``iterparse_xml``), and the root element's name. Each element is let go once its
    tail is read: a tree of millions of small elements would take thirty times the file.
    ``settle`` (``Entities.settle``) sees each element, and each child as it starts,
    before the text before them is read.

    >>> from goblin_office.safexml import iterparse_xml
    >>> streamed_xml_lines(iterparse_xml(b"<a>A<b>B<c>C</c>c tail</b>b tail</a>", name="x"))
    (['ABCc tailb tail'], 'a')
    >>> streamed_xml_lines(iterparse_xml(b"<a><b>B</b><c>C</c></a>", name="x"))
    (['B', 'C'], 'a')
    """
    lines = TextLines()
    root = ""
    open_elements: list[_Open] = []

    def take_tail(parent: _Open) -> None:
        if parent.last_child is not None:
            lines.take(parent.last_child.tail, True)
            parent.element.remove(parent.last_child)
            parent.last_child = None

    for event, element in events:
        if event == "start":
            if open_elements:
                parent = open_elements[-1]
                settle(parent.element, element)
                if not parent.text_read:
                    lines.take(parent.element.text, True)
                    parent.text_read = True
                take_tail(parent)
            else:
                root = local_name(element)
            open_elements.append(_Open(element))
            lines.open()
            continue
        closing = open_elements.pop()
        settle(element, None)
        leaf = not closing.text_read
        if leaf:
            lines.take(element.text, False)
        take_tail(closing)
        lines.close(empty=leaf and not (element.text or "").strip())
        element.clear(keep_tail=True)
        if open_elements:
            open_elements[-1].last_child = element
    return lines.lines, root


class XMLParser(BaseEngine):
    """Any XML document's text content; entities as text, nothing outside the file read,
    bounded depth."""

    name = "office.xml"
    formats = (fmt.XML,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data, name = in_read_encoding(source.bytes()), source.display_name
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
                _feed_html_as_text(tree)
                lines, root = text_lines(tree), local_name(tree)
            return lines, entities, {"root": root}

        return read_leniently(read, data)


_ATOM = "{http://www.w3.org/2005/Atom}"
_RSS1 = "{http://purl.org/rss/1.0/}"
_RSS_CONTENT = "{http://purl.org/rss/1.0/modules/content/}encoded"
#: Atom's text constructs, which say with ``type="html"`` that they hold escaped HTML
_ATOM_TEXTS = frozenset({f"{_ATOM}{name}" for name in
                         ("title", "subtitle", "summary", "content", "rights")})


def _feed_html_as_text(root: Any) -> None:
    """A feed's HTML (RSS's ``description`` and ``content:encoded``, an Atom text of
    ``type="html"``), escaped or in CDATA as feeds write it, replaced by the text a feed
    reader shows of it, one element per line: tags, scripts and ``&amp;amp;`` were read
    as text. Other XML is left as it is."""
    kind = local_name(root)
    if kind == "rss":
        holders = [e for e in root.iter("description", _RSS_CONTENT)]
    elif kind == "RDF":
        holders = [e for e in root.iter(f"{_RSS1}description", _RSS_CONTENT)]
    elif root.tag in (f"{_ATOM}feed", f"{_ATOM}entry"):
        holders = [e for e in root.iter(*_ATOM_TEXTS) if attr(e, "type") == "html"]
    else:
        return
    from goblin_office.html_tree import html_page  # BeautifulSoup, loaded when needed

    for holder in holders:
        markup = holder.text or ""
        if len(holder) or not ("<" in markup or "&" in markup):
            continue
        holder.text = None
        for line in html_page(markup)[0].text.splitlines():
            etree.SubElement(holder, "line").text = line


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


def office_xml_root(data: bytes, *, name: str, max_depth: int, enclosing: frozenset[str],
                    left_out: Warnings) -> Any:
    """The root element of an Office document saved as one XML file (Flat OPC, Word 2003
    XML), parsed as a package part is, entities refused. Of a file that is not well formed
    (cut short), what libxml2 recovers of it, under the same hardening, with a warning in
    ``left_out``: ``Truncated`` when text after the damage is lost (the file ends inside a
    tag, a text or one of the ``enclosing`` elements, which no whole file ends inside of),
    else the damage it was read past."""
    try:
        return parse_xml(data, name=name, max_depth=max_depth)
    except UnsafeXML:
        raise
    except CorruptDocument as damage:
        refuse_declared_entities(data, name)
        try:
            root, _entities = parse_xml_file(data, name=name, max_depth=max_depth, recover=True)
        except CorruptDocument:
            raise damage from None
        lost = lost_after_damage(data, " ".join(root.itertext())[-2 * READ_TAIL:], enclosing)
        if lost:
            left_out.append(("Truncated", f"{damage.message}; read leniently: {lost}"))
        else:
            left_out.append((damage.kind, f"{damage.message}; read leniently"))
        return root


def read_leniently(read: Callable[[bool], Reading], data: bytes) -> TextDocument:
    """``read``'s lines as one page, read ``leniently`` (metadata ``recovered`` when the
    strict reading failed, and ``left_out`` saying so when text of ``data``, the file read,
    is known lost to the damage)."""
    (lines, entities, metadata), warnings = leniently(read, lambda reading: bool(reading[0]))
    if warnings:
        metadata = {**metadata, "recovered": True}
    document = TextDocument(["\n".join(lines)], metadata=metadata)
    document.warnings = [*warnings, *entities.warnings()]
    if warnings:
        document.left_out = lost_after_damage(data, _last_lines(lines))
    return document


def _last_lines(lines: list[str]) -> str:
    """The end of ``lines``, about ``READ_TAIL`` characters of it, as one text."""
    taken: list[str] = []
    size = 0
    for line in reversed(lines):
        taken.append(line)
        size += len(line) + 1
        if size > READ_TAIL:
            break
    return "\n".join(reversed(taken))


#: how much of the end of a damaged file, and of its reading, is compared
READ_TAIL = 1 << 16
#: markup between texts: comments, processing instructions, CDATA's brackets, tags
_MARKUP = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[|\]\]>|<[^<>]*>", re.DOTALL)
_WORD = re.compile(r"\w+")
#: the last words of a file the reading must hold for nothing after the damage to be lost
_LAST_WORDS = 3


def lost_after_damage(data: bytes, reading_end: str,
                      enclosing: frozenset[str] = frozenset()) -> str:
    """What ``ParsedDocument.left_out`` says of XML read leniently (``leniently``), whose
    reading ends with ``reading_end``: '' when nothing is known lost.

    A file cut inside a tag or a text lost what followed the cut; so did one cut right
    after a start tag (what the element held is gone), right after an element standing
    in the middle of a text (``Segunda frase <em>forte</em>``: the sentence went on), or
    inside an element named in ``enclosing`` (the local names of a format's elements no
    whole file ends inside of: a paragraph, a package part). libxml2 recovers from most
    damage in the middle of a file (a stray ``&`` or ``<``, a tag left open) and reads on,
    but from some (an attribute without quotes, a second root) it reads no further: the
    file's last words then are missing from the reading. A file whose end tags alone are
    missing, or which was read to its last words, loses nothing.
    """
    tail = _decoded_tail(data).rstrip()
    last_open, last_close = tail.rfind("<"), tail.rfind(">")
    if last_open > last_close:
        return "the file ends inside a tag, as one cut short does: the text after the cut is lost"
    if tail[last_close + 1:].strip():
        return ("the file ends inside a text, as one cut short does: the text after the cut "
                "is lost")
    cut = _cut_between_tags(tail, enclosing)
    if cut:
        return f"the file ends {cut}, as one cut short does: the text after the cut is lost"
    # escaped markup (a feed's HTML) is read as the text it shows: its tags go too
    words = _WORD.findall(_MARKUP.sub(" ", html.unescape(_MARKUP.sub(" ", tail))))
    if not words:
        return ""
    needle = " ".join(words[-_LAST_WORDS:])
    if f" {needle} " in f" {' '.join(_WORD.findall(reading_end))} ":
        return ""
    return (f"the reading stopped at the damage, before the file's last words "
            f"({needle!r}): the text after the damage is lost")


#: the pieces of XML: markup that holds no element (comments, processing instructions,
#: declarations), CDATA sections, tags (end tag mark, name, empty-element mark), texts
_PIECE = re.compile(
    r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[(?P<cdata>.*?)\]\]>|<![^>]*>"
    r"|<(?P<end>/?)\s*(?P<name>[^\s/>]+)[^>]*?(?P<empty>/?)>|(?P<text>[^<]+)",
    re.DOTALL,
)


def _cut_between_tags(tail: str, enclosing: frozenset[str]) -> str:
    """Where a file ``tail`` ends that ends between tags, when that place is inside its
    text ('' when it may be the end of a block, its end tags alone missing): just after a
    start tag, after an element inside a text, or inside one of ``enclosing``."""
    # each open element: its name, whether a text stands in it beside its children yet,
    # and whether one stood before it in its parent
    open_elements: list[tuple[str, bool, bool]] = []
    last = ""  # "start", "inline" (an element closed inside a text) or "block"
    # the tail of a long file may begin inside a tag: read it from the first whole one
    start = 0 if tail.lstrip("\ufeff \t\r\n").startswith("<") \
        else max(tail.find("<", tail.find(">") + 1), 0)
    for piece in _PIECE.finditer(tail, start):
        text = piece.group("text") if piece.group("text") is not None else piece.group("cdata")
        name = piece.group("name")
        if text is not None:
            if text.strip() and open_elements:
                element, _mixed, inside_text = open_elements[-1]
                open_elements[-1] = (element, True, inside_text)
            continue
        if name is None:  # a comment, a processing instruction, a declaration
            continue
        in_text = bool(open_elements) and open_elements[-1][1]
        if piece.group("end"):
            names = [element for element, _mixed, _inside in open_elements]
            if name in names:
                at = len(names) - 1 - names[::-1].index(name)
                in_text = open_elements[at][2]
                del open_elements[at:]
            last = "inline" if in_text else "block"
        elif piece.group("empty"):
            last = "inline" if in_text else "block"
        else:
            open_elements.append((name, False, in_text))
            last = "start"
    if last == "start":
        return f"just after the start tag <{open_elements[-1][0]}>"
    if last == "inline":
        return "after an element in the middle of a text"
    for element, _mixed, _inside in reversed(open_elements):
        if element.rsplit(":", 1)[-1] in enclosing:
            return f"inside <{element}>, before its end"
    return ""


def _decoded_tail(data: bytes) -> str:
    """About the last ``READ_TAIL`` characters of the XML file ``data``, decoded as its
    parser reads it: UTF-16 by its BOM or byte pattern, else the declared encoding or UTF-8."""
    tail = data[-2 * READ_TAIL:]
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or looks_utf16(data):
        big_endian = data.startswith(codecs.BOM_UTF16_BE) or data[:1] == b"\x00"
        tail = tail[len(tail) % 2:]
        return tail.decode("utf-16-be" if big_endian else "utf-16-le", "replace")
    declared = _DECLARATION.match(data)
    label = declared.group(1).decode("ascii").lower() if declared else ""
    for codec in (declared_codecs(label) if label else ()) or ("utf-8",):
        try:
            return tail.decode(codec, "replace")
        except LookupError:
            continue
    return tail.decode("utf-8", "replace")


def text_lines(root: Any) -> list[str]:
    """The text under ``root`` as ``TextLines`` joins it; comments and processing
    instructions are left out, the text after them kept.

    >>> text_lines(parse_xml_file(b"<p>with <b>bold</b> words.</p>", name="x")[0])
    ['with bold words.']
    >>> text_lines(parse_xml_file(b"<doc>\\n <p>one</p>\\n <p>two</p>\\n</doc>", name="x")[0])
    ['one', 'two']
    """
    lines = TextLines()
    pending: list[tuple[Any, bool]] = [(root, False)]
    while pending:
        node, closed = pending.pop()
        if not isinstance(node.tag, str):  # a comment or processing instruction
            lines.open()
            lines.close(empty=True)
            lines.take(node.tail, True)
            continue
        if closed:
            lines.close(empty=not len(node) and not (node.text or "").strip())
            if node is not root:
                lines.take(node.tail, True)
            continue
        lines.open()
        lines.take(node.text, bool(len(node)))
        pending.append((node, True))
        pending.extend((child, False) for child in reversed(node))
    return lines.lines


class SVGParser(BaseEngine):
    """SVG images' text: text elements whole, titles, descriptions, flowed text and
    foreign HTML, each ``switch``'s shown choice (``svg_lines``)."""

    name = "office.svg"
    formats = (fmt.SVG,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data, name = in_read_encoding(source.bytes()), source.display_name
        max_depth = int(config.get("limits", "max_xml_depth", 256))

        def read(recover: bool) -> Reading:
            root, entities = parse_xml_file(data, name=name, max_depth=max_depth,
                                            recover=recover)
            return svg_lines(root), entities, {}

        return read_leniently(read, data)
