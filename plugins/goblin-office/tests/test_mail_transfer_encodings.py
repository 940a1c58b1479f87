"""Transfer encodings written loosely are undone as mail clients undo them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document


def _mail(encoding: bytes, body: bytes) -> bytes:
    return (b"From: a@example.org\r\nSubject: aviso\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: "
            + encoding + b"\r\n\r\n" + body)


@pytest.mark.parametrize(("encoding", "body"), [
    (b"quoted-printable ", b"Licita=C3=A7=C3=A3o aberta\r\n"),
    (b"Quoted-Printable\t", b"Licita=C3=A7=C3=A3o aberta\r\n"),
    (b"base64 ", b"TGljaXRhw6fDo28gYWJlcnRh\r\n"),
])
def test_a_transfer_encoding_named_with_spaces_around_it_is_undone(
    read: Callable[..., Document], encoding: bytes, body: bytes,
) -> None:
    document = read(_mail(encoding, body), "aviso.eml")
    assert document.text.splitlines()[-1] == "Licitação aberta"


def test_quoted_printable_soft_breaks_with_spaces_after_them_join_their_lines(
    read: Callable[..., Document],
) -> None:
    body = b"Licita=C3=A7=C3=A3o aber=  \r\nta na sexta=\t\r\n-feira.\r\n"
    document = read(_mail(b"quoted-printable", body), "aviso.eml")
    assert document.text.splitlines()[-1] == "Licitação aberta na sexta-feira."
