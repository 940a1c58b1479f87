"""EPUB books whose spine names a document the package does not hold, or an id the
manifest does not list, say which were left out; a member named as its percent-encoded
href is read; every author of the book is in the metadata."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from samples import zip_bytes

Read = Callable[..., Any]
CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")


def _chapter(text: str) -> str:
    return f'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>{text}</p></body></html>'


def _book(manifest: dict[str, str], spine: list[str], chapters: dict[str, str],
          metadata: str = "<dc:title>Livro</dc:title>") -> bytes:
    items = "".join(f'<item id="{key}" href="{href}" media-type="application/xhtml+xml"/>'
                    for key, href in manifest.items())
    refs = "".join(f'<itemref idref="{key}"/>' for key in spine)
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" '
           'xmlns:opf="http://www.idpf.org/2007/opf" version="2.0">'
           f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">{metadata}</metadata>'
           f"<manifest>{items}</manifest><spine>{refs}</spine></package>")
    return zip_bytes({"mimetype": "application/epub+zip", "META-INF/container.xml": CONTAINER,
                      "OEBPS/book.opf": opf,
                      **{f"OEBPS/{name}": text for name, text in chapters.items()}})


def test_a_spine_document_the_book_lacks_is_named_in_a_warning(read: Read) -> None:
    book = _book({"c1": "c1.xhtml", "c2": "c2.xhtml", "c3": "c3.xhtml"},
                 ["c1", "c2", "c3", "sumido"],
                 {"c1.xhtml": _chapter("Capítulo um"), "c3.xhtml": _chapter("Capítulo três")})
    document = read(book, "lacunas.epub")
    assert [page.text for page in document.pages] == ["Livro\nCapítulo um", "Capítulo três"]
    messages = [w.message for w in document.report.warnings]
    assert any("OEBPS/c2.xhtml" in m and "does not hold" in m for m in messages), messages
    assert any("'sumido'" in m and "manifest" in m for m in messages), messages


def test_a_member_named_as_its_percent_encoded_href_is_read(read: Read) -> None:
    book = _book({"c1": "Cap%C3%ADtulo%201.xhtml"}, ["c1"],
                 {"Cap%C3%ADtulo%201.xhtml": _chapter("Texto do capítulo")})
    document = read(book, "nomes.epub")
    assert document.text == "Livro\nTexto do capítulo"
    assert not document.report.warnings


def test_every_author_of_the_book_is_in_the_metadata(read: Read) -> None:
    metadata = ("<dc:title>Livro</dc:title><dc:creator opf:role=\"aut\">Ana Lima</dc:creator>"
                "<dc:creator>Rui  Costa</dc:creator>"
                "<dc:creator opf:role=\"ill\">Ilustradora</dc:creator>")
    book = _book({"c1": "c1.xhtml"}, ["c1"], {"c1.xhtml": _chapter("Texto")}, metadata)
    assert read(book, "autores.epub").metadata["author"] == "Ana Lima; Rui Costa"


def test_an_epub_3_creator_refined_to_another_role_is_no_author(read: Read) -> None:
    metadata = ('<dc:title>Livro</dc:title><dc:creator id="a1">Ana Lima</dc:creator>'
                '<meta refines="#a1" property="role" scheme="marc:relators">aut</meta>'
                '<dc:creator id="i1">Ilustradora</dc:creator>'
                '<meta refines="#i1" property="role" scheme="marc:relators">ill</meta>'
                "<dc:creator>Rui Costa</dc:creator>")
    book = _book({"c1": "c1.xhtml"}, ["c1"], {"c1.xhtml": _chapter("Texto")}, metadata)
    assert read(book, "autores3.epub").metadata["author"] == "Ana Lima; Rui Costa"


# -- chapters that could not be read make the book one read in part (report.truncated) --


def test_a_chapter_the_package_lacks_makes_the_book_read_in_part(read: Read) -> None:
    book = _book({"c1": "c1.xhtml", "c2": "c2.xhtml"}, ["c1", "c2"],
                 {"c1.xhtml": _chapter("Capítulo um.")})
    document = read(book, "livro.epub")
    assert document.text.strip().endswith("Capítulo um.")
    assert document.report.truncated
    assert ("Truncated", "1 of the book's documents could not be read: OEBPS/c2.xhtml "
            "(see the warnings)") in [(w.kind, w.message) for w in document.report.warnings]


def test_a_chapter_of_binary_noise_makes_the_book_read_in_part(read: Read) -> None:
    noise = bytes(range(256)).decode("latin-1") * 16
    book = _book({"c1": "c1.xhtml", "c2": "c2.xhtml"}, ["c1", "c2"],
                 {"c1.xhtml": noise, "c2.xhtml": _chapter("Capítulo legível.")})
    document = read(book, "ruido.epub")
    assert "Capítulo legível." in document.text
    assert document.report.truncated


def test_a_whole_book_is_not_read_in_part(read: Read) -> None:
    book = _book({"c1": "c1.xhtml", "c2": "c2.xhtml"}, ["c1", "c2"],
                 {"c1.xhtml": _chapter("Um."), "c2.xhtml": _chapter("Dois.")})
    document = read(book, "inteiro.epub")
    assert not document.report.truncated
    assert not document.report.warnings
