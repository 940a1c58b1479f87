"""HTML markup as a page: the visible text of its tree, with headings, lists and tables.

BeautifulSoup (lxml) builds the tree; it is loaded with this module, when a web
page, an e-book chapter or an HTML mail body is read, not when goblin starts.
"""

from __future__ import annotations

import html
import io
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bs4 import (
    BeautifulSoup,
    Comment,
    Doctype,
    NavigableString,
    ProcessingInstruction,
    Tag,
    XMLParsedAsHTMLWarning,
)

from goblin_core.model import PageContent
from goblin_office.layout import PageBuilder

_INVISIBLE = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "head",
        "meta",
        "link",
        "svg",
        "canvas",
        "iframe",
        "object",
        "embed",
        "button",
        "select",
        # what these hold is shown only by a browser that cannot play them ("Your
        # browser does not support the video tag."), never beside the player
        "video",
        "audio",
        # a ruby's reading (furigana) and its fallback parentheses: the base alone is the
        # word, as Word and ODF text are read ("漢字", not "漢kan字ji")
        "rt",
        "rp",
        # a page's title is shown in the browser's tab, never in the page, wherever it is
        # written (the metadata keeps it): a title after the head's end, or a page with
        # no head read flat, put it among the words
        "title",
    }
)
_MAX_DEPTH = 200
# Spans past these are read as these: a page's few bytes must not ask for millions of cells.
_MAX_COLSPAN = 64
_MAX_ROWSPAN = 1000
_COLLAPSE_PIECE = 1 << 20
_WHITESPACE = re.compile(r"\s")
_INTEGER = re.compile(r"[\t\n\f\r ]*([-+]?[0-9]{1,18})")
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_LISTS = frozenset({"ul", "ol", "menu", "dir"})
_BLOCKS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "header",
        "footer",
        "main",
        "aside",
        "nav",
        "blockquote",
        "pre",
        "address",
        "figure",
        "figcaption",
        "form",
        "fieldset",
        "dl",
        "dt",
        "dd",
        "ul",
        "ol",
        "body",
        "html",
        "center",
        "details",
        "summary",
        "caption",
        "hr",
        "br",
        "title",
        "legend",
        "hgroup",
        "menu",
        "dialog",
        "search",
    }
)
# Past this many tags a page is read flat: BeautifulSoup builds a Python object per
# tag (a million nested divs took 20-50 s and 600 MB), and lxml's own tree stops at
# a depth of 256 and loses the text below it.
MAX_TREE_TAGS = 250_000
_BREAKS = _BLOCKS | set(_HEADINGS) | {"li", "tr", "td", "th"}
# An attribute of a start tag: its name and its value, quoted or not.
_ATTRIBUTE = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
# Names of hidden elements a flat page pairs the tags of, at most: a pass over the page each
_MAX_HIDDEN_NAMES = 32
_NAME_END = re.compile(r"[\s/>]")
# Elements that have no end tag.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})
# One tag, comment, doctype or processing instruction; an unclosed comment runs to the end.
_MARKUP_TOKEN = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][\w:.-]*)[^>]*>|<[!?][^>]*>", re.S)
# A DOCTYPE opening an internal subset, after what may come before it; and where it ends.
_INTERNAL_SUBSET = re.compile(r"\A\ufeff?\s*(?:<\?xml[^>]*>\s*)?(<!DOCTYPE[^\[>]*\[)", re.I)
_SUBSET_END = re.compile(r"\]\s*>")
# A prefix bound to the XHTML namespace (xmlns:h="http://www.w3.org/1999/xhtml").
_XHTML_PREFIX = re.compile(r"""xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']http://www\.w3\.org/1999/xhtml["']""")
# <meta name=...> properties kept as metadata, under these keys.
_META_NAMES = {"author": "author", "description": "description", "keywords": "keywords"}


@dataclass
class _List:
    """A list being read: whether it is numbered, and the number its next item shows."""

    ordered: bool
    next_number: int = 1
    step: int = 1


@dataclass
class _Item:
    """A list item being read: its depth (1 the outermost), its number in a numbered
    list, and the lines its blocks (paragraphs, divisions) gave so far."""

    level: int
    number: int | None
    lines: list[str] = field(default_factory=list)


