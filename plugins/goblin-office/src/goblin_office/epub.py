"""EPUB books: the spine's XHTML documents in reading order, one page per document.

A book under DRM keeps its documents encrypted, listed in ``META-INF/encryption.xml``;
decoded as text they are noise. Such documents are left out with a warning, and a book
whose every document is encrypted is refused: goblin reads no DRM. Fonts obfuscated
by the IDPF or Adobe schemes are listed there too, and are no concern of the text.
"""

from __future__ import annotations

import html
import posixpath
import urllib.parse
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from goblin_core.builtin.text import binary_content
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument, PasswordRequired
from goblin_core.model import Block, PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.containers import open_container, read_member
from goblin_office.layout import PageBuilder
from goblin_office.markup import decode_html, decode_page, nuls_dropped
from goblin_office.safexml import (
    UnsafeXML,
    attr,
    children,
    descendants,
    local_name,
    parse_xml,
    parse_xml_file,
)

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

        # the package's own XML (container, OPF, encryption, NCX) goes through parse_xml,
        # which refuses declared entities; the chapters go through the HTML parser, which
        # expands none, so a chapter whose DOCTYPE declares &nbsp; costs the book nothing
        with open_container(source, config, scan_xml=False) as archive:
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
            encrypted = (_encrypted_members(xml("META-INF/encryption.xml"))
                         if "META-INF/encryption.xml" in names else {})
            pages: list[PageContent] = []
            spine, unlisted, foreign = _spine(opf, opf_path, names)
            drawings = _svg_members(opf, opf_path)
            missing = [member for member in spine if member not in names]
            spine = [member for member in spine if member in names]
            locked = [member for member in spine if member in encrypted]
            warnings = _spine_gaps(missing, unlisted)
            warnings += [("CorruptDocument", f"{href} left out: the spine names it, but it "
                          f"is {kind or 'of no media type'}, no document, and has none to "
                          "fall back on") for href, kind in foreign]
            # chapters the book lists that could not be read: their text is known lost
            lost: list[str] = [*missing, *unlisted, *locked,
                               *(href for href, _kind in foreign)]
            labels = _contents_labels(opf, opf_path, lambda member: read_member(
                archive, member, name), xml, names, warnings)
            for member in spine:
                if member in encrypted:
                    continue
                try:
                    data = read_member(archive, member, name)
                except CorruptDocument as exc:  # a damaged chapter, not the whole book
                    warnings.append((exc.kind, f"{member} left out: {exc.message}"))
                    lost.append(member)
                    continue
                if member in drawings:
                    try:
                        page, damage = _svg_page(data, f"{name}:{member}", depth,
                                                 len(pages) + 1, self.name)
                    except CorruptDocument as exc:
                        warnings.append((exc.kind, f"{member} left out: {exc.message}"))
                        lost.append(member)
                        continue
                    if damage:
                        warnings.append(("CorruptDocument", f"{member} read up to its "
                                         f"damage: {damage}"))
                        lost.append(member)
                    if page.text.strip():
                        pages.append(replace(page, label=labels.get(member, "")))
                    continue
                text, encoding, nuls = decode_page(data)
                warnings += [(kind, f"{member}: {message}") for kind, message in nuls_dropped(nuls)]
                if binary_content(text):
                    warnings.append(("CorruptDocument", f"{member}: binary content, not an "
                                     f"XHTML document (decoded as {encoding}); left out"))
                    lost.append(member)
                    continue
                page, _meta = html_page(_cdata_as_text(text), number=len(pages) + 1,
                                        engine=self.name)
                if page.text.strip():
                    pages.append(replace(page, label=labels.get(member, "")))
        if locked:
            method = encrypted[locked[0]]
            if len(locked) == len(spine):
                # encrypted, as a password-protected file is, though no password opens it
                raise PasswordRequired(
                    f"the EPUB is DRM-protected: its documents are encrypted ({method}) with a "
                    "key that only the seller's reading app holds, not a password; goblin "
                    "reads no DRM-protected book", file=name)
            warnings.insert(0, ("Encrypted", (
                f"{len(locked)} of the book's {len(spine)} documents are encrypted (DRM, "
                f"{method}) and left out: {', '.join(locked[:5])}"
                + (", ..." if len(locked) > 5 else ""))))
        metadata = _metadata(opf)
        if not pages:
            pages = [PageContent(1)]  # an empty spine is an empty book, not an error
        document = TextDocument(
            [_with_title(pages[0], metadata.get("title", "")), *pages[1:]], metadata=metadata
        )
        document.warnings = warnings
        if lost:
            more = f" and {len(lost) - 3} more" if len(lost) > 3 else ""
            document.left_out = (f"{len(lost)} of the book's documents could not be read: "
                                 f"{', '.join(lost[:3])}{more} (see the warnings)")
        return document


#: Algorithms encryption.xml names for fonts scrambled against copying, not for content.
_FONT_OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding",
                               "http://ns.adobe.com/pdf/enc#RC"})


