"""A file a mailer attaches inside the HTML alternative (Apple Mail writes the HTML body
as a multipart/mixed of HTML pieces with the files between them, each inline with its
name) is an attachment: the plain alternative read as the body does not hold it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

_HEAD = (b"From: ana@example.com\r\nTo: bia@example.com\r\nSubject: Notas\r\n"
         b"MIME-Version: 1.0\r\n")


def _apple(kind: bytes, name: bytes, content: bytes) -> bytes:
    return (_HEAD + b'Content-Type: multipart/alternative; boundary="alt"\r\n\r\n'
            b"--alt\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n"
            b"Seguem as notas.\r\n\r\nAbracos\r\n"
            b'--alt\r\nContent-Type: multipart/mixed; boundary="mix"\r\n\r\n'
            b"--mix\r\nContent-Type: text/html; charset=us-ascii\r\n\r\n"
            b"<html><body>Seguem as notas.</body></html>\r\n"
            b"--mix\r\nContent-Disposition: inline; filename=" + name + b"\r\n"
            b"Content-Type: " + kind + b'; name="' + name + b'"\r\n\r\n' + content + b"\r\n"
            b"--mix\r\nContent-Type: text/html; charset=us-ascii\r\n\r\n"
            b"<html><body>Abracos</body></html>\r\n--mix--\r\n--alt--\r\n")


@pytest.mark.parametrize(("kind", "name", "content", "text"), [
    (b"text/plain", b"notas.txt", b"reuniao as 10h", "reuniao as 10h"),
    (b"text/html", b"pauta.html", b"<p>item um</p>", "item um"),
])
def test_a_text_file_inside_the_html_alternative_is_an_attachment(
        read: Callable[..., Any], kind: bytes, name: bytes, content: bytes,
        text: str) -> None:
    document = read(_apple(kind, name, content), "notas.eml")
    assert document.text.splitlines()[-2:] == ["Seguem as notas.", "Abracos"]
    (child,) = document.children
    assert child.name == f"notas.eml/{name.decode()}"
    assert child.text == text


def test_the_pieces_of_the_html_body_are_still_no_attachment(
        read: Callable[..., Any]) -> None:
    # the unnamed HTML pieces are the rendition the plain part stands for
    document = read(_apple(b"application/pdf", b"a.pdf", b"%PDF-1.4"), "notas.eml")
    assert [child.name for child in document.children] == ["notas.eml/a.pdf"]


def test_a_named_alternative_is_still_the_body_once(read: Callable[..., Any]) -> None:
    message = (_HEAD + b'Content-Type: multipart/alternative; boundary="alt"\r\n\r\n'
               b"--alt\r\nContent-Type: text/plain\r\n\r\ncorpo\r\n"
               b'--alt\r\nContent-Type: text/html; name="corpo.html"\r\n\r\n'
               b"<p>corpo</p>\r\n--alt--\r\n")
    document = read(message, "x.eml")
    assert document.text.endswith("corpo") and document.children == ()
