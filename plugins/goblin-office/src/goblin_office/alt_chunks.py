"""Alternative-format chunks (``w:altChunk``): content a Word document merges in where it stands.

A document may hold a part in another format, HTML, a web archive (MHT), RTF or plain
text, that Word converts and shows in place of the ``w:altChunk`` element. Converters
from HTML to Word (html-docx-js and the like) write a whole document that way: its body
is one altChunk and its own paragraphs are empty. Each chunk is read with this
plugin's reader of its format and its headings, paragraphs, list items and tables are
added where the element stands. A chunk that is itself a Word document is not opened:
one level of merging is what Word reads too.
"""

from __future__ import annotations

from typing import Any

from goblin_core.builtin.text import PlainTextParser
from goblin_core.config import Config
from goblin_core.errors import CorruptDocument, GoblinError
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office.containers import read_member
from goblin_office.layout import PageBuilder
from goblin_office.ooxml import PackageXml

_HTML_HEAD = (b"<html", b"<!doctype", b"<?xml", b"<body", b"<head", b"<p", b"<div", b"<table")
_MIME_HEAD = (b"mime-version:", b"content-type:", b"from:", b"subject:")


def alt_chunk_pages(package: PackageXml, part: str, config: Config,
                    problems: list[tuple[str, str]]) -> dict[str, list[PageContent]]:
    """The pages of each alternative-format chunk ``part`` links, by relationship id; a
    chunk that cannot be read is left out, said in ``problems`` (kind, message)."""
    found: dict[str, list[PageContent]] = {}
    for relationship, (kind, target) in package.rels(part).items():
        member = package.member(target) if kind.endswith("/aFChunk") else None
        if member is None:
            continue
        name = f"{package.name}/{member}"
        try:
            data = read_member(package.archive, member, package.name)
        except CorruptDocument as exc:
            # a chunk that does not inflate costs its own text, not the document's body
            problems.append((exc.kind, f"merged chunk {member} left out: {exc.message}"))
            package.text_lost.append(member)
            continue
        try:
            found[relationship] = _chunk_pages(data, name, config)
        except GoblinError as exc:  # one chunk that cannot be read must not cost the rest
            problems.append((exc.kind, f"merged chunk {member} left out: {exc.message}"))
    return found


def _chunk_pages(data: bytes, name: str, config: Config) -> list[PageContent]:
    from goblin_office.markup import HTMLParser, MHTMLParser
    from goblin_office.rtf import RTFParser

    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    parser: Any
    if head.startswith(b"{\\rtf"):
        parser = RTFParser()
    elif head.startswith(_MIME_HEAD):
        parser = MHTMLParser()
    elif head.startswith(_HTML_HEAD):
        parser = HTMLParser()
    elif head.startswith(b"pk"):
        return []  # a Word document within: not merged again
    else:
        parser = PlainTextParser()
    document = parser.open(Source.from_bytes(data, name), config)
    return list(document.pages())


def merge_chunk(page: PageBuilder, pages: list[PageContent]) -> None:
    """Add the chunk ``pages``' blocks to ``page``, each table as a table, and count the
    hidden text they hold as the page's."""
    for chunk in pages:
        page.hidden += chunk.hidden_chars
        tables = iter(chunk.tables)
        if not chunk.blocks:
            page.add(chunk.text)
            continue
        for block in chunk.blocks:
            if block.kind == "table":
                table = next(tables, None)
                if table is not None:
                    page.add_table(table.rows, header_rows=table.header_rows)
                    continue
            page.add(block.text, block.kind, block.level)
