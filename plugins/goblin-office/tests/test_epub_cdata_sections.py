"""CDATA sections in EPUB chapters: text, as the XML parser of a reading system reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from samples import zip_bytes

Read = Callable[..., Any]
CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="book.opf" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")
OPF = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
       '<metadata/><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>'
       '</manifest><spine><itemref idref="c1"/></spine></package>')


def _book(chapter: str) -> bytes:
    return zip_bytes({"mimetype": "application/epub+zip", "META-INF/container.xml": CONTAINER,
                      "book.opf": OPF, "c1.xhtml": chapter})


def test_a_cdata_section_in_a_chapter_is_read_as_its_text(read: Read) -> None:
    chapter = ('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><style>'
               "<![CDATA[ p { margin: 0 } ]]></style></head><body>"
               "<p>A formula <![CDATA[a < b && b > c]]> vale sempre.</p>"
               "<script><![CDATA[ if (a < b) { mostra(); } ]]></script></body></html>")
    assert read(_book(chapter), "cdata.epub").text == "A formula a < b && b > c vale sempre."


def test_a_cdata_section_never_closed_leaves_the_chapter_as_it_was(read: Read) -> None:
    chapter = ('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Primeiro.</p>'
               "<p>Segundo <![CDATA[ sem fim" + " <![CDATA[" * 50_000 + "</p></body></html>")
    assert read(_book(chapter), "aberto.epub").text.splitlines()[0] == "Primeiro."