class _Walker:
    """Turns an HTML tree into blocks: headings, paragraphs, list items, tables.

    A list item is one block of its lines, however many paragraphs it holds (as
    Markdown-made pages and e-books write ``<li><p>...</p></li>``), with its depth and,
    in a numbered list, the number a browser shows beside it; a list nested in it
    follows it."""

    def __init__(self, page: PageBuilder) -> None:
        self.page = page
        self.inline: list[str] = []
        self.lists: list[_List] = []
        self.item: _Item | None = None

    def flush(self) -> None:
        text = collapsed("".join(self.inline))
        self.inline = []
        if not text:
            return
        if self.item is not None:
            self.item.lines.append(text)
        else:
            self.page.add(text)

    def close_item(self) -> None:
        """Write what the open list item holds so far: at its end, or before a list,
        heading or table inside it, which come after it."""
        self.flush()
        item = self.item
        if item is not None and item.lines:
            self.page.add("\n".join(item.lines), "list_item", item.level, number=item.number)
            # what follows a nested list in the item is its text, under no number of its own
            item.lines, item.number = [], None

    def read_item(self, tag: Tag, depth: int) -> None:
        self.close_item()
        outer = self.item
        numbered = self.lists[-1] if self.lists and self.lists[-1].ordered else None
        number = None
        if numbered is not None:
            value = _integer(tag, "value")
            if value is not None:
                numbered.next_number = value
            number = numbered.next_number
            numbered.next_number += numbered.step
        self.item = _Item(max(1, len(self.lists)), number)
        self.walk(tag, depth)
        self.close_item()
        self.item = outer

    def read_list(self, tag: Tag, depth: int) -> None:
        self.close_item()
        ordered = (tag.name or "").lower() == "ol"
        step = -1 if ordered and tag.has_attr("reversed") else 1
        first = _integer(tag, "start")
        if first is None:
            first = len(tag.find_all("li", recursive=False)) if step < 0 else 1
        self.lists.append(_List(ordered, first, step))
        self.walk(tag, depth)
        self.flush()
        self.lists.pop()

    def walk(self, node: Any, depth: int = 0) -> None:
        self.walk_nodes(node.children, depth)

    def walk_nodes(self, nodes: Iterable[Any], depth: int = 0) -> None:
        for child in nodes:
            if isinstance(child, (Comment, Doctype, ProcessingInstruction)):
                continue
            if isinstance(child, NavigableString):
                self.inline.append(str(child))
            elif isinstance(child, Tag):
                self.element(child, depth + 1)

    def element(self, tag: Tag, depth: int = 0) -> None:
        name = (tag.name or "").lower()
        if name == "iframe" and tag.get("srcdoc") and not _hidden(tag):
            # an inline frame's document is written in its srcdoc attribute and shown in place
            self.close_item()
            self.walk(_soup(str(tag.get("srcdoc"))), depth)
            self.flush()
            return
        if name in _INVISIBLE or _hidden(tag):
            return
        if depth > _MAX_DEPTH:
            # pathological nesting: keep the text, flat, without recursing further
            self.inline.append(" " + flat_text(tag) + " ")
            return
        if name in _HEADINGS:
            self.close_item()
            self.page.add(self.text_of(tag, depth), "heading", _HEADINGS[name])
        elif name == "li":
            self.read_item(tag, depth)
        elif name in _LISTS:
            self.read_list(tag, depth)
        elif name == "table":
            self.close_item()
            self.table(tag, depth)
        elif name == "pre":
            self.close_item()
            self.page.add(pre_text(tag).strip("\n"), "code")
        elif name == "noframes":
            self.noframes(tag, depth)
        elif name in _BLOCKS:
            self.flush()
            self.walk(tag, depth)
            self.flush()
        else:
            self.walk(tag, depth)

    def noframes(self, tag: Tag, depth: int) -> None:
        # What a frameset page shows where frames are not supported. The HTML parser
        # keeps its content as raw text, tags and all, so it is parsed here on its own.
        self.close_item()
        content = tag.get_text()
        if "<" not in content:
            self.walk(tag, depth)
        else:
            fragment = BeautifulSoup(content, "lxml")
            self.walk(fragment.body if fragment.body is not None else fragment, depth)
        self.flush()

    def text_of(self, tag: Tag, depth: int) -> str:
        """The text of a heading or table cell on one line, read as a paragraph is:
        inline elements join without a space, blocks and ``<br>`` are apart, hidden
        content is left out."""
        inner = _Walker(PageBuilder(engine=self.page.engine))
        inner.walk(tag, depth)
        inner.flush()
        return collapsed(" ".join(inner.page.lines))

    def table(self, table: Tag, depth: int) -> None:
        caption = next(
            (
                self.text_of(child, depth + 1)
                for child in table.children
                if isinstance(child, Tag) and child.name == "caption" and not _hidden(child)
            ),
            "",
        )
        # a caption is shown above its table, so its text comes first
        self.page.add(caption, "caption")
        rows: list[list[str]] = []
        header_rows = 0
        # column -> rows below this one a cell above still covers (its rowspan)
        covered: dict[int, int] = {}
        for tr in _rows(table):
            cells = [
                c for c in tr.find_all(["td", "th"], recursive=False) if not _hidden(c)
            ]
            row: list[str] = []
            spans: dict[int, int] = {}
            for cell in cells:
                while covered.get(len(row)):
                    row.append("")  # under a cell of a row above: the next cell goes right
                # a cell sits two levels below its table (a row, then the cell)
                text = self.text_of(cell, depth + 2)
                down = _span(cell, "rowspan", _MAX_ROWSPAN)
                for offset in range(_span(cell, "colspan", _MAX_COLSPAN)):
                    if down > 1:
                        spans[len(row)] = down - 1
                    row.append("" if offset else text)
            covered = {column: left - 1 for column, left in covered.items() if left > 1}
            covered.update(spans)
            if cells and all(c.name == "th" for c in cells) and len(rows) == header_rows:
                header_rows += 1
            rows.append(row)
        self.page.add_table(rows, title=caption, header_rows=header_rows)


