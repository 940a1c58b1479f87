"""A page whose <meta> names UTF-16LE, UTF-16BE or UTF-32 while its bytes are ASCII-based
(the declaration could only be read because they are) is read from its bytes, as browsers
read it, not decoded two bytes at a time into CJK noise; in a web page and in an HTML
mail body alike."""

from __future__ import annotations

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
