"""An EPUB's pages are labelled with their titles in the book's table of contents: the
EPUB 3 navigation document's, else the EPUB 2 NCX's; the entry pointing at a document's
start before one pointing inside it; an unreadable table of contents costs the labels
only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from samples import zip_bytes

Read = Callable[..., Any]
CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")
NAV = ('<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
       'xmlns:epub="http://www.idpf.org/2007/ops"><body>'
       '<nav epub:type="landmarks"><ol><li><a href="Text/c2.xhtml">Começo</a></li></ol></nav>'
       '<nav epub:type="toc"><ol><li><a href="Text/c1.xhtml">Capítulo&#160;1</a></li>'
       '<li><a href="Text/c2.xhtml#s1">Capítulo <em>2</em></a></li></ol></nav></body></html>')
NCX = ('<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap>'
       '<navPoint id="p1"><navLabel><text>Parte um</text></navLabel>'
       '<content src="Text/c1.xhtml"/><navPoint id="p1a"><navLabel><text>Seção</text>'
       '</navLabel><content src="Text/c2.xhtml#s"/></navPoint></navPoint>'
       '<navPoint id="p2"><navLabel><text>Parte dois</text></navLabel>'
       '<content src="Text/c2.xhtml"/></navPoint></navMap></ncx>')


def _book(nav: str | None, ncx: str | None, spine: str = '<spine toc="ncx">') -> bytes:
    items = ('<item id="c1" href="Text/c1.xhtml" media-type="application/xhtml+xml"/>'
             '<item id="c2" href="Text/c2.xhtml" media-type="application/xhtml+xml"/>'
             '<item href="estilo.css" media-type="text/css"/>')
    members = {"mimetype": "application/epub+zip", "META-INF/container.xml": CONTAINER,
               "OEBPS/estilo.css": "p { margin: 0 }"}
    if nav is not None:
        items += ('<item id="nav" href="nav.xhtml" properties="nav" '
                  'media-type="application/xhtml+xml"/>')
        members["OEBPS/nav.xhtml"] = nav
    if ncx is not None:
        items += '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
        members["OEBPS/toc.ncx"] = ncx
    members["OEBPS/book.opf"] = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Livro</dc:title>'
        f"</metadata><manifest>{items}</manifest>{spine}<itemref idref=\"c1\"/>"
        '<itemref idref="c2"/></spine></package>')
    for number in (1, 2):
        members[f"OEBPS/Text/c{number}.xhtml"] = (
            '<html xmlns="http://www.w3.org/1999/xhtml"><body>'
            f"<p>Texto {number}</p></body></html>")
    return zip_bytes(members)


def test_pages_take_their_titles_from_the_navigation_document(read: Read) -> None:
    document = read(_book(NAV, NCX), "livro.epub")
    assert [page.label for page in document.pages] == ["Capítulo 1", "Capítulo 2"]


def test_pages_take_their_titles_from_the_ncx_start_entries_first(read: Read) -> None:
    document = read(_book(None, NCX), "livro.epub")
    assert [page.label for page in document.pages] == ["Parte um", "Parte dois"]


def test_an_unreadable_table_of_contents_costs_the_labels_only(read: Read) -> None:
    document = read(_book(None, NCX[:120]), "livro.epub")
    assert [page.text for page in document.pages] == ["Livro\nTexto 1", "Texto 2"]
    assert [page.label for page in document.pages] == ["", ""]
    assert any("toc.ncx" in w.message for w in document.report.warnings)



def test_a_book_without_a_table_of_contents_reads_without_a_warning(read: Read) -> None:
    # its style sheet, listed with no id, is no table of contents
    document = read(_book(None, None, "<spine>"), "livro.epub")
    assert [page.text for page in document.pages] == ["Livro\nTexto 1", "Texto 2"]
    assert not document.report.warnings
