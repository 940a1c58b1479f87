"""XPS and OpenXPS documents (.xps .oxps): the text of each fixed page.

A fixed page draws text as ``Glyphs`` runs, each with its origin and its
characters (``UnicodeString``). The pages are found through the package: the
fixed-representation relationship names the document sequence, which names
its documents, which name their pages in order. Runs on one baseline are one
line; lines go top to bottom as the page draws them. OpenXPS differs only in
its namespaces, which are not looked at, so it reads the same way.
"""

from __future__ import annotations

import posixpath
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder
from goblin_office.ooxml import PackageXml, open_package, package_document
from goblin_office.safexml import attr, descendants


def _resolve(base_part: str, reference: str) -> str:
    if reference.startswith("/"):
        return reference.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_part), reference))


def _sources(package: PackageXml, part: str, element: str, *, missing: bool = False) -> list[str]:
    """The parts the ``element`` references of ``part`` name; ``missing``: those the
    package does not hold too (a page that is lost, to be a failed page in its place)."""
    found = []
    for reference in descendants(package.xml(part), element):
        target = _resolve(part, attr(reference, "Source"))
        if missing or package.member(target) is not None:
            found.append(target)
    return found


def _page_parts(package: PackageXml) -> list[str]:
    """The fixed pages in reading order, each once.

    A document or page named again is not read again: a few bytes of references
    repeated would otherwise spell out one large page thousands of times.
    """
    documents = dict.fromkeys(
        document
        for sequence in package.related("", "/fixedrepresentation")
        for document in _sources(package, sequence, "DocumentReference")
    )
    pages = dict.fromkeys(
        page for document in documents
        for page in _sources(package, document, "PageContent", missing=True)
    )
    return list(pages)


def _glyph_text(glyphs: Any) -> str:
    text = attr(glyphs, "UnicodeString")
    return text[2:] if text.startswith("{}") else text  # "{}" escapes a leading brace


def page_lines(root: Any) -> list[str]:
    """The page's text runs, those on one baseline joined into a line."""
    # a line is gathered as its runs and joined once: grown a run at a time, a
    # baseline of a hundred thousand runs is copied a hundred thousand times
    lines: list[list[str]] = []
    baseline: str | None = None
    for glyphs in descendants(root, "Glyphs"):
        text = _glyph_text(glyphs)
        if not text:
            continue
        origin = attr(glyphs, "OriginY")
        if lines and origin == baseline:
            if not (lines[-1][-1].endswith(" ") or text.startswith(" ")):
                lines[-1].append(" ")
            lines[-1].append(text)
        else:
            lines.append([text])
        baseline = origin
    joined = ("".join(runs) for runs in lines)
    return [" ".join(line.split()) for line in joined if line.strip()]


class XPSParser(BaseEngine):
    """XPS and OpenXPS: one page per fixed page, its glyph runs as lines."""

    name = "office.xps"
    formats = (fmt.XPS,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        plain, archive = open_package(source, config)
        with archive:
            package = PackageXml(archive, source.display_name, config)
            parts = _page_parts(package)
            if not parts:
                raise CorruptDocument("the document has no fixed page", file=source.display_name)
            pages: list[PageContent] = []
            for number, part in enumerate(parts, start=1):
                root = package.page_xml(part, number)
                if isinstance(root, PageContent):
                    pages.append(root)
                    continue
                page = PageBuilder(number=number, engine=self.name)
                for line in page_lines(root):
                    page.add(line)
                pages.append(page.build())
            if all(page.error for page in pages):
                raise CorruptDocument(f"no page of the document can be read ({pages[0].error})",
                                      file=source.display_name)
            return package_document(pages, package, plain, config)
