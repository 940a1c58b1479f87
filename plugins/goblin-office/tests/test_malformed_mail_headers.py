"""Headers the standard library's parser cannot read cost only themselves."""

from __future__ import annotations

import base64
from collections.abc import Callable

import pytest

from goblin_core import Document


@pytest.mark.parametrize(("header", "value"), [
    ("To", ".:"),  # AttributeError inside the standard library
    ("From", '"'),  # IndexError
    ("Cc", "\\@[ "),  # UnboundLocalError
    ("To", ", .@"),  # TypeError
])
def test_an_address_header_the_parser_fails_on_keeps_the_message(
    read: Callable[..., Document], header: str, value: str,
) -> None:
    data = f"{header}: {value}\r\nSubject: pauta\r\n\r\nReunião às 9h.\r\n".encode()
    document = read(data, "pauta.eml")
    lines = document.text.splitlines()
    assert lines[-1] == "Reunião às 9h."
    assert f"{header}: {value.strip()}" in lines
    assert document.metadata["title"] == "pauta"


def test_a_base64_body_holding_text_past_ascii_keeps_the_rest(
    read: Callable[..., Document],
) -> None:
    # a base64 body with a letter past ASCII in it, padded in the middle
    body = (base64.b64encode(b"Primeira parte.") + "\u00e9".encode()
            + base64.b64encode(b" Segunda parte."))
    data = (b"From: a@example.org\r\nSubject: s\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n"
            b"\r\n" + body + b"\r\n")
    document = read(data, "partes.eml")
    assert document.text.splitlines()[-1] == "Primeira parte. Segunda parte."
