"""EPUB 3 spine documents that are SVG drawings, not XHTML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from samples import zip_bytes

Read = Callable[..., Any]
CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")
XHTML = "application/xhtml+xml"
SVG = "image/svg+xml"


def _book(documents: dict[str, tuple[str, str]]) -> bytes:
    """A book whose spine is ``documents`` in order: name -> (media type, content)."""
    items = "".join(f'<item id="d{n}" href="{name}" media-type="{kind}"/>'
                    for n, (name, (kind, _)) in enumerate(documents.items()))
    refs = "".join(f'<itemref idref="d{n}"/>' for n in range(len(documents)))
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Album</dc:title>'
           f"</metadata><manifest>{items}</manifest><spine>{refs}</spine></package>")
    return zip_bytes({"mimetype": "application/epub+zip", "META-INF/container.xml": CONTAINER,
                      "OEBPS/book.opf": opf,
                      **{f"OEBPS/{name}": text for name, (_, text) in documents.items()}})


def _drawing(*lines: str) -> str:
    texts = "".join(f'<text x="10" y="{20 * n}">{line}</text>' for n, line in enumerate(lines, 1))
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">{texts}</svg>'


def test_the_words_of_an_svg_spine_document_are_read_as_its_page(read: Read) -> None:
    book = _book({
        "intro.xhtml": (XHTML, '<html xmlns="http://www.w3.org/1999/xhtml"><body>'
                               "<p>Introducao</p></body></html>"),
        "pagina%201.svg": (SVG, _drawing("Era uma vez", "um reino distante")),
    })
    document = read(book, "album.epub")
    assert [page.text for page in document.pages] == [
        "Album\nIntroducao", "Era uma vez\num reino distante"]
    assert not document.report.warnings


def test_a_damaged_svg_spine_document_is_read_up_to_the_damage(read: Read) -> None:
    book = _book({"p1.svg": (SVG, _drawing("Primeira fala", "Segunda fala")[:-30])})
    document = read(book, "cortado.epub")
    assert document.pages[0].text.splitlines()[1] == "Primeira fala"
    assert document.report.truncated
    assert any("OEBPS/p1.svg read up to its damage" in w.message
               for w in document.report.warnings), document.report.warnings
