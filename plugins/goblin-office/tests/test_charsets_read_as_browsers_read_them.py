"""A charset declared by a web page, a web archive part or a mail is read as browsers
read its label (WHATWG Encoding Standard): ISO-8859-1 as Windows-1252, ISO-8859-9 as
Windows-1254, TIS-620 as Windows-874, Big5 with the cp950 and HKSCS extensions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

BIG5_TEXT = "香港特別行政區政府公佈了新的財政預算案，總額為五千億元。價格為 100 €。"


def _page(charset: str, body: bytes) -> bytes:
    return (b"<html><head><meta charset='" + charset.encode() + b"'></head><body><p>"
            + body + b"</p></body></html>")


@pytest.mark.parametrize(("charset", "text", "written_in", "encoding"), [
    ("iso-8859-1", "Preço “especial” – 10 €", "cp1252", "cp1252"),
    ("iso-8859-9", "Türkçe “metin” €", "cp1254", "cp1254"),
    ("tis-620", "ภาษาไทย “x”", "cp874", "cp874"),
    # one character only cp950 has (the euro sign) made the declaration not fit, and
    # detection read every Chinese character in another code page
    ("big5", BIG5_TEXT, "cp950", "cp950"),
    ("gb2312", "朱镕基总理访问了上海", "gbk", "gb18030"),
    ("shift_jis", "番号①②③の日本語", "cp932", "cp932"),
])
def test_a_page_declared_in_a_legacy_charset_is_read_in_its_superset(
        read: Callable[..., Any], charset: str, text: str, written_in: str, encoding: str
) -> None:
    document = read(_page(charset, text.encode(written_in)), "pagina.html")
    assert document.text == text
    assert document.raw_metadata["encoding"] == encoding


def test_a_page_in_the_charset_it_declares_is_read_in_it(read: Callable[..., Any]) -> None:
    text = "Zażółć gęślą jaźń, Łódź"
    document = read(_page("iso-8859-2", text.encode("iso8859-2")), "pl.html")
    assert document.text == text


def test_a_page_that_lies_about_its_legacy_charset_is_still_read(
        read: Callable[..., Any]) -> None:
    # bytes Big5 and its extensions never hold: the declaration does not fit
    text = "A comissão de licitação informa que a sessão pública será às nove horas."
    document = read(_page("big5", text.encode("utf-8")), "mente.html")
    assert document.text == text


def test_a_big5_mail_keeps_its_euro_sign_and_the_letter_after_it(
        read: Callable[..., Any]) -> None:
    data = (b"From: a@example.org\nSubject: x\nContent-Type: text/plain; charset=\"big5\"\n"
            b"Content-Transfer-Encoding: 8bit\n\n" + "價格為 100 €。香港".encode("cp950") + b"\n")
    assert read(data, "preco.eml").text.splitlines()[-1] == "價格為 100 €。香港"


def test_a_mail_labelled_with_a_whatwg_name_python_lacks_is_read(
        read: Callable[..., Any]) -> None:
    data = (b"From: a@example.org\nSubject: x\nContent-Type: text/plain; charset=windows-31j\n"
            b"Content-Transfer-Encoding: 8bit\n\n" + "番号①②③の日本語".encode("cp932") + b"\n")
    assert read(data, "aviso.eml").text.splitlines()[-1] == "番号①②③の日本語"


def test_a_web_archive_part_declared_iso_8859_1_is_read_as_windows_1252(
        read: Callable[..., Any]) -> None:
    body = "<html><body><p>Preço “especial” – 10 €</p></body></html>".encode("cp1252")
    data = b"\r\n".join([
        b"From: <Saved by Blink>", b"Subject: aviso", b"MIME-Version: 1.0",
        b'Content-Type: multipart/related; type="text/html"; boundary="B"', b"",
        b"--B", b"Content-Type: text/html; charset=iso-8859-1",
        b"Content-Transfer-Encoding: 8bit", b"", body, b"--B--", b"",
    ])
    document = read(data, "aviso.mht")
    assert document.parsed_by == ("office.mhtml",)
    assert document.text == "Preço “especial” – 10 €"
