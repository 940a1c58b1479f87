"""A body signed in the clear with inline PGP reads as mail clients show it: the signed
text with its dash-escaping undone, without the armor lines and the signature's base64."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_SIGNED = "\r\n".join([
    "-----BEGIN PGP SIGNED MESSAGE-----", "Hash: SHA256", "",
    "O contrato foi aprovado.", "- --", "- - item riscado", "Ana",
    "-----BEGIN PGP SIGNATURE-----", "",
    "iQEzBAEBCAAdFiEEx1pGK0bVn3z3sY7eJQmK8tQ+xd8FAmVvQ2AACgkQJQmK8tQ+", "=Xa2b",
    "-----END PGP SIGNATURE-----", ""]).encode()


def _mail(body: bytes) -> bytes:
    return (b"From: ana@example.com\r\nTo: bia@example.com\r\nSubject: Contrato\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body)


def test_a_clear_signed_body_reads_as_its_text(read: Callable[..., Any]) -> None:
    document = read(_mail(b"Bom dia,\r\n" + _SIGNED + b"rodape da lista\r\n"), "c.eml")
    assert document.text.splitlines()[3:] == [
        "Bom dia,", "O contrato foi aprovado.", "--", "- item riscado", "Ana",
        "rodape da lista"]
    assert "PGP" not in document.text and "iQEz" not in document.text


def test_a_quoted_or_unfinished_signed_block_is_kept(read: Callable[..., Any]) -> None:
    quoted = b"\r\n".join(b"> " + line for line in _SIGNED.split(b"\r\n"))
    assert "> -----BEGIN PGP SIGNATURE-----" in read(_mail(quoted), "q.eml").text
    unfinished = _SIGNED.split(b"-----END")[0]
    assert "-----BEGIN PGP SIGNED MESSAGE-----" in read(_mail(unfinished), "u.eml").text
