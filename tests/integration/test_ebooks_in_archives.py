"""E-books as they are shared: a FictionBook zipped (``.fb2.zip``), read through the zip."""

from __future__ import annotations

import io
import zipfile

import goblin_core

BOOK = ('<?xml version="1.0" encoding="utf-8"?><FictionBook xmlns="http://www.gribuser.ru/'
        'xml/fictionbook/2.0"><description><title-info><book-title>Каштанка</book-title>'
        "<lang>ru</lang></title-info></description><body><section><title><p>I</p></title>"
        "<p>Молодая рыжая собака бегала по тротуару.</p></section></body></FictionBook>")


def test_a_zipped_fictionbook_is_read_as_its_member() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("kashtanka.fb2", BOOK.encode())
    document = goblin_core.extract(out.getvalue(), name="kashtanka.fb2.zip", ocr="never")
    (book,) = document.children
    assert book.name == "kashtanka.fb2.zip/kashtanka.fb2"
    assert book.mime == "application/x-fictionbook+xml"
    assert book.metadata["title"] == "Каштанка"
    assert "Молодая рыжая собака" in book.text
