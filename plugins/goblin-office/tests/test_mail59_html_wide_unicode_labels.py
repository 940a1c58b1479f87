"""A page whose <meta> names UTF-16LE, UTF-16BE or UTF-32 while its bytes are ASCII-based
(the declaration could only be read because they are) is read from its bytes, as browsers
read it, not decoded two bytes at a time into CJK noise; in a web page and in an HTML
mail body alike. A mail body whose MIME label says UTF-16 over 8-bit text (no BOM, not
UTF-16's shape) is read as undeclared text is; one really in UTF-16 still as UTF-16."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import pytest

_WORDS = "Olá, a reunião é às 10h"


def _page(label: str) -> str:
    return (f'<html><head><meta charset="{label}"><title>Pauta</title></head>'
            f"<body><p>{_WORDS}</p></body></html>")


@pytest.mark.parametrize("label", ["utf-16le", "UTF-16BE", "utf-32", "utf-32le", "UCS-2"])
def test_a_wide_unicode_label_over_utf8_bytes(read: Callable[..., Any], label: str) -> None:
    assert read(_page(label).encode("utf-8"), "pauta.html").text == _WORDS


def test_a_page_really_in_utf16_is_still_read_as_utf16(read: Callable[..., Any]) -> None:
    for encoding in ("utf-16", "utf-16-le"):
        assert read(_page("utf-16le").encode(encoding), "pauta.html").text == _WORDS


def test_an_html_mail_body_naming_utf16_in_its_meta(read: Callable[..., Any]) -> None:
    mail = (b"From: ana@example.com\r\nSubject: Pauta\r\nContent-Type: text/html\r\n"
            b"Content-Transfer-Encoding: 8bit\r\n\r\n" + _page("utf-16le").encode("utf-8"))
    assert read(mail, "pauta.eml").text.splitlines()[-1] == _WORDS


def _plain_mail(label: bytes, body: bytes) -> bytes:
    return (b"From: ana@example.com\r\nSubject: Pauta\r\nContent-Type: text/plain; charset="
            + label + b"\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + base64.encodebytes(body))


@pytest.mark.parametrize(("body", "words"), [
    # of an even length, as UTF-16 reads it; of an odd one, it fails UTF-16 anyway
    (_WORDS.encode("utf-8") + b"\r\n", _WORDS), (b"Meeting at 10", "Meeting at 10"),
    (_WORDS.encode("cp1252") + b"\n", _WORDS), (_WORDS.encode("utf-8"), _WORDS)])
def test_a_mail_body_labelled_utf16_over_8bit_text(read: Callable[..., Any], body: bytes,
                                                   words: str) -> None:
    assert read(_plain_mail(b"utf-16", body), "pauta.eml").text.splitlines()[-1] == words


@pytest.mark.parametrize(("label", "encoding", "words"), [
    (b"utf-16", "utf-16", _WORDS),
    (b"utf-16le", "utf-16-le", _WORDS),
    (b"utf-16be", "utf-16-be", "会議は10時です。資料を持ってきてください。"),
    (b"utf-16le", "utf-16-le", "会議は10時です。資料を持ってきてください。"),
])
def test_a_mail_body_in_utf16_is_still_read_as_utf16(
        read: Callable[..., Any], label: bytes, encoding: str, words: str) -> None:
    document = read(_plain_mail(label, words.encode(encoding)), "pauta.eml")
    assert document.text.splitlines()[-1] == words