def collapsed(text: str) -> str:
    """``text`` with each run of whitespace one space and none at its ends, as a browser
    shows it: ``" ".join(text.split())``, a piece of about a megabyte at a time, since
    the list of the words of a 50 MB paragraph took twenty times the paragraph."""
    if len(text) <= _COLLAPSE_PIECE:
        return " ".join(text.split())
    pieces = io.StringIO()
    start = 0
    while start < len(text):
        # each piece ends at a space, so no word is cut in two
        space = _WHITESPACE.search(text, min(start + _COLLAPSE_PIECE, len(text)))
        end = space.start() if space else len(text)
        words = " ".join(text[start:end].split())
        if words:
            pieces.write(" " if pieces.tell() else "")
            pieces.write(words)
        start = end + 1 if space else end
    return pieces.getvalue()


def _integer(tag: Tag, name: str) -> int | None:
    """An attribute read as browsers read an integer (HTML's rules: spaces, a sign, ASCII
    digits, whatever follows ignored: ``2px`` is 2), or None when it starts with none."""
    found = _INTEGER.match(str(tag.get(name, "")))
    return int(found.group(1)) if found else None


def _span(cell: Tag, name: str, most: int) -> int:
    """A cell's ``colspan`` or ``rowspan``: 1 unless a number over 1, at most ``most``."""
    return max(1, min(_integer(cell, name) or 1, most))


def _shown(tag: Tag) -> Iterator[Tag | str]:
    """What ``tag`` shows, in document order and without recursion: each element as it
    is entered, then its content, and each text; invisible and hidden elements (a
    template, a ``display:none`` block) with what they hold left out, an inline frame's
    ``srcdoc`` document in its place."""
    pending: list[Any] = list(reversed(list(tag.children)))
    while pending:
        node = pending.pop()
        if isinstance(node, Tag):
            if _hidden(node):
                continue
            name = (node.name or "").lower()
            if name == "iframe" and node.get("srcdoc"):
                # an inline frame's document, shown in its place (frames in frames too)
                pending.extend(reversed(list(_soup(str(node.get("srcdoc"))).children)))
                continue
            if name in _INVISIBLE:
                continue
            yield node
            pending.extend(reversed(list(node.children)))
        elif isinstance(node, NavigableString) and not isinstance(
            node, (Comment, Doctype, ProcessingInstruction)
        ):
            yield str(node)


def flat_text(tag: Tag) -> str:
    """The visible text under ``tag`` on one line, read without recursion: what
    invisible and hidden elements hold is left out, as the walker leaves it out above
    this depth; blocks are a word apart, inline elements join as written."""
    parts = [(" " if (node.name or "").lower() in _BREAKS else "") if isinstance(node, Tag)
             else node for node in _shown(tag)]
    return collapsed("".join(parts))


