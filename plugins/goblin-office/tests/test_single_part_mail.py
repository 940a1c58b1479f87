"""A message of one part that is no text body has that part as its attachment."""

from __future__ import annotations

import base64
from collections.abc import Callable

import samples
from goblin_core import Document


def _single_part(headers: bytes, body: bytes) -> bytes:
    return (b"From: scanner@example.org\r\nSubject: Digitalizado\r\nMIME-Version: 1.0\r\n"
            + headers + b"\r\n" + body)


def test_a_document_sent_as_the_whole_message_is_its_attachment(
    read: Callable[..., Document],
) -> None:
    docx, _ = samples.sample_docx()
    data = _single_part(
        b"Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml"
        b'.document; name="ata.docx"\r\nContent-Disposition: attachment; filename="ata.docx"\r\n'
        b"Content-Transfer-Encoding: base64\r\n", base64.encodebytes(docx))
    document = read(data, "scan.eml")
    assert [child.name for child in document.children] == ["scan.eml/ata.docx"]
    assert document.children[0].text == read(docx, "ata.docx").text


def test_an_invitation_sent_as_the_whole_message_is_read(read: Callable[..., Document]) -> None:
    data = _single_part(
        b"Content-Type: text/calendar; method=REQUEST; charset=utf-8\r\n",
        b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Sess\xc3\xa3o de abertura\r\n"
        b"END:VEVENT\r\nEND:VCALENDAR\r\n")
    document = read(data, "convite.eml")
    assert [child.name for child in document.children] == ["convite.eml/attachment-1.ics"]
    assert "Sessão de abertura" in document.children[0].text


def test_a_text_sent_as_an_attachment_alone_is_read(read: Callable[..., Document]) -> None:
    data = _single_part(
        b"Content-Type: text/plain; charset=utf-8\r\n"
        b'Content-Disposition: attachment; filename="notas.txt"\r\n', b"Notas da sess\xc3\xa3o\r\n")
    document = read(data, "notas.eml")
    assert [child.name for child in document.children] == ["notas.eml/notas.txt"]
    assert document.children[0].text.strip() == "Notas da sessão"

