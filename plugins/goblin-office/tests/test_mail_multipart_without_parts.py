"""Multipart messages whose Content-Type names no boundary, or whose body holds no parts."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document


def _mail(content_type: str, body: str) -> bytes:
    return (f"From: ana@example.com\nSubject: teste\nMIME-Version: 1.0\n"
            f"Content-Type: {content_type}\n\n{body}").replace("\n", "\r\n").encode()


def test_parts_of_a_multipart_that_names_no_boundary_are_found(
    read: Callable[..., Document],
) -> None:
    document = read(_mail("multipart/mixed", """\
--fronteira
Content-Type: text/plain

O texto da mensagem.
--fronteira
Content-Type: text/plain; name=ata.txt
Content-Disposition: attachment; filename=ata.txt

Ata da reuniao.
--fronteira--
"""), "sem-fronteira.eml")
    assert document.text.splitlines()[-1] == "O texto da mensagem."
    assert [(child.name, child.text) for child in document.children] == [
        ("sem-fronteira.eml/ata.txt", "Ata da reuniao.")]


@pytest.mark.parametrize(("content_type", "body", "shown"), [
    ('multipart/alternative; boundary="zzz"', "Um corpo simples, sem partes.\n",
     "Um corpo simples, sem partes."),
    ("multipart/mixed", "<html><body><p>Um corpo em HTML.</p></body></html>\n",
     "Um corpo em HTML."),
], ids=["plain", "html"])
def test_a_multipart_body_without_parts_is_the_message_body(
    read: Callable[..., Document], content_type: str, body: str, shown: str,
) -> None:
    document = read(_mail(content_type, body), "rotulo.eml")
    assert document.text.splitlines()[-1] == shown
    assert not document.children