def _encrypted_members(encryption: Any) -> dict[str, str]:
    """Member -> encryption algorithm, for what ``META-INF/encryption.xml`` lists as
    encrypted for other reasons than font obfuscation."""
    found: dict[str, str] = {}
    for data in descendants(encryption, "EncryptedData"):
        method = next((attr(m, "Algorithm") for m in descendants(data, "EncryptionMethod")), "")
        if method in _FONT_OBFUSCATION:
            continue
        for reference in descendants(data, "CipherReference"):
            uri = urllib.parse.unquote(attr(reference, "URI") or "")
            if uri:
                found[posixpath.normpath(uri.lstrip("/"))] = method.rpartition("#")[2] or method
    return found


def _cdata_as_text(chapter: str) -> str:
    """An XHTML chapter with its CDATA sections written as escaped text: a reading
    system parses the chapter as XML, where a CDATA section is text it shows, while the
    HTML parser that reads it here takes one for a comment and dropped its words.

    Sections are found with ``find``, each end looked for once: a pattern would scan to
    the chapter's end again for each section opened and never closed."""
    pieces: list[str] = []
    position = 0
    while (start := chapter.find("<![CDATA[", position)) >= 0:
        end = chapter.find("]]>", start)
        if end < 0:
            break
        pieces += [chapter[position:start], html.escape(chapter[start + 9:end], quote=False)]
        position = end + 3
    return "".join(pieces) + chapter[position:] if pieces else chapter


def _svg_members(opf: Any, opf_path: str) -> set[str]:
    """The members the manifest lists as SVG documents (``image/svg+xml``), which EPUB 3
    allows in the spine beside XHTML: a page drawn as an image whose words are SVG text.
    Read as HTML, an ``svg`` element shows nothing, and their words were lost."""
    folder = posixpath.dirname(opf_path)
    return {posixpath.normpath(posixpath.join(folder, path))
            for item in descendants(opf, "item")
            if attr(item, "media-type").strip().lower() == "image/svg+xml"
            for href in [attr(item, "href").split("#", 1)[0]]
            for path in (urllib.parse.unquote(href), href)}


def _svg_page(data: bytes, name: str, depth: int, number: int,
              engine: str) -> tuple[PageContent, str]:
    """The text an SVG spine document draws (``svg_lines``), read as the SVG reader reads
    a file: entities as their text, one that is not well formed up to its damage, which
    is then said (else "")."""
    from goblin_office.xmltext import svg_lines

    damage = ""
    try:
        root, _entities = parse_xml_file(data, name=name, max_depth=depth)
    except UnsafeXML:
        raise
    except CorruptDocument as exc:
        damage = exc.message
        root, _entities = parse_xml_file(data, name=name, max_depth=depth, recover=True)
    page = PageBuilder(engine=engine, number=number)
    for line in svg_lines(root):
        page.add(line)
    return page.build(), damage


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


def _spine(opf: Any, opf_path: str, names: set[str]
           ) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """The spine's documents in reading order, each once; the ids it names that the
    manifest lists no document for; and the resources it names that are no document
    and have none to fall back on (member, media type), pictures aside.

    A document the spine names again is not read again: a few bytes of itemrefs
    repeated would otherwise spell out one large chapter thousands of times. An href is
    percent-encoded (``Cap%C3%ADtulo%201.xhtml``), but a package whose member is named
    as the href is written is read too. A resource that is no document (a PDF, a
    picture) stands in the spine for the document its manifest ``fallback`` chain leads
    to, as reading systems show that one; a picture with none is a page of no words
    (a cover), read as nothing.
    """
    folder = posixpath.dirname(opf_path)
    manifest = {attr(item, "id"): item for item in descendants(opf, "item")}
    members: dict[str, None] = {}
    unlisted: dict[str, None] = {}
    foreign: list[tuple[str, str]] = []
    for itemref in descendants(opf, "itemref"):
        idref = attr(itemref, "idref")
        item = _document_of(manifest, idref)
        href = attr(item, "href").split("#", 1)[0] if item is not None else ""
        if not href:
            if idref not in manifest:
                unlisted[idref] = None
                continue
            kind = attr(manifest[idref], "media-type").strip().lower()
            if not kind.startswith(_PICTURES):
                foreign.append((attr(manifest[idref], "href"), kind))
            continue
        paths = [posixpath.normpath(posixpath.join(folder, path))
                 for path in (urllib.parse.unquote(href), href)]
        members[next((path for path in paths if path in names), paths[0])] = None
    return list(members), list(unlisted), foreign


#: Media types the spine's documents are read as: XHTML and HTML, SVG, and text or XML
#: of any kind (a type left out, or a mislabelled one, is read by its content too)
_DOCUMENTS = ("application/xhtml+xml", "text/", "image/svg+xml", "application/xml",
              "application/x-dtbook+xml", "application/x-dtbncx+xml")
