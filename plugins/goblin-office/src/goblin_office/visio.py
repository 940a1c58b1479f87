"""Visio drawings (.vsdx .vsdm .vstx), read from their XML: one page per drawing page.

The pages are found through the package's relationships (document, then the
pages part, then each page in its order) and each page's shapes are read in
document order, groups opened, their text only: field markers and the
shapes' geometry and data cells are not text.
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
from goblin_office.ooxml import PackageXml, open_package, package_document
from goblin_office.safexml import attr, children, descendants


def _shape_texts(page_root: Any) -> list[str]:
    texts = []
    for text in descendants(page_root, "Text"):
        # a Text inside a Text is read with the outer one; read again on its own, text
        # nested a few hundred deep would be spelled out a few hundred times
        if next(text.iterancestors("{*}Text"), None) is not None:
            continue
        value = "\n".join(line.strip() for line in "".join(text.itertext()).splitlines())
        if value.strip():
            texts.append(value.strip())
    return texts


def _pages(package: PackageXml, document: str) -> list[tuple[str, str]]:
    """(name, part) of each drawing page, in the pages part's order; background pages last.

    A page part is read once, under the first page naming it: a few bytes of page
    entries repeated would otherwise spell out one large page thousands of times.
    """
    found: dict[str, str] = {}
    for pages_part in package.related(document, "/pages"):
        targets = {rel_id: target for rel_id, (_, target) in package.rels(pages_part).items()}
        for page in children(package.xml(pages_part), "Page"):
            rel = next(iter(children(page, "Rel")), None)
            target = targets.get(attr(rel, "id")) if rel is not None else None
            # a page the package lacks stays in the list, to be a failed page in its place
            if target is not None and target not in found:
                found[target] = attr(page, "Name") or attr(page, "NameU")
    return [(name, target) for target, name in found.items()]


class VisioParser(BaseEngine):
    """Visio 2013+ drawings: each page's shape text, page names as labels."""

    name = "office.visio"
    formats = (fmt.VSDX,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        plain, archive = open_package(source, config)
        with archive:
            package = PackageXml(archive, source.display_name, config)
            documents = package.related("", "/relationships/document")
            if not documents:
                raise CorruptDocument(
                    "the package has no Visio document part", file=source.display_name
                )
            document = documents[0]
            pages: list[PageContent] = []
            for number, (name, part) in enumerate(_pages(package, document), start=1):
                root = package.page_xml(part, number, name)
                if isinstance(root, PageContent):
                    pages.append(root)
                    continue
                page = PageBuilder(number=number, label=name, engine=self.name)
                for text in _shape_texts(root):
                    page.add(text)
                pages.append(page.build())
            if not pages:
                raise CorruptDocument("the drawing holds no page", file=source.display_name)
            if all(page.error for page in pages):
                raise CorruptDocument(f"no page of the drawing can be read ({pages[0].error})",
                                      file=source.display_name)
            return package_document(pages, package, plain, config)
