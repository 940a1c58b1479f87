"""An HTML mail body whose MIME header names no charset: read in the one its markup names."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document


@pytest.mark.parametrize(("content_type", "charset", "words"), [
    ("text/html", "iso-8859-7", "Καλημέρα"),
    ("text/html; charset=us-ascii", "iso-8859-7", "Καλημέρα"),
    ("text/html", "windows-1250", "Dzień dobry, żółć"),
], ids=["undeclared", "labelled-ascii", "central-european"])
def test_an_html_body_is_read_in_the_charset_its_markup_declares(
    read: Callable[..., Document], content_type: str, charset: str, words: str,
) -> None:
    page = (f'<html><head><meta http-equiv="Content-Type" content="text/html; '
            f'charset={charset}"></head><body><p>{words}</p></body></html>').encode(charset)
    data = (f"From: ana@example.com\r\nSubject: saudacao\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            ).encode() + page + b"\r\n"
    document = read(data, "saudacao.eml")
    assert document.text.splitlines()[-1] == words
