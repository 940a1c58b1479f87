"""Files uuencoded in a mail's plain-text body, as mailers before MIME attached them."""

from __future__ import annotations

import binascii
from collections.abc import Callable

from goblin_core import Document

REPORT = "Relatorio anual: 1200 unidades vendidas em 2003.\n" * 4


def _uuencoded(name: str, data: bytes) -> str:
    lines = [binascii.b2a_uu(data[start:start + 45]).decode()
             for start in range(0, len(data), 45)]
    return f"begin 644 {name}\n{''.join(lines)}`\nend\n"


def test_a_file_uuencoded_in_the_body_is_an_attachment_not_body_text(
    read: Callable[..., Document],
) -> None:
    body = ("Segue o relatorio.\n\n" + _uuencoded("relatorio.txt", REPORT.encode())
            + "\nAbracos,\nAna\n")
    data = ("From: ana@example.com\nSubject: relatorio\n\n" + body).replace("\n", "\r\n")
    document = read(data.encode(), "antigo.eml")
    assert document.text.splitlines()[-3:] == ["Segue o relatorio.", "Abracos,", "Ana"]
    assert [child.name for child in document.children] == ["antigo.eml/relatorio.txt"]
    assert document.children[0].text.rstrip("\n") == REPORT.rstrip("\n")


def test_a_begin_line_with_no_uuencoded_file_after_it_stays_text(
    read: Callable[..., Document],
) -> None:
    data = (b"From: ana@example.com\r\nSubject: agenda\r\n\r\n"
            b"begin 0900 reuniao\r\nend\r\nbegin 644 as pautas de hoje\r\nsem anexo\r\n")
    document = read(data, "agenda.eml")
    assert document.text.splitlines()[2:] == [
        "begin 0900 reuniao", "end", "begin 644 as pautas de hoje", "sem anexo"]
    assert not document.children
