"""Mail containers: TNEF (winmail.dat), alone and inside an .eml, and mbox mailboxes."""

from __future__ import annotations

import base64
import struct
import time

import compressed_rtf
import pytest
from tnefdata import (
    BODY,
    FROM,
    MAPI_PROPS,
    MESSAGE,
    SUBJECT,
    attribute,
    embedding,
    mapi_binary,
    stream,
    winmail,
)

import samples
from goblin_core.errors import CorruptDocument


def _winmail() -> bytes:
    return winmail(
        "Proposta de preço", "Segue a proposta revisada.",
        {"orçamento.csv": b"item;valor\ncimento;10\n"},
    )


def test_tnef_body_headers_and_attachment(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_winmail(), "winmail.dat")
    assert document.mime == "application/vnd.ms-tnef"
    assert document.text.split("\n") == [
        "Date: 2024-03-15T14:30:00",
        "Subject: Proposta de preço",
        "Segue a proposta revisada.",
    ]
    assert document.metadata["title"] == "Proposta de preço"
    assert document.metadata["created"] == "2024-03-15T14:30:00"
    (child,) = document.children
    assert child.name.endswith("winmail.dat/orçamento.csv")
    assert child.tables[0].rows == (("item", "valor"), ("cimento", "10"))


def test_tnef_is_known_by_its_signature_under_any_name(read) -> None:  # type: ignore[no-untyped-def]
    assert read(_winmail(), "anexo").mime == "application/vnd.ms-tnef"
    assert read(_winmail(), "dados.bin").mime == "application/vnd.ms-tnef"


def test_tnef_with_only_an_rtf_body_reads_the_rtf(read) -> None:  # type: ignore[no-untyped-def]
    rtf = rb"{\rtf1\ansi\ansicpg1252 Corpo s\'f3 em {\b RTF}\par}"
    props = mapi_binary(0x1009, 0x0102, compressed_rtf.compress(rtf))
    data = stream(
        attribute(MESSAGE, SUBJECT, b"Somente RTF\x00"), attribute(MESSAGE, MAPI_PROPS, props)
    )
    document = read(data, "winmail.dat")
    assert document.text.split("\n") == ["Subject: Somente RTF", "Corpo só em RTF"]


def test_tnef_sender_comes_from_its_triple(read) -> None:  # type: ignore[no-untyped-def]
    name, address = b"Compras\x00", b"SMTP:compras@example.org\x00"
    triple = struct.pack("<HHHH", 4, 8 + len(name) + len(address), len(name), len(address))
    data = stream(
        attribute(MESSAGE, FROM, triple + name + address), attribute(MESSAGE, BODY, b"Corpo\x00")
    )
    document = read(data, "winmail.dat")
    assert document.text.split("\n")[0] == "From: Compras <compras@example.org>"
    assert document.metadata["author"] == "Compras <compras@example.org>"


def test_tnef_inside_an_eml_is_read_with_its_attachment(read) -> None:  # type: ignore[no-untyped-def]
    encoded = base64.encodebytes(_winmail())
    mail = (
        b'From: a@example.org\nSubject: Proposta\nContent-Type: multipart/mixed; boundary="XX"\n\n'
        b"--XX\nContent-Type: text/plain\n\nVeja o anexo\n"
        b'--XX\nContent-Type: application/ms-tnef; name="winmail.dat"\n'
        b"Content-Transfer-Encoding: base64\n"
        b'Content-Disposition: attachment; filename="winmail.dat"\n\n' + encoded + b"--XX--\n"
    )
    document = read(mail, "proposta.eml")
    (tnef,) = document.children
    assert tnef.mime == "application/vnd.ms-tnef"
    assert "Segue a proposta revisada." in tnef.text
    (sheet,) = tnef.children
    assert sheet.name.endswith("proposta.eml/winmail.dat/orçamento.csv")
    assert "cimento\t10" in sheet.text


def test_tnef_embedded_message_is_a_child_read_as_tnef(read) -> None:  # type: ignore[no-untyped-def]
    inner = stream(attribute(MESSAGE, BODY, b"Mensagem encaminhada\x00"))
    data = stream(attribute(MESSAGE, BODY, b"Veja abaixo\x00"), embedding(inner))
    document = read(data, "winmail.dat")
    (child,) = document.children
    assert child.mime == "application/vnd.ms-tnef"
    assert child.text == "Mensagem encaminhada"


def test_tnef_of_a_million_tiny_attributes_reads_in_linear_time(read) -> None:  # type: ignore[no-untyped-def]
    # each attribute was handed a copy of the rest of the stream: terabytes for this one
    tiny = attribute(MESSAGE, (0x8099, 0x0006), b"x")
    data = stream(attribute(MESSAGE, BODY, b"Corpo\x00"), tiny * 1_000_000)
    started = time.monotonic()
    document = read(data, "miudos.dat")
    assert time.monotonic() - started < 30
    assert document.text == "Corpo"


