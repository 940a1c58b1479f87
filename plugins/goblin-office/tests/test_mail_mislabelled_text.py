"""Mail text whose bytes do not match what its headers say: labels they do not fit,
8-bit headers, base64 chunks padded one by one."""

from __future__ import annotations

import base64
from collections.abc import Callable

import pytest

from goblin_core import Document


def _mail(headers: bytes, body: bytes) -> bytes:
    return b"From: a@example.org\r\nTo: b@example.org\r\nMIME-Version: 1.0\r\n" + headers + (
        b"\r\n" + body)


def test_a_body_whose_bytes_do_not_fit_its_declared_charset_keeps_its_letters(
    read: Callable[..., Document],
) -> None:
    body = "Licitação adiada; sessão pública às 10h."
    data = _mail(b"Subject: aviso\r\nContent-Type: text/plain; charset=utf-8\r\n"
                 b"Content-Transfer-Encoding: 8bit\r\n", body.encode("cp1252"))
    document = read(data, "aviso.eml")
    assert document.text.splitlines()[-1] == body


def test_a_subject_and_sender_sent_8bit_in_latin1_keep_their_letters(
    read: Callable[..., Document],
) -> None:
    headers = "From: José Conceição <jose@example.org>\r\nSubject: Pregão eletrônico nº 12\r\n"
    data = headers.encode("latin-1") + b"To: b@example.org\r\n\r\ncorpo\r\n"
    document = read(data, "pregao.eml")
    lines = document.text.splitlines()
    assert lines[0] == "From: José Conceição <jose@example.org>"
    assert "Subject: Pregão eletrônico nº 12" in lines
    assert document.metadata["title"] == "Pregão eletrônico nº 12"
    assert document.metadata["author"] == "José Conceição <jose@example.org>"


@pytest.mark.parametrize("charset", ["koi8-r", "cp1251"])
def test_an_8bit_subject_is_read_in_the_charset_of_the_body(
    read: Callable[..., Document], charset: str,
) -> None:
    subject, body = "Тендер на поставку", "Срок подачи заявок: пятница."
    data = _mail(
        b"Subject: " + subject.encode(charset) + b"\r\n"
        b"Content-Type: text/plain; charset=" + charset.encode() + b"\r\n",
        body.encode(charset),
    )
    document = read(data, "tender.eml")
    assert document.metadata["title"] == subject
    assert document.text.splitlines()[-1] == body


def test_base64_chunks_padded_one_by_one_are_all_decoded(read: Callable[..., Document]) -> None:
    # a gateway appending its base64 disclaimer to a base64 body, padding and all
    body = base64.b64encode("Segue o edital nº 5.\n".encode()) + b"\r\n" + base64.b64encode(
        "Aviso: mensagem sigilosa, não a repasse.".encode())
    attachment = base64.b64encode(b"item;valor\n") + base64.b64encode(b"cimento;10\n")
    data = _mail(
        b'Subject: edital\r\nContent-Type: multipart/mixed; boundary="XX"\r\n',
        b"--XX\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n" + body + b"\r\n"
        b"--XX\r\nContent-Type: text/csv\r\nContent-Transfer-Encoding: base64\r\n"
        b'Content-Disposition: attachment; filename="precos.csv"\r\n\r\n'
        + attachment + b"\r\n--XX--\r\n",
    )
    document = read(data, "edital.eml")
    assert document.text.splitlines()[-2:] == ["Segue o edital nº 5.",
                                                "Aviso: mensagem sigilosa, não a repasse."]
    assert "cimento" in document.children[0].text


def test_encoded_words_labelled_latin1_around_utf8_read_as_utf8(
    read: Callable[..., Document],
) -> None:
    subject = "Licitação nº 7 — resultado"
    sender = "Conceição"
    encoded = base64.b64encode(subject.encode()).decode()
    data = (f"From: =?iso-8859-1?Q?Concei=C3=A7=C3=A3o?= <c@example.org>\r\n"
            f"Subject: =?iso-8859-1?B?{encoded}?=\r\n\r\ncorpo\r\n").encode()
    document = read(data, "resultado.eml")
    assert document.metadata["title"] == subject
    assert document.metadata["author"] == f"{sender} <c@example.org>"
    assert f"Subject: {subject}" in document.text.splitlines()


def test_a_broken_encoded_word_beside_one_read_again_keeps_the_message(
    read: Callable[..., Document],
) -> None:
    # the first word's base64 cannot be decoded; the second's GBK letter is past GB2312
    gbk = base64.b64encode("朱镕基".encode("gbk")).decode()
    data = (f"From: a@example.org\r\nSubject: =?utf-8?b?w6kgdGVzd?= =?gb2312?b?{gbk}?=\r\n"
            "\r\ncorpo\r\n")
    document = read(data.encode(), "aviso.eml")
    assert document.text.splitlines()[-1] == "corpo"
    assert "朱" in document.metadata["title"]


def test_a_base64_attachment_cut_short_is_decoded_as_far_as_it_goes(
    read: Callable[..., Document],
) -> None:
    text = "item;valor\ncimento;10\nareia;7\n" * 20
    encoded = base64.encodebytes(text.encode())
    cut = encoded[:102]  # a mail cut short: one character past a whole group
    assert len(b"".join(cut.split())) % 4 == 1
    data = _mail(
        b'Subject: planilha\r\nContent-Type: multipart/mixed; boundary="XX"\r\n',
        b"--XX\r\nContent-Type: text/plain\r\n\r\nSegue.\r\n"
        b"--XX\r\nContent-Type: text/csv\r\nContent-Transfer-Encoding: base64\r\n"
        b'Content-Disposition: attachment; filename="precos.csv"\r\n\r\n' + cut,
    )
    document = read(data, "cortada.eml")
    child = document.children[0]
    assert child.name == "cortada.eml/precos.csv"
    assert "cimento" in child.text
    assert "aXRlbT" not in child.text  # not its own base64
