"""A spine entry that is no document (a picture, a PDF) is read as reading systems show
it: through its manifest fallback to a document, or, a picture with none, as a page of
no words; it is no damage, and does not make the book read in part."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from samples import zip_bytes

_CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
              'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
              '<rootfile full-path="OEBPS/book.opf" '
              'media-type="application/oebps-package+xml"/></rootfiles></container>')
_XHTML = "application/xhtml+xml"
# a PNG's signature and more bytes than any text holds: binary noise read as a chapter
_PICTURE = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8


def _book(items: list[tuple[str, str, str, str]], spine: list[str],
          members: dict[str, bytes | str]) -> bytes:
    """A book of manifest ``items`` (id, href, media type, fallback id) and ``spine``."""
    manifest = "".join(
        f'<item id="{key}" href="{href}" media-type="{kind}"'
        + (f' fallback="{fallback}"' if fallback else "") + "/>"
        for key, href, kind, fallback in items)
    refs = "".join(f'<itemref idref="{key}"/>' for key in spine)
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Livro'
           f"</dc:title></metadata><manifest>{manifest}</manifest><spine>{refs}</spine>"
           "</package>")
    return zip_bytes({"mimetype": "application/epub+zip", "META-INF/container.xml": _CONTAINER,
                      "OEBPS/book.opf": opf,
                      **{f"OEBPS/{name}": data for name, data in members.items()}})


def _chapter(text: str) -> str:
    return f'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>{text}</p></body></html>'


def test_a_pdf_in_the_spine_is_read_through_its_fallback(read: Callable[..., Any]) -> None:
    book = _book([("pdf", "cap1.pdf", "application/pdf", "alt"),
                  ("alt", "cap1.xhtml", _XHTML, ""), ("c2", "cap2.xhtml", _XHTML, "")],
                 ["pdf", "c2"], {"cap1.pdf": b"%PDF-1.4\n" + _PICTURE,
                                 "cap1.xhtml": _chapter("Capitulo um"),
                                 "cap2.xhtml": _chapter("Capitulo dois")})
    document = read(book, "livro.epub")
    assert [page.text for page in document.pages] == ["Livro\nCapitulo um", "Capitulo dois"]
    assert not document.report.warnings and not document.report.truncated


def test_a_cover_picture_in_the_spine_is_a_page_of_no_words(read: Callable[..., Any]) -> None:
    book = _book([("capa", "capa.png", "image/png", ""), ("c1", "cap1.xhtml", _XHTML, "")],
                 ["capa", "c1"], {"capa.png": _PICTURE, "cap1.xhtml": _chapter("Capitulo um")})
    document = read(book, "livro.epub")
    assert document.text == "Livro\nCapitulo um"
    assert not document.report.warnings and not document.report.truncated


def test_a_foreign_item_with_no_document_to_fall_back_on_is_said(
        read: Callable[..., Any]) -> None:
    # a fallback chain that loops leads to no document either
    book = _book([("pdf", "cap1.pdf", "application/pdf", "other"),
                  ("other", "cap1.epub", "application/epub+zip", "pdf"),
                  ("c2", "cap2.xhtml", _XHTML, "")],
                 ["pdf", "c2"], {"cap1.pdf": b"%PDF-1.4\n" + _PICTURE, "cap1.epub": b"PK",
                                 "cap2.xhtml": _chapter("Capitulo dois")})
    document = read(book, "livro.epub")
    assert document.text == "Livro\nCapitulo dois"
    said = [w.message for w in document.report.warnings if w.kind == "CorruptDocument"]
    assert len(said) == 1 and "cap1.pdf" in said[0] and "application/pdf" in said[0]
    assert document.report.truncated


def test_a_mislabelled_chapter_is_still_read_by_its_content(read: Callable[..., Any]) -> None:
    book = _book([("c1", "cap1.xhtml", "text/html", ""), ("c2", "cap2.html", "", "")],
                 ["c1", "c2"], {"cap1.xhtml": _chapter("Capitulo um"),
                                "cap2.html": _chapter("Capitulo dois")})
    assert [page.text for page in read(book, "livro.epub").pages] == [
        "Livro\nCapitulo um", "Capitulo dois"]
