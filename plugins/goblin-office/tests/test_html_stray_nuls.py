"""Web pages and e-book chapters holding a few NULs (padding where a save stopped, one
in a paragraph): read without them, as browsers show them, with a warning."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document
from goblin_core.errors import CorruptDocument
from samples import zip_bytes

PAGE = b"<html><body><h1>Ata</h1><p>Reuniao de 12 de marco.</p></body></html>"


@pytest.mark.parametrize(("data", "nuls"), [
    (PAGE + b"\x00" * 4096, 4096),
    (PAGE.replace(b"de 12", b"de\x00 12"), 1),
], ids=["padded", "one-in-a-paragraph"])
def test_a_page_with_stray_nuls_is_read_without_them(read: Callable[..., Document],
                                                     data: bytes, nuls: int) -> None:
    document = read(data, "ata.html")
    assert document.text == "Ata\nReuniao de 12 de marco."
    assert [(w.kind, w.message.split(" NUL")[0]) for w in document.report.warnings] == [
        ("CorruptDocument", f"{nuls:,}")]


def test_a_page_of_nuls_among_other_control_codes_is_still_binary(
    read: Callable[..., Document],
) -> None:
    with pytest.raises(CorruptDocument, match="binary content"):
        read(b"<p>\x00\x01\x02\x03dados\x04\x05\x06</p>" * 200, "ruido.html")


def test_an_epub_chapter_padded_with_nuls_is_read(read: Callable[..., Document]) -> None:
    container = ('<?xml version="1.0"?><container version="1.0" '
                 'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                 '<rootfile full-path="book.opf" media-type="application/oebps-package+xml"/>'
                 "</rootfiles></container>")
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
           '<metadata/><manifest><item id="c1" href="c1.xhtml" '
           'media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/>'
           "</spine></package>")
    book = zip_bytes({"mimetype": "application/epub+zip", "META-INF/container.xml": container,
                      "book.opf": opf, "c1.xhtml": PAGE + b"\x00" * 512})
    document = read(book, "livro.epub")
    assert document.text == "Ata\nReuniao de 12 de marco."
    assert not document.report.truncated
    assert [w.message.split(":")[0] for w in document.report.warnings] == ["c1.xhtml"]