def pre_text(tag: Tag) -> str:
    """The text of preformatted ``tag`` as a browser shows it: its spaces and line breaks
    as written, a ``<br>`` a line break too, hidden and invisible content left out."""
    return "".join(("\n" if (node.name or "").lower() == "br" else "")
                   if isinstance(node, Tag) else node for node in _shown(tag))


def _rows(table: Tag) -> Iterator[Tag]:
    """The rows of a table a browser shows: hidden rows and row groups left out."""
    for child in table.children:
        if not isinstance(child, Tag) or _hidden(child):
            continue
        if child.name == "tr":
            yield child
        elif child.name in ("thead", "tbody", "tfoot"):
            yield from (
                tr
                for tr in child.children
                if isinstance(tr, Tag) and tr.name == "tr" and not _hidden(tr)
            )


def _hidden(tag: Tag) -> bool:
    if tag.attrs is None:
        return False
    if tag.has_attr("hidden") or str(tag.get("aria-hidden", "")).lower() == "true":
        return True
    style = str(tag.get("style", "")).replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


def flat_page(markup: str, number: int = 1, engine: str = "") -> PageContent:
    """The visible text of markup with too many tags for a tree, one paragraph per
    block, in one pass: what an invisible element holds (script, style...) is skipped to
    its end tag, or to the end of the page when it has none, and a hidden element
    (``hidden``, ``display:none``) to the end tag that closes it."""
    page = PageBuilder(number=number, engine=engine)
    # written to a buffer and read back line by line: a list of the pieces between the
    # tags of a page of millions of them took twenty times the page
    pieces = io.StringIO()
    position = 0
    hidden_ends = _ElementEnds(markup)
    # Searching only up to the last ">" keeps this linear: every "<" before it has a
    # ">" after it, so no attempt scans to the end of the page and fails.
    for match in _MARKUP_TOKEN.finditer(markup, 0, markup.rfind(">") + 1):
        start = match.start()
        if start < position:
            continue  # inside an invisible element skipped below
        pieces.write(markup[position:start])
        position = match.end()
        closing, name = match.group(1, 2)
        name = (name or "").lower()
        if name in _BREAKS:
            pieces.write("\n")
        elif name:
            pieces.write(" ")
        if closing or match.group(0).endswith("/>"):
            continue
        if name in _INVISIBLE:
            end = re.compile(rf"</{re.escape(name)}\s*>", re.I).search(markup, position)
            position = end.end() if end else len(markup)
        elif name not in _VOID and _hides(match.group(0)):
            position = hidden_ends.after(name, position)
    pieces.write(markup[position:])
    for line in io.StringIO(html.unescape(pieces.getvalue()), newline="\n"):
        if line.strip():
            page.add(" ".join(line.split()))
    return page.build()


def _hides(start_tag: str) -> bool:
    """Whether a start tag's attributes hide its element, as ``_hidden`` reads them from
    a tree's element (``hidden``, ``aria-hidden="true"``, ``display:none``...)."""
    lowered = start_tag.lower()
    if "hidden" not in lowered and "none" not in lowered:
        return False  # most tags: no attribute parsed
    name_end = _NAME_END.search(lowered)
    attributes = {name: value.strip("\"'") for name, value in
                  _ATTRIBUTE.findall(lowered, name_end.start() if name_end else len(lowered))}
    style = attributes.get("style", "").replace(" ", "")
    return ("hidden" in attributes or attributes.get("aria-hidden") == "true"
            or "display:none" in style or "visibility:hidden" in style)


class _ElementEnds:
    """Where each start tag's element ends, for the names of the hidden elements a flat
    page skips: the tags of one name paired as a tree pairs them, in one pass over the
    page per name, so skipping costs linear time however many hidden elements nest."""

    def __init__(self, markup: str) -> None:
        self.markup = markup
        # name -> where each of its start tags ends -> where its end tag ends
        self.by_name: dict[str, dict[int, int]] = {}

    def after(self, name: str, position: int) -> int:
        """Where the element whose start tag ends at ``position`` ends: after its end tag,
        or ``position`` itself when none closes it (an unclosed ``<p hidden>`` hides
        no more than its tag), or when the page hides elements of too many names."""
        ends = self.by_name.get(name)
        if ends is None:
            if len(self.by_name) >= _MAX_HIDDEN_NAMES:
                return position
            ends = self.by_name[name] = {}
            opened: list[int] = []
            tags = re.compile(rf"<(/?){re.escape(name)}(?![\w:.-])[^>]*>", re.I)
            for tag in tags.finditer(self.markup, 0, self.markup.rfind(">") + 1):
                if tag.group(1):
                    if opened:
                        ends[opened.pop()] = tag.end()
                elif not tag.group(0).endswith("/>"):
                    opened.append(tag.end())
        return ends.get(position, position)


