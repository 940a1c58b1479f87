"""A web page that opens with a table, a style sheet or a meta tag is known as a web page.

Web applications export "Excel" and "Word" files as HTML named ``.xls`` or ``.doc``, often
without html, head or body tags: a table first. Excel and Word open them as web pages;
goblin read them as plain text, every tag in the output.
"""

from __future__ import annotations

import pytest

from goblin_core import Source, load_registry
from goblin_core.detect import detect

CORE_ONLY = load_registry(load=[])

TABLE = (b'<table border="1"><tr><th>Nome</th><th>Valor</th></tr>'
         b"<tr><td>Caf&eacute;</td><td>1,50</td></tr></table>\n")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("relatorio.xls", TABLE),
        ("relatorio.xls", b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n'
                          + TABLE),
        ("relatorio.xls", b"<style>td { color: red }</style>\n" + TABLE),
        ("contrato.doc", b"<title>Contrato</title>\n<p>Cl&aacute;usula primeira.</p>\n"),
        ("planilha.xlsx", b"<!-- generated -->\n" + TABLE + b"<p>total: 1</p>\n"),
    ],
    ids=["table-as-xls", "meta-first", "style-first", "title-as-doc", "comment-first"],
)
def test_a_web_page_without_its_html_tag_is_a_web_page(name: str, data: bytes) -> None:
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, name))
    assert found.mime == "text/html"


@pytest.mark.parametrize(
    ("name", "data", "mime"),
    [
        ("README.md", b'<p align="center"><img src="logo.png"></p>\n\n# Project\n\nText.\n',
         "text/markdown"),
        ("notes.txt", b"<b>bold</b> is how to write bold\n", "text/plain"),
        ("unclosed.xls", b"<b is no tag here, and nothing closes\n", "text/plain"),
        ("notes", b"<b>bold</b> is how to write bold\n", "text/plain"),
    ],
    ids=["markdown", "text", "nothing-closed", "no-extension"],
)
def test_text_formats_starting_with_a_tag_keep_their_format(
        name: str, data: bytes, mime: str) -> None:
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, name))
    assert found.mime == mime


def test_a_page_opening_with_a_long_comment_is_a_web_page() -> None:
    # a licence or generator comment of hundreds of bytes before the doctype: past the
    # first 512 bytes the page was taken for XML, and its first <br> was damage
    licence = b"<!-- " + b"Licensed under the terms of the licence below. " * 20 + b"-->\n"
    page = (licence + b"<!DOCTYPE html>\n<html><head><title>T</title></head>"
            b"<body><p>Ol&aacute;&nbsp;mundo<br>linha dois</p></body></html>\n")
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(page, "index"))
    assert found.mime == "text/html"


@pytest.mark.parametrize(
    ("data", "mime"),
    [
        (b"<p>Primeiro par&aacute;grafo.</p>\n<p>Segundo.</p>\n", "text/html"),
        (b"<div><p>um</p></div>\n<div><p>dois</p></div>", "text/html"),
        (b"<registro><nome>Ana</nome></registro>\n", "application/xml"),
    ],
    ids=["paragraphs", "divisions", "xml-root"],
)
def test_a_nameless_piece_of_a_web_page_is_no_xml_file(data: bytes, mime: str) -> None:
    """It opens and closes with one element, as XML does, but holds several: read as XML,
    everything after its first element was lost."""
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, "trecho"))
    assert found.mime == mime


def test_a_piece_of_a_web_page_named_xml_stays_xml() -> None:
    data = b"<p>Primeiro.</p>\n<p>Segundo.</p>\n"
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, "trecho.xml"))
    assert found.mime == "application/xml"
