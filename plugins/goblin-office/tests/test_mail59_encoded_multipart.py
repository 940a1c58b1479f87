"""A multipart message whose parts were transfer-encoded whole (base64 or
quoted-printable on the multipart itself, which RFC 2045 forbids and broken gateways
send) is read as mail clients read it: its parts are found once the body is decoded,
not shown as a page of raw MIME."""

from __future__ import annotations

import base64
import quopri
from collections.abc import Callable
from typing import Any

import pytest

# the boundary as mailers write it, "=_" and all: quoted-printable encodes its "="
_PARTS = (b"--=_XYZ\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
          b"Segue a ata da reuni\xc3\xa3o.\r\n"
          b"--=_XYZ\r\nContent-Type: text/plain; name=ata.txt\r\n"
          b"Content-Disposition: attachment; filename=ata.txt\r\n\r\n"
          b"Presentes: Ana e Bia\r\n--=_XYZ--\r\n")


def _message(encoding: bytes, body: bytes) -> bytes:
    return (b"From: ana@example.com\r\nTo: bia@example.com\r\nSubject: Ata\r\n"
            b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="=_XYZ"\r\n'
            b"Content-Transfer-Encoding: " + encoding + b"\r\n\r\n" + body)


@pytest.mark.parametrize(("encoding", "body"), [
    (b"base64", base64.encodebytes(_PARTS)),
    (b"quoted-printable", quopri.encodestring(_PARTS)),
])
def test_parts_encoded_whole_are_found(read: Callable[..., Any], encoding: bytes,
                                       body: bytes) -> None:
    document = read(_message(encoding, body), "ata.eml")
    assert document.text.splitlines()[-1] == "Segue a ata da reunião."
    assert [(child.name, child.text) for child in document.children] == [
        ("ata.eml/ata.txt", "Presentes: Ana e Bia")]


def test_a_base64_body_without_the_boundary_is_still_read_as_text(
        read: Callable[..., Any]) -> None:
    body = base64.encodebytes("Só texto, sem partes.".encode())
    document = read(_message(b"base64", body), "ata.eml")
    assert document.children == ()