def _without_internal_subset(markup: str) -> str:
    """``markup`` without the declarations an XHTML document's DOCTYPE holds between
    ``[`` and ``]`` (``<!ENTITY nbsp "&#160;">``, as some e-book tools write): the HTML
    parser expands none of them and showed the ``]>`` that closes them as text."""
    opening = _INTERNAL_SUBSET.match(markup)
    if opening is None:
        return markup
    closing = _SUBSET_END.search(markup, opening.end())
    return markup if closing is None else markup[: opening.start(1)] + markup[closing.end():]


def _soup(markup: str) -> BeautifulSoup:
    with warnings.catch_warnings():
        # XHTML is read with the HTML parser on purpose: it forgives what real pages get wrong
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(markup, "lxml")
    prefixes = frozenset(_XHTML_PREFIX.findall(markup))
    if prefixes:
        # XHTML written with a prefix (<h:p>, <h:script>): the HTML parser knows no
        # namespaces and would take every element for an unknown inline one, so
        # paragraphs ran together and scripts and styles were read as text
        for tag in soup.find_all(True):
            prefix, colon, local = (tag.name or "").partition(":")
            if colon and prefix in prefixes:
                tag.name = local
    return soup


def contents_links(markup: str) -> list[tuple[str, str]]:
    """The ``(href, text)`` of each link of a page's table of contents: an EPUB 3
    navigation document's ``<nav epub:type="toc">`` (its first ``nav`` when none says
    so), in document order."""
    navs = _soup(markup).find_all("nav")
    toc = next((nav for nav in navs
                if "toc" in str(nav.get("epub:type", "")).split()), navs[0] if navs else None)
    if toc is None:
        return []
    return [(str(link.get("href")), " ".join(link.get_text(" ").split()))
            for link in toc.find_all("a", href=True)]


def _after_body(soup: BeautifulSoup) -> Iterator[Any]:
    """What the parser left outside the body that browsers show at its end: text and
    elements after ``</body>`` or ``</html>`` (lxml starts a second ``html`` element
    for the latter). Heads, and the body walked already, are left out."""
    for top in list(soup.children):
        parts = top.children if isinstance(top, Tag) and top.name == "html" else [top]
        for part in list(parts):
            if not (isinstance(part, Tag) and part.name in ("head", "body")):
                yield part


def html_page(markup: str, number: int = 1, engine: str = "") -> tuple[PageContent, dict[str, str]]:
    """One page of visible text from HTML markup, and its title/language metadata; a
    page of more than ``MAX_TREE_TAGS`` tags is read flat (``metadata["structure"]``
    says so)."""
    markup = _without_internal_subset(markup)
    tags = markup.count("<")
    if tags > MAX_TREE_TAGS:
        return flat_page(markup, number, engine), {
            "structure": f"read flat: {tags:,} tags, over the {MAX_TREE_TAGS:,} a tree is "
            "built for; headings, lists and tables are plain paragraphs"
        }
    soup = _soup(markup)
    metadata: dict[str, str] = {}
    if soup.title is not None and soup.title.string:
        metadata["title"] = " ".join(soup.title.string.split())
    for meta in soup.find_all("meta", attrs={"name": True, "content": True}):
        key = _META_NAMES.get(str(meta.get("name")).strip().lower())
        content = " ".join(str(meta.get("content")).split())
        if key and content and key not in metadata:
            metadata[key] = content
    html_tag = soup.find("html")
    if isinstance(html_tag, Tag) and html_tag.get("lang"):
        metadata["language"] = str(html_tag.get("lang"))
    page = PageBuilder(number=number, engine=engine)
    walker = _Walker(page)
    if soup.body is None:
        walker.walk(soup)
    else:
        walker.walk(soup.body)
        walker.walk_nodes(_after_body(soup))
    walker.flush()
    return page.build(), metadata
