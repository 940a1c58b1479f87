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


def _mail_with_part(part_headers: bytes, body: bytes = b"anexo\r\n") -> bytes:
    return (b"From: a@example.org\r\nSubject: s\r\nMIME-Version: 1.0\r\n"
            b'Content-Type: multipart/mixed; boundary="XX"\r\n\r\n'
            b"--XX\r\nContent-Type: text/plain\r\n\r\ncorpo\r\n"
            b"--XX\r\n" + part_headers + b"\r\n" + body + b"--XX--\r\n")


@pytest.mark.parametrize(("disposition", "name"), [
    # cut after a parameter's name, as a truncated message is: IndexError
    (b'Content-Disposition: attachment; filename="precos.csv"; size*\r\n', "precos.csv"),
    # the same after RFC 2231 continuations: TypeError in get_filename too
    (b"Content-Disposition: attachment; filename*0*=us-ascii''pre;\r\n"
     b" filename*1*=cos.csv; filename*\r\n", "attachment-1.txt"),
])
def test_an_attachment_header_the_parser_fails_on_keeps_the_message(
    read: Callable[..., Document], disposition: bytes, name: str,
) -> None:
    document = read(_mail_with_part(b"Content-Type: text/plain\r\n" + disposition), "s.eml")
    assert document.text.splitlines()[-1] == "corpo"
    assert [child.text for child in document.children] == ["anexo"]
    assert document.children[0].name == f"s.eml/{name}"


def test_a_charset_with_a_nul_in_it_keeps_the_body(read: Callable[..., Document]) -> None:
    data = (b"From: a@example.org\r\nSubject: s\r\nMIME-Version: 1.0\r\n"
            b'Content-Type: text/plain; charset="\x00utf-8"\r\n\r\nReuniao as 9h\r\n')
    document = read(data, "s.eml")
    assert document.text.splitlines()[-1] == "Reuniao as 9h"
