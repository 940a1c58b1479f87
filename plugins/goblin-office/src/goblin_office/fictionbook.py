"""FictionBook 2 (``.fb2``), the XML e-book format of Russian and Eastern European
libraries: one XML file holding the book's description, its bodies and its pictures.

Each top-level section of the main body (a chapter, or a part holding chapters) is a
page labelled with its title; the book's own title and epigraphs go on the first. The
other bodies (footnotes, comments) follow, one page each. Titles and subtitles are
headings, inline markup (emphasis, strong, links to notes) is read in its paragraph
with the spacing the book gives it, poems line by line, tables as tables. The
pictures (``binary``, base64 data that can be most of the file) are never text. The
description gives title, authors, language, date, genres, annotation and publisher.
"""

from __future__ import annotations

from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder
from goblin_office.safexml import Entities, attr, children, local_name, parse_xml_file
from goblin_office.xmltext import READ_TAIL, in_read_encoding, leniently, lost_after_damage

#: Elements read as one block of text each, their inline markup joined in.
_PARAGRAPHS = frozenset({"p", "v", "text-author", "subtitle", "date"})
#: Elements whose children are blocks (walked into).
_CONTAINERS = frozenset({"section", "epigraph", "cite", "poem", "stanza", "annotation"})
#: Elements holding a line of text: a book cut inside one lost the rest of the line.
_PARAGRAPHS = frozenset({"p", "v", "subtitle", "text-author", "td", "th"})
#: Headings deeper than this are read at this level.
_MAX_LEVEL = 6


class FictionBookParser(BaseEngine):
    """FictionBook 2 e-books: chapters as pages, notes after them, the description as
    metadata; pictures left out."""

    name = "office.fictionbook"
    formats = (fmt.FICTIONBOOK,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data, name = in_read_encoding(source.bytes()), source.display_name
        depth = int(config.get("limits", "max_xml_depth", 256))

        def read(recover: bool) -> tuple[Any, Entities, list[PageContent]]:
            root, entities = parse_xml_file(data, name=name, max_depth=depth, recover=recover)
            if local_name(root) != "FictionBook":
                raise CorruptDocument("the XML root is not FictionBook", file=name)
            return root, entities, self._pages(root)

        # a book cut short (a download that stopped) keeps its chapters before the cut
        (root, entities, pages), warnings = leniently(read, lambda reading: bool(reading[2]))
        metadata = {**_description(root), **({"recovered": True} if warnings else {})}
        document = TextDocument(pages or [PageContent(1)], metadata=metadata)
        document.warnings = [*warnings, *entities.warnings()]
        if warnings:
            # the whole tree's text (pictures' base64 too), so a book whose last element
            # is a picture is compared with what it ends with
            ending = " ".join(root.itertext())[-2 * READ_TAIL:]
            document.left_out = lost_after_damage(data, ending, _PARAGRAPHS)
        return document

    def _pages(self, root: Any) -> list[PageContent]:
        bodies = children(root, "body")
        pages: list[PageContent] = []
        for index, body in enumerate(bodies):
            if index == 0 or not attr(body, "name"):
                pages.extend(self._main_body(body, len(pages)))
            else:
                page = PageBuilder(number=len(pages) + 1, label=attr(body, "name"),
                                   engine=self.name)
                _blocks(body, page, level=1)
                if page.lines:
                    pages.append(page.build())
        return pages

    def _main_body(self, body: Any, before: int) -> list[PageContent]:
        """One page per top-level section; what comes before the first (the book's title,
        its epigraphs) on the first section's page."""
        pages: list[PageBuilder] = []
        current = PageBuilder(number=before + 1, engine=self.name)
        holds_section = False
        for element in body:
            if local_name(element) != "section":
                _block(element, current, level=1)
                continue
            if holds_section and current.lines:
                pages.append(current)
                current = PageBuilder(number=before + len(pages) + 1, engine=self.name)
            current.label = current.label or _plain(next(iter(children(element, "title")),
                                                         None))
            _blocks(element, current, level=2)  # level 1 is the book's own title
            holds_section = True
        pages.append(current)
        return [p.build() for p in pages if p.lines]


def _blocks(container: Any, page: PageBuilder, level: int) -> None:
    for element in container:
        _block(element, page, level)


def _block(element: Any, page: PageBuilder, level: int) -> None:
    kind = local_name(element)
    if kind == "title":
        for line in children(element, "p") or [element]:
            page.add(_inline(line), "heading", min(level, _MAX_LEVEL))
    elif kind == "subtitle":
        page.add(_inline(element), "heading", min(level + 1, _MAX_LEVEL))
    elif kind in _PARAGRAPHS:
        page.add(_inline(element))
    elif kind == "section":
        _blocks(element, page, level + 1)
    elif kind in _CONTAINERS:
        _blocks(element, page, level)
    elif kind == "table":
        rows = [[_inline(cell) for cell in row if local_name(cell) in ("td", "th")]
                for row in children(element, "tr")]
        page.add_table(rows)
    # image, empty-line and anything else hold no text


def _inline(element: Any) -> str:
    """The element's text with its inline markup's, in the book's own spacing."""
    return " ".join("".join(element.itertext()).split())


def _plain(element: Any | None) -> str:
    if element is None:
        return ""
    return " ".join(_inline(p) for p in (children(element, "p") or [element]))


def _person(element: Any) -> str:
    names = [_inline(part) for name in ("first-name", "middle-name", "last-name")
             for part in children(element, name)]
    spelled = " ".join(n for n in names if n)
    return spelled or " ".join(_inline(n) for n in children(element, "nickname"))


def _description(root: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    description = next(iter(children(root, "description")), None)
    if description is None:
        return found
    info = next(iter(children(description, "title-info")), None)
    if info is not None:
        title = " ".join(_inline(t) for t in children(info, "book-title"))
        authors = [a for a in (_person(p) for p in children(info, "author")) if a]
        for key, value in (
            ("title", title),
            ("author", "; ".join(authors)),
            ("language", " ".join(_inline(t) for t in children(info, "lang"))),
            ("source_language", " ".join(_inline(t) for t in children(info, "src-lang"))),
            ("keywords", ", ".join(_inline(g) for g in children(info, "genre"))),
            ("subject", " ".join(_inline(a) for a in children(info, "annotation"))),
        ):
            if value:
                found[key] = value
        for date in children(info, "date"):
            found["created"] = attr(date, "value") or _inline(date)
        translators = [t for t in (_person(p) for p in children(info, "translator")) if t]
        if translators:
            found["translator"] = "; ".join(translators)
    publish = next(iter(children(description, "publish-info")), None)
    if publish is not None:
        for key, name in (("publisher", "publisher"), ("isbn", "isbn"), ("year", "year")):
            value = " ".join(_inline(e) for e in children(publish, name))
            if value:
                found[key] = value
    document = next(iter(children(description, "document-info")), None)
    if document is not None:
        program = " ".join(_inline(e) for e in children(document, "program-used"))
        if program:
            found["creator"] = program
    return {k: v for k, v in found.items() if v}
