"""EPUB books: the spine's XHTML documents in reading order, one page per document."""

from __future__ import annotations

import posixpath
import urllib.parse
from dataclasses import replace
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import Block, PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.containers import open_container, read_member
from goblin_office.markup import decode_html
from goblin_office.safexml import attr, descendants, local_name, parse_xml

_DC = {
    "title": "title",
    "creator": "author",
    "language": "language",
    "date": "created",
    "publisher": "publisher",
    "identifier": "identifier",
}


class EPUBParser(BaseEngine):
    """EPUB 2 and 3: the OPF spine read in order, each XHTML document a page."""

    name = "office.epub"
    formats = (fmt.EPUB,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        name = source.display_name
        depth = int(config.get("limits", "max_xml_depth", 256))
        from goblin_office.html_tree import html_page  # BeautifulSoup, loaded when needed

        with open_container(source, config) as archive:
            names = set(archive.namelist())

            def xml(member: str) -> Any:
                return parse_xml(
                    read_member(archive, member, name), name=f"{name}:{member}", max_depth=depth
                )

            opf_path = _opf_path(
                xml("META-INF/container.xml") if "META-INF/container.xml" in names else None, names
            )
            if opf_path is None:
                raise CorruptDocument("the EPUB has no package document (OPF)", file=name)
            opf = xml(opf_path)
            pages: list[PageContent] = []
            for member in _spine(opf, opf_path):
                if member not in names:
                    continue
                text, _ = decode_html(read_member(archive, member, name))
                page, _meta = html_page(text, number=len(pages) + 1, engine=self.name)
                if page.text.strip():
                    pages.append(page)
        metadata = _metadata(opf)
        if not pages:
            pages = [PageContent(1)]  # an empty spine is an empty book, not an error
        return TextDocument(
            [_with_title(pages[0], metadata.get("title", "")), *pages[1:]], metadata=metadata
        )


def _with_title(page: PageContent, title: str) -> PageContent:
    """The first page headed by the book's title, as a reader shows it on the cover."""
    if not title or title in page.text:
        return page
    return replace(
        page,
        text=f"{title}\n{page.text}" if page.text else title,
        blocks=(Block("heading", title, 1), *page.blocks),
    )


def _opf_path(container: Any | None, names: set[str]) -> str | None:
    if container is not None:
        for rootfile in descendants(container, "rootfile"):
            path = attr(rootfile, "full-path")
            if path in names:
                return path
    return next((n for n in sorted(names) if n.endswith(".opf")), None)


def _spine(opf: Any, opf_path: str) -> list[str]:
    """The spine's documents in reading order, each once.

    A document the spine names again is not read again: a few bytes of itemrefs
    repeated would otherwise spell out one large chapter thousands of times.
    """
    folder = posixpath.dirname(opf_path)
    manifest = {attr(item, "id"): attr(item, "href") for item in descendants(opf, "item")}
    members: dict[str, None] = {}
    for itemref in descendants(opf, "itemref"):
        href = manifest.get(attr(itemref, "idref"))
        if href:
            path = urllib.parse.unquote(href.split("#", 1)[0])
            members[posixpath.normpath(posixpath.join(folder, path))] = None
    return list(members)


def _metadata(opf: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    for block in descendants(opf, "metadata"):
        for element in block:
            key = _DC.get(local_name(element))
            if key and (element.text or "").strip():
                found.setdefault(key, element.text.strip())
    return found