#: Resources that show no words of their own to read: pictures, sound, video
_PICTURES = ("image/", "audio/", "video/")


def _document_of(manifest: dict[str, Any], idref: str) -> Any | None:
    """The manifest item a spine entry shows: the item itself when it is a document (or
    names no media type), else the first document its ``fallback`` chain leads to; None
    when there is none (each item of a chain looked at once: a chain may loop)."""
    seen: set[str] = set()
    item = manifest.get(idref)
    while item is not None and idref not in seen:
        kind = attr(item, "media-type").strip().lower()
        if not kind or kind.startswith(_DOCUMENTS):
            return item
        seen.add(idref)
        idref = attr(item, "fallback")
        item = manifest.get(idref)
    return None


def _contents_labels(opf: Any, opf_path: str, read: Callable[[str], bytes],
                     xml: Callable[[str], Any], names: set[str],
                     warnings: list[tuple[str, str]]) -> dict[str, str]:
    """Each document's title in the book's table of contents, to label its page: the
    first entry pointing at the document's start, else the first pointing into it
    (``#section``); from the EPUB 3 navigation document, else the EPUB 2 NCX. A table
    of contents that cannot be read costs the labels only, with a warning."""
    from goblin_office.html_tree import contents_links  # BeautifulSoup, loaded when needed

    folder = posixpath.dirname(opf_path)
    items = descendants(opf, "item")
    spines = descendants(opf, "spine")
    toc_id = attr(spines[0], "toc") if spines else ""
    nav = next((item for item in items if "nav" in attr(item, "properties").split()), None)
    ncx = next((item for item in items if (toc_id and attr(item, "id") == toc_id)
                or attr(item, "media-type") == "application/x-dtbncx+xml"), None)
    labels: dict[str, str] = {}
    inside: dict[str, str] = {}  # entries pointing into a document, past its start
    for item in (nav, ncx):
        if item is None or labels or inside:
            continue
        member = posixpath.normpath(posixpath.join(
            folder, urllib.parse.unquote(attr(item, "href").split("#", 1)[0])))
        if member not in names:
            continue
        try:
            links = (contents_links(decode_html(read(member))[0]) if item is nav
                     else _ncx_links(xml(member)))
        except CorruptDocument as exc:
            warnings.append((exc.kind, f"the table of contents {member} cannot be read, so "
                             f"pages are not labelled with their titles: {exc.message}"))
            continue
        base = posixpath.dirname(member)
        for href, text in links:
            path, _, fragment = href.partition("#")
            target = urllib.parse.unquote(path)
            if text and target:
                (inside if fragment else labels).setdefault(
                    posixpath.normpath(posixpath.join(base, target)), text)
    return {**inside, **labels}


def _ncx_links(ncx: Any) -> list[tuple[str, str]]:
    """The ``(src, label)`` of each entry of an EPUB 2 NCX, in document order."""
    links: list[tuple[str, str]] = []
    for point in descendants(ncx, "navPoint"):
        label = next((" ".join("".join(text.itertext()).split())
                      for navlabel in children(point, "navLabel")
                      for text in children(navlabel, "text")), "")
        source = next((attr(content, "src") for content in children(point, "content")), "")
        links.append((source, label))
    return links


def _spine_gaps(missing: list[str], unlisted: list[str]) -> list[tuple[str, str]]:
    """Warnings for the spine's documents the book does not hold: a chapter lost, which a
    reader must know of, not a gap nobody sees."""
    warnings: list[tuple[str, str]] = []
    for what, items in (("the package does not hold", missing),
                        ("the manifest lists no document for", unlisted)):
        if items:
            shown = ", ".join(repr(item) for item in items[:5])
            more = f" and {len(items) - 5} more" if len(items) > 5 else ""
            warnings.append(("CorruptDocument", f"{len(items)} of the spine's documents left "
                             f"out: {what} {shown}{more}"))
    return warnings


def _metadata(opf: Any) -> dict[str, str]:
    """Title, authors (every ``dc:creator`` whose role, EPUB 2's ``opf:role`` or an EPUB 3
    ``<meta refines="#id" property="role">``, is none or ``aut``, joined by "; " as
    FictionBook's are), language, date, publisher and identifier."""
    found: dict[str, str] = {}
    authors: dict[str, None] = {}
    roles = {attr(meta, "refines").lstrip("#"): (meta.text or "").strip()
             for meta in descendants(opf, "meta") if attr(meta, "property") == "role"}
    for block in descendants(opf, "metadata"):
        for element in block:
            key = _DC.get(local_name(element))
            text = " ".join((element.text or "").split())
            if key == "author":
                role = attr(element, "role") or roles.get(attr(element, "id"), "")
                if text and role in ("", "aut"):
                    authors[text] = None
            elif key and text:
                found.setdefault(key, text)
    if authors:
        found["author"] = "; ".join(authors)
    return found
