"""HTML (.html .htm .xhtml) and web archives (.mht .mhtml): visible text with structure.

Scripts, styles, templates and other invisible parts are dropped; headings,
list items and tables are kept as blocks and Tables so markdown and HTML
output keep them. The encoding comes from a BOM, then the declared charset as
browsers read its label (ISO-8859-1 as Windows-1252) if the bytes agree with it,
then detection (a page that lies about its charset is still read).
"""

from __future__ import annotations

import re
from typing import Any

from goblin_core.builtin.text import (
    binary_content,
    declared_codecs,
    decode_text,
    without_stray_nuls,
)
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder
from goblin_office.mail import (
    decoded_payload,
    parse_mail,
    unclosed_parts,
    wide_unicode_label,
)

_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)""", re.I)
_HEAD_COMMENT = re.compile(rb"<!--.*?(?:-->|\Z)", re.S)
_XML_ENCODING = re.compile(rb"""<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)""", re.I)
_PAST_ASCII = re.compile(rb"[\x80-\xff]")
#: Bytes of a page's words a code page is guessed from, and how far around a byte past
#: ASCII its words are looked for
_WORDS_SAMPLE = 1 << 16
_WORDS_REACH = 4096
# Where the head ends: a charset declared anywhere before is the page's, as browsers take it.
_HEAD_END = re.compile(rb"</head\s*>|<body[\s>]", re.I)
#: How far the end of the head is looked for; a declaration past it is not looked for.
_HEAD_SEARCH = 1 << 20


def decode_markup(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """HTML or XML bytes as text, and the encoding used, as ``decode_text`` decodes them,
    but a code page guessed for undeclared text is guessed from the text between the
    tags that hold bytes past ASCII: the markup and most scripts are ASCII, and a page
    of them around a few lines of Russian or Greek in Windows-1251 or -1253 made the
    detector settle on Windows-1252.

    >>> page = "<html><body><div class='row'><p>Глава вторая.</p></div></body></html>"
    >>> decode_markup(page.encode("cp1251"))
    ("<html><body><div class='row'><p>Глава вторая.</p></div></body></html>", 'cp1251')
    """
    text, encoding = decode_text(data, declared)
    if encoding.startswith(("utf", "iso2022")) or (
            declared and encoding in declared_codecs(declared)):
        return text, encoding  # a BOM, a declaration, UTF-8, UTF-16 or ISO-2022: no guess
    words = _words(data)
    if not words:
        return text, encoding
    guessed = decode_text(words)[1]
    if guessed == encoding or guessed.startswith(("utf", "iso2022")):
        return text, encoding
    try:
        return data.decode(guessed), guessed
    except (UnicodeDecodeError, LookupError):
        return text, encoding


def _words(data: bytes) -> bytes:
    """The runs of text between tags that hold bytes past ASCII, one a line, up to
    ``_WORDS_SAMPLE`` bytes: found from those bytes, so a page of millions of tags costs
    no more than the sample (a sub() of every tag held a list of them, 1.3 GB for 55 MB)."""
    pieces: list[bytes] = []
    size = position = 0
    while size < _WORDS_SAMPLE and (found := _PAST_ASCII.search(data, position)):
        at = found.start()
        reach = max(position, at - _WORDS_REACH)
        start = max(data.rfind(b">", reach, at) + 1, reach)
        end = data.find(b"<", at, at + _WORDS_REACH)
        end = min(len(data), at + _WORDS_REACH) if end < 0 else end
        pieces.append(data[start:end])
        size += end - start
        position = max(end, at + 1)
    return b"\n".join(pieces)


def decode_html(data: bytes) -> tuple[str, str]:
    """The page as text and the encoding used (BOM, declared charset if it fits, as
    browsers read its label, else detection).

    A page declared ISO-8859-1 is read as Windows-1252, Big5 with the cp950 and HKSCS
    extensions, as browsers read them. A page with a few stray Windows-1252 bytes in
    its UTF-8 (text pasted into a UTF-8 template) keeps its UTF-8 and reads those bytes
    as Windows-1252, where one code page for the whole page would garble every UTF-8
    letter ("Ãœber").
    """
    # the declaration is looked for in the head, however long its scripts and styles
    head_end = _HEAD_END.search(data, 0, _HEAD_SEARCH)
    head = data[: max(4096, head_end.start() if head_end else 0)]
    head = _HEAD_COMMENT.sub(b"", head)  # a commented-out <meta> declares nothing
    declared = _CHARSET.search(head) or _XML_ENCODING.search(head)
    name = declared.group(1).decode("ascii", "ignore").lower() if declared else None
    if name is not None and wide_unicode_label(name):
        # found by its ASCII bytes, so the page is in no UTF-16 or UTF-32, whichever the
        # label says (browsers read UTF-16LE and UTF-16BE labels as UTF-8): a BOM or the
        # bytes decide
        name = None
    return decode_markup(data, name)


def decode_page(data: bytes) -> tuple[str, str, int]:
    """``decode_html``'s text and encoding, with stray NULs taken out (``without_stray_nuls``:
    a page padded with zeros where a save or download stopped, one in a paragraph), and
    how many there were. A browser shows such a page; one NUL refused it as binary."""
    text, encoding = decode_html(data)
    text, nuls = without_stray_nuls(text)
    return text, encoding, nuls


def nuls_dropped(nuls: int) -> list[tuple[str, str]]:
    """The warning saying ``decode_page`` took NULs out, when it did."""
    if not nuls:
        return []
    return [("CorruptDocument", f"{nuls:,} NUL character(s) dropped: no web page holds "
             "them (a file padded or damaged)")]


def _refuse_binary(text: str, encoding: str, source: Source) -> None:
    if binary_content(text):
        raise CorruptDocument(
            f"binary content, not a web page (decoded as {encoding})", file=source.display_name
        )


class HTMLParser(BaseEngine):
    """BeautifulSoup (lxml) for HTML and XHTML: visible text, headings, lists, tables."""

    name = "office.html"
    formats = (fmt.HTML,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        from goblin_office.html_tree import html_page  # BeautifulSoup, loaded when needed

        text, encoding, nuls = decode_page(source.bytes())
        _refuse_binary(text, encoding, source)
        page, metadata = html_page(text, engine=self.name)
        document = TextDocument([page], metadata={**metadata, "encoding": encoding})
        document.warnings = nuls_dropped(nuls)
        return document


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
        from goblin_office.html_tree import html_page  # BeautifulSoup, loaded when needed

        data = source.bytes()
        message = parse_mail(data)  # headers held to a length parsed in time
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
        warnings = unclosed_parts(message, data)
        if not html_parts:
            document = TextDocument([_part_text(plain_part, source)])
            document.warnings = warnings
            return document
        pages: list[PageContent] = []
        metadata: dict[str, str] = {}
        unread: list[CorruptDocument] = []
        for number, part in enumerate(html_parts, start=1):
            try:
                text = _part_text(part, source)
            except CorruptDocument as exc:
                # one damaged frame or page costs itself, not the pages beside it
                where = part.get("Content-Location") or f"HTML part {number}"
                warnings.append((exc.kind, f"{where} left out: {exc.message}"))
                unread.append(exc)
                continue
            page, found = html_page(text, number=len(pages) + 1, engine=self.name)
            metadata = metadata or found
            if page.text.strip():
                pages.append(page)
        if len(unread) == len(html_parts):
            raise unread[0]
        document = TextDocument(pages or [PageBuilder(engine=self.name).build()],
                                metadata=metadata)
        document.warnings = warnings
        if unread:
            document.left_out = (f"{len(unread)} of the archive's {len(html_parts)} HTML "
                                 "parts could not be read (see the warnings)")
        return document


def _part_text(part: Any, source: Source) -> str:
    # a transfer encoding mail clients decode where the standard library does not
    # (spaces around its name, base64 padded chunk by chunk) is decoded as in a mail
    payload = decoded_payload(part)
    if not isinstance(payload, bytes):
        payload = b""
    charset = part.get_content_charset()
    text, encoding = decode_text(payload, charset) if charset else decode_html(payload)
    _refuse_binary(text, encoding, source)
    return text