def test_tnef_mapi_block_claiming_billions_of_properties_fails_clearly(read) -> None:  # type: ignore[no-untyped-def]
    data = stream(attribute(MESSAGE, MAPI_PROPS, struct.pack("<I", 0xFFFFFFFF)))
    started = time.monotonic()
    with pytest.raises(CorruptDocument, match="properties") as caught:
        read(data, "contagem.dat")
    assert time.monotonic() - started < 5
    assert "contagem.dat" in str(caught.value)


def test_tnef_messages_nested_past_max_depth_fail_clearly(read) -> None:  # type: ignore[no-untyped-def]
    data = stream(attribute(MESSAGE, BODY, b"fundo\x00"))
    for _ in range(12):
        data = stream(embedding(data))
    with pytest.raises(CorruptDocument, match="max_depth") as caught:
        read(data, "aninhada.dat")
    assert "aninhada.dat" in str(caught.value)


def test_truncated_tnef_never_crashes(read) -> None:  # type: ignore[no-untyped-def]
    data = _winmail()
    for cut in range(6, len(data), 7):
        try:
            read(data[:cut], "cortada.dat")
        except CorruptDocument as exc:
            assert "cortada.dat" in str(exc)


# -- mbox --------------------------------------------------------------------------------

_MBOX = (
    b"From pregao@example.org Fri Mar 15 10:00:00 2024\n"
    b"From: Pregoeiro <pregao@example.org>\nTo: fornecedor@example.com\n"
    b"Subject: =?utf-8?q?Resultado_do_preg=C3=A3o?=\nDate: Fri, 15 Mar 2024 10:00:00 -0300\n"
    b"Content-Type: text/plain; charset=utf-8\n\n"
    b"Licita\xc3\xa7\xc3\xa3o p\xc3\xbablica n\xc3\xbamero 42\n\n"
    b"From compras@example.org Sat Mar 16 09:00:00 2024\n"
    b"From: Compras <compras@example.org>\nSubject: Segunda mensagem\n"
    b"Date: Sat, 16 Mar 2024 09:00:00 +0000\n\nCorpo da segunda.\n"
)


def test_mbox_messages_are_eml_children_and_the_page_indexes_them(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_MBOX, "caixa.mbox")
    assert document.mime == "application/mbox"
    assert document.tables[0].rows == (
        ("Date", "From", "Subject"),
        ("2024-03-15T13:00:00Z", "Pregoeiro <pregao@example.org>", "Resultado do pregão"),
        ("2024-03-16T09:00:00Z", "Compras <compras@example.org>", "Segunda mensagem"),
    )
    first, second = document.children
    assert first.name.endswith("caixa.mbox/0001.eml")
    assert first.mime == "message/rfc822"
    assert samples.PHRASE in first.text
    assert first.metadata["created"] == "2024-03-15T13:00:00Z"
    assert second.text.endswith("Corpo da segunda.")
    assert document.raw_metadata["messages"] == 2


def test_mbox_is_known_by_its_content(read) -> None:  # type: ignore[no-untyped-def]
    assert read(_MBOX, "caixa").mime == "application/mbox"
    assert read(_MBOX, "Inbox.txt").mime == "application/mbox"


def test_one_message_with_its_separator_line_named_eml_stays_a_message(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_MBOX.split(b"\n\nFrom compras")[0], "mensagem.eml")
    assert document.mime == "message/rfc822"
    assert samples.PHRASE in document.text


def test_mbox_messages_past_max_members_are_not_read_and_said(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_MBOX, "caixa.mbox", limits={"max_members": 1})
    assert len(document.children) == 1
    assert "limits.max_members" in document.raw_metadata["truncated"]
    assert any(w.kind == "Truncated" and "limits.max_members" in w.message
               for w in document.report.warnings)


def test_mbox_without_messages_fails_clearly(read) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CorruptDocument, match="no message") as caught:
        read(b"just some text\nwith no separator\n", "vazia.mbox")
    assert "vazia.mbox" in str(caught.value)


def _plain_mail(charset: str, body: bytes) -> bytes:
    """A text/plain message, ``charset`` its Content-Type parameter, ``body`` sent 8-bit."""
    return (f"From: a@example.org\r\nTo: b@example.org\r\nSubject: pauta\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: text/plain{charset}\r\n"
            f"Content-Transfer-Encoding: 8bit\r\n\r\n").encode() + body


@pytest.mark.parametrize("charset", ["", '; charset="us-ascii"'])
def test_a_utf8_body_without_its_charset_keeps_its_letters(read, charset) -> None:  # type: ignore[no-untyped-def]
    body = "Reunião amanhã às 9h: pauta, orçamento e licitação."
    document = read(_plain_mail(charset, body.encode("utf-8")), "pauta.eml")
    assert body in document.text
    assert "\ufffd" not in document.text


