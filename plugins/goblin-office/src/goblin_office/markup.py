"""HTML (.html .htm .xhtml) and web archives (.mht .mhtml): visible text with structure.

Scripts, styles, templates and other invisible parts are dropped; headings,
list items and tables are kept as blocks and Tables so markdown and HTML
output keep them. The encoding comes from a BOM, then the declared charset if
the bytes agree with it, then detection (a page that lies about its charset
is still read).
"""

from __future__ import annotations

import codecs
import email
import email.policy
import html
import re
import warnings
from collections.abc import Iterator
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

from goblin_core.builtin.text import decode_text
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
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
    }
)
_MAX_DEPTH = 200
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
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
    }
)
# Past this many tags a page is read flat: BeautifulSoup builds a Python object per
# tag (a million nested divs took 20-50 s and 600 MB), and lxml's own tree stops at
# a depth of 256 and loses the text below it.
MAX_TREE_TAGS = 250_000
# One tag, comment, doctype or processing instruction; an unclosed comment runs to the end.
_BREAKS = _BLOCKS | set(_HEADINGS) | {"li", "tr", "td", "th"}
_MARKUP_TOKEN = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][\w:.-]*)[^>]*>|<[!?][^>]*>", re.S)
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)""", re.I)
_HEAD_COMMENT = re.compile(rb"<!--.*?(?:-->|\Z)", re.S)
# <meta name=...> properties kept as metadata, under these keys.
_META_NAMES = {"author": "author", "description": "description", "keywords": "keywords"}
_XML_ENCODING = re.compile(rb"""<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)""", re.I)


def decode_html(data: bytes) -> tuple[str, str]:
    """The page as text and the encoding used (BOM, declared charset if it fits, detection).

    A page declared UTF-8 with a few stray Windows-1252 bytes (text pasted into a
    UTF-8 template) keeps its UTF-8 and reads those bytes as Windows-1252, where one
    code page for the whole page would garble every UTF-8 letter ("Ãœber").
    """
    head = _HEAD_COMMENT.sub(b"", data[:4096])  # a commented-out <meta> declares nothing
    declared = _CHARSET.search(head) or _XML_ENCODING.search(head)
    name = declared.group(1).decode("ascii", "ignore").lower() if declared else None
    if name in ("unicode", "utf-16", "ucs-2"):
        name = None  # a BOM or the byte pattern decides which UTF-16
    return decode_declared(data, name)


def decode_declared(data: bytes, name: str | None) -> tuple[str, str]:
    """``data`` in its declared charset ``name`` if it fits, else detected; text
    declared UTF-8 that is mostly UTF-8 keeps it, each stray byte read as Windows-1252
    (see decode_html), where detection would read every letter in a DOS or Windows
    code page because of one broken sequence."""
    text, encoding = decode_text(data, name)
    if encoding not in ("utf-8", "utf_8", "ascii") and name in ("utf-8", "utf8"):
        mixed = _mostly_utf8(data)
        if mixed is not None:
            return mixed, "utf-8 (stray bytes as cp1252)"
    return text, encoding


# a UTF-8 sequence of two to four bytes, or one byte that cannot start or continue one
_UTF8_OR_STRAY = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}|([\x80-\xff])"
)


def _mostly_utf8(data: bytes) -> str | None:
    """``data`` decoded as UTF-8, each stray byte as Windows-1252, when well-formed UTF-8
    sequences outnumber stray bytes two to one; else None.

    Windows-1252 text alone almost never forms a UTF-8 sequence (a capital accented
    letter followed by a symbol), so well-formed sequences mean the page is UTF-8.
    """
    sequences = strays = 0
    for match in _UTF8_OR_STRAY.finditer(data):
        if match.group(1) is None:
            sequences += 1
        else:
            strays += 1
    if not sequences or strays * 2 > sequences:
        return None
    return data.decode("utf-8", errors=_CP1252_FALLBACK)


def _stray_as_cp1252(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    stray = error.object[error.start : error.end]
    return stray.decode("cp1252", errors="replace"), error.end


_CP1252_FALLBACK = "goblin-office-cp1252-fallback"
codecs.register_error(_CP1252_FALLBACK, _stray_as_cp1252)


class _Walker:
    """Turns an HTML tree into blocks: headings, paragraphs, list items, tables."""

    def __init__(self, page: PageBuilder) -> None:
        self.page = page
        self.inline: list[str] = []
        self.kind = "paragraph"

    def flush(self) -> None:
        text = " ".join("".join(self.inline).split())
        self.inline = []
        if text:
            self.page.add(text, self.kind)
        self.kind = "paragraph"

    def walk(self, node: Any, depth: int = 0) -> None:
        for child in node.children:
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
            self.flush()
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
            self.flush()
            self.page.add(" ".join(tag.get_text(" ").split()), "heading", _HEADINGS[name])
        elif name == "li":
            self.flush()
            self.kind = "list_item"
            self.walk(tag, depth)
            self.flush()
        elif name == "table":
            self.flush()
            self.table(tag)
        elif name == "pre":
            self.flush()
            self.page.add(tag.get_text().strip("\n"), "code")
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
        self.flush()
        content = tag.get_text()
        if "<" not in content:
            self.walk(tag, depth)
        else:
            fragment = BeautifulSoup(content, "lxml")
            self.walk(fragment.body if fragment.body is not None else fragment, depth)
        self.flush()

    def table(self, table: Tag) -> None:
        rows: list[list[str]] = []
        header_rows = 0
        for tr in _rows(table):
            cells = [c for c in tr.find_all(["td", "th"], recursive=False)]
            row: list[str] = []
            for cell in cells:
                row.append(" ".join(cell.get_text(" ").split()))
                span = str(cell.get("colspan", "1"))
                row.extend(
                    [""] * (min(int(span), 64) - 1 if span.isdigit() and int(span) > 1 else 0)
                )
            if cells and all(c.name == "th" for c in cells) and len(rows) == header_rows:
                header_rows += 1
            rows.append(row)
        self.page.add_table(rows, header_rows=header_rows)


def flat_text(tag: Tag) -> str:
    """The visible text under ``tag``, gathered without recursion."""
    parts = []
    for node in tag.descendants:
        if not isinstance(node, NavigableString) or isinstance(
            node, (Comment, Doctype, ProcessingInstruction)
        ):
            continue
        if node.parent is not None and (node.parent.name or "").lower() in _INVISIBLE:
            continue
        parts.append(str(node))
    return " ".join(" ".join(parts).split())


def _rows(table: Tag) -> Iterator[Tag]:
    for child in table.children:
        if not isinstance(child, Tag):
            continue
        if child.name == "tr":
            yield child
        elif child.name in ("thead", "tbody", "tfoot"):
            yield from (tr for tr in child.children if isinstance(tr, Tag) and tr.name == "tr")


def _hidden(tag: Tag) -> bool:
    if tag.attrs is None:
        return False
    if tag.has_attr("hidden") or str(tag.get("aria-hidden", "")).lower() == "true":
        return True
    style = str(tag.get("style", "")).replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


def flat_page(markup: str, number: int = 1, engine: str = "") -> PageContent:
    """The visible text of markup with too many tags for a tree, one paragraph per
    block, in one linear pass: what an invisible element holds (script, style...) is
    skipped to its end tag, or to the end of the page when it has none."""
    page = PageBuilder(number=number, engine=engine)
    pieces: list[str] = []
    position = 0
    # Searching only up to the last ">" keeps this linear: every "<" before it has a
    # ">" after it, so no attempt scans to the end of the page and fails.
    for match in _MARKUP_TOKEN.finditer(markup, 0, markup.rfind(">") + 1):
        start = match.start()
        if start < position:
            continue  # inside an invisible element skipped below
        pieces.append(markup[position:start])
        position = match.end()
        closing, name = match.group(1, 2)
        name = (name or "").lower()
        if name in _BREAKS:
            pieces.append("\n")
        elif name:
            pieces.append(" ")
        if name in _INVISIBLE and not closing and not match.group(0).endswith("/>"):
            end = re.compile(rf"</{re.escape(name)}\s*>", re.I).search(markup, position)
            position = end.end() if end else len(markup)
    pieces.append(markup[position:])
    for line in html.unescape("".join(pieces)).split("\n"):
        if not line.isspace() and line:
            page.add(" ".join(line.split()))
    return page.build()


def _soup(markup: str) -> BeautifulSoup:
    with warnings.catch_warnings():
        # XHTML is read with the HTML parser on purpose: it forgives what real pages get wrong
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        return BeautifulSoup(markup, "lxml")


def html_page(markup: str, number: int = 1, engine: str = "") -> tuple[PageContent, dict[str, str]]:
    """One page of visible text from HTML markup, and its title/language metadata; a
    page of more than ``MAX_TREE_TAGS`` tags is read flat (``metadata["structure"]``
    says so)."""
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
    walker.walk(soup.body if soup.body is not None else soup)
    walker.flush()
    return page.build(), metadata


def _refuse_binary(text: str, encoding: str, source: Source) -> None:
    if "\x00" in text:
        raise CorruptDocument(
            f"binary content, not a web page (decoded as {encoding})", file=source.display_name
        )


class HTMLParser(BaseEngine):
    """BeautifulSoup (lxml) for HTML and XHTML: visible text, headings, lists, tables."""

    name = "office.html"
    formats = (fmt.HTML,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        text, encoding = decode_html(source.bytes())
        _refuse_binary(text, encoding, source)
        page, metadata = html_page(text, engine=self.name)
        return TextDocument([page], metadata={**metadata, "encoding": encoding})


class MHTMLParser(BaseEngine):
    """Web archives (.mht, .mhtml): one page per HTML part, the main page first.

    A page that is a frameset (Excel's "single file web page" of a workbook is one)
    keeps its text in the other HTML parts, one per frame or sheet, so every HTML
    part is read, as Tika reads every part of an archive; a part with no text
    makes no page. An archive with no HTML part gives its plain-text part.
    """

    name = "office.mhtml"
    formats = (fmt.MHTML,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        message = email.message_from_bytes(source.bytes(), policy=email.policy.default)
        html_parts: list[Any] = []
        plain_part = None
        for part in message.walk():
            kind = part.get_content_type()
            if kind == "text/html":
                html_parts.append(part)
            elif kind == "text/plain" and plain_part is None:
                plain_part = part
        if not html_parts and plain_part is None:
            raise CorruptDocument(
                "the web archive holds no HTML or text part", file=source.display_name
            )
        if not html_parts:
            return TextDocument([_part_text(plain_part, source)])
        pages: list[PageContent] = []
        metadata: dict[str, str] = {}
        for part in html_parts:
            page, found = html_page(
                _part_text(part, source), number=len(pages) + 1, engine=self.name
            )
            metadata = metadata or found
            if page.text.strip():
                pages.append(page)
        return TextDocument(pages or [PageBuilder(engine=self.name).build()], metadata=metadata)


def _part_text(part: Any, source: Source) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload = b""
    charset = part.get_content_charset()
    text, encoding = decode_declared(payload, charset) if charset else decode_html(payload)
    _refuse_binary(text, encoding, source)
    return text