@pytest.mark.parametrize(("label", "encoding", "body"), [
    # re-saved as UTF-8 under its old label
    ("GB2312", "utf-8", "你好！我公司可代开各类增值税发票，电话：张经理，此信息永久有效"),
    # GBK letters past GB2312 (the 镕 of 朱镕基), as Chinese mailers send them
    ("gb2312", "gbk", "朱镕基总理访问了上海"),
    # Windows-1252 quotes and euro sign under an ISO-8859-1 label
    ("iso-8859-1", "cp1252", "“Orçamento” de 1.250 € – aprovado"),
])
def test_a_body_in_another_charset_than_its_label_keeps_its_letters(  # type: ignore[no-untyped-def]
        read, label, encoding, body) -> None:
    document = read(_plain_mail(f'; charset="{label}"', body.encode(encoding)), "aviso.eml")
    assert body in document.text
    assert "\ufffd" not in document.text


def test_a_blank_plain_alternative_gives_way_to_the_html_body(read) -> None:  # type: ignore[no-untyped-def]
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"] = "banco@example.com"
    message["To"] = "cliente@example.com"
    message["Subject"] = "Transferencia"
    message.set_content("\n")
    html = "<html><body><p>Transferência de R$ 10,00 feita</p></body></html>"
    message.add_alternative(html, subtype="html")
    document = read(message.as_bytes(), "aviso.eml")
    assert document.text.splitlines()[-1] == "Transferência de R$ 10,00 feita"


def _encoded_word(data: bytes, charset: str = "gb2312") -> str:
    return f"=?{charset}?B?{base64.b64encode(data).decode()}?="


@pytest.mark.parametrize(
    ("subject", "shown"),
    [
        # a GBK letter (the 镕 of 朱镕基) under a GB2312 label, as Chinese mailers send it
        (_encoded_word("朱镕基总理访问了上海".encode("gbk")), "朱镕基总理访问了上海"),
        # a double-byte letter split across two encoded words
        (
            "Re: "
            + _encoded_word("朱镕基总理".encode("gbk")[:5])
            + "\r\n "
            + _encoded_word("朱镕基总理".encode("gbk")[5:])
            + " (2)",
            "Re: 朱镕基总理 (2)",
        ),
    ],
)
def test_encoded_words_are_read_in_the_superset_of_their_label(read, subject, shown) -> None:  # type: ignore[no-untyped-def]
    sender = _encoded_word("朱镕基".encode("gbk")) + " <zhu@example.org>"
    data = f"From: {sender}\r\nTo: b@example.org\r\nSubject: {subject}\r\n\r\ncorpo\r\n"
    document = read(data.encode(), "aviso.eml")
    lines = document.text.splitlines()
    assert lines[0] == "From: 朱镕基 <zhu@example.org>"
    assert f"Subject: {shown}" in lines
    assert document.metadata["title"] == shown


@pytest.mark.parametrize("charset", ["unknown-8bit", "x-bogus", "iso-8859-99"])
def test_encoded_words_in_a_charset_no_codec_knows_are_read_as_undeclared_text(
        read, charset: str) -> None:  # type: ignore[no-untyped-def]
    # mailers write unknown-8bit when they do not know what the bytes were
    sender = _encoded_word("José".encode("cp1252"), charset) + " <jose@example.org>"
    subject = _encoded_word("Pregão eletrônico".encode("cp1252"), charset)
    data = f"From: {sender}\r\nTo: b@example.org\r\nSubject: {subject}\r\n\r\ncorpo\r\n"
    document = read(data.encode(), "aviso.eml")
    lines = document.text.splitlines()
    assert lines[0] == "From: José <jose@example.org>"
    assert "Subject: Pregão eletrônico" in lines


def test_parts_under_another_boundary_than_the_declared_one_are_found(read) -> None:  # type: ignore[no-untyped-def]
    # read as declared, the whole body was one part of raw MIME: no text, no attachment
    data = (
        b"From: loja@example.com\r\nTo: cliente@example.com\r\nSubject: Oferta\r\n"
        b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="--=_declarada"\r\n\r\n'
        b"----=_usada\r\nContent-Type: text/html; charset=utf-8\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n"
        + base64.b64encode("<p>Promoção de inverno</p>".encode())
        + b"\r\n----=_usada\r\nContent-Type: text/csv\r\n"
        b'Content-Disposition: attachment; filename="precos.csv"\r\n\r\nitem;valor\r\n'
        b"----=_usada--\r\n"
    )
    document = read(data, "oferta.eml")
    assert document.text.splitlines()[-1] == "Promoção de inverno"
    assert [child.name for child in document.children] == ["oferta.eml/precos.csv"]
