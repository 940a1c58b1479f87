"""vCard 2.1 and vCalendar 1.0 values: quoted-printable ones decoded in their charset,
soft line breaks joined; base64 ones (attached files, pictures) left out of the text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def _card(*properties: bytes) -> bytes:
    return b"BEGIN:VCARD\r\nVERSION:2.1\r\n" + b"".join(properties) + b"END:VCARD\r\n"


@pytest.fixture
def card_lines(read: Callable[..., Any]) -> Callable[..., list[str]]:
    """The text lines of a card of these property lines, read as a .vcf."""

    def run(*properties: bytes) -> list[str]:
        return list(read(_card(*properties), "contatos.vcf").text.split("\n"))

    return run


def test_quoted_printable_values_are_decoded_in_their_charset(
    card_lines: Callable[..., list[str]]
) -> None:
    assert card_lines(
        b"N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Silva;=4A=6F=C3=A3=6F;;;\r\n",
        b"FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=4A=6F=C3=A3=6F=20Silva\r\n",
        b"ORG;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Caf=E9 Brasil\r\n",
        b"TEL;CELL:+55 11 99999-0000\r\n",
    ) == ["VCARD", "N: Silva;João;;;", "FN: João Silva", "ORG: Café Brasil",
          "TEL: +55 11 99999-0000"]


def test_a_soft_line_break_joins_the_next_line(card_lines: Callable[..., list[str]]) -> None:
    assert card_lines(
        b"NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Cliente desde 2019. Endere=\r\n",
        b"=C3=A7o: Rua das Flores 10=0D=0A=\r\n",
        b"Bloco B\r\n",
        b"EMAIL:ana@example.com\r\n",
    ) == ["VCARD", "NOTE: Cliente desde 2019. Endereço: Rua das Flores 10", "Bloco B",
          "EMAIL: ana@example.com"]


@pytest.mark.parametrize("parameters", [b";QUOTED-PRINTABLE", b";ENCODING=quoted-printable"])
def test_the_encoding_may_be_a_bare_parameter_and_any_case(
    card_lines: Callable[..., list[str]], parameters: bytes
) -> None:
    assert "FN: João Silva" in card_lines(b"FN" + parameters + b":Jo=C3=A3o=\r\n", b" Silva\r\n")


def test_a_value_not_in_its_declared_charset_falls_back(
    card_lines: Callable[..., list[str]]
) -> None:
    # labelled UTF-8, written in Windows-1252, as old exporters did
    assert card_lines(b"FN;CHARSET=UTF-8;QUOTED-PRINTABLE:Jo=E3o\r\n",
                      b"ORG;CHARSET=X-UNKNOWN;QUOTED-PRINTABLE:Caf=C3=A9\r\n",
                      ) == ["VCARD", "FN: João", "ORG: Café"]


def test_a_stray_soft_break_before_the_end_keeps_the_next_card(
    read: Callable[..., Any]
) -> None:
    document = read(_card(b"FN;QUOTED-PRINTABLE:Ana=\r\n") + _card(b"FN:Bruno\r\n"), "c.vcf")
    assert document.text.split("\n") == ["VCARD", "FN: Ana", "VCARD", "FN: Bruno"]


def test_base64_attachments_are_left_out_of_the_text(read: Callable[..., Any]) -> None:
    data = (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\n"
        b"SUMMARY:Sess\xc3\xa3o p\xc3\xbablica\r\n"
        b"ATTACH;FMTTYPE=application/pdf;ENCODING=BASE64;VALUE=BINARY;X-FILENAME=edital.pdf:\r\n"
        b" JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSL0ZpbHRlci9GbGF0ZUR\r\n"
        b" lY29kZT4+CnN0cmVhbQp4nDPQM1Qo5ypUMFAw0DMwslAwtTTVMzI3VzCxNNSzMFIoSuUK5ApUAACq\r\n"
        b"ATTACH:https://example.org/edital.pdf\r\n"
        b"END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    document = read(data, "agenda.ics")
    assert document.text.split("\n") == [
        "VEVENT", "SUMMARY: Sessão pública", "ATTACH: https://example.org/edital.pdf",
    ]


def test_a_vcalendar_1_attachment_with_a_bare_base64_parameter_is_left_out(
    read: Callable[..., Any]
) -> None:
    data = (
        b"BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\n"
        b"SUMMARY;CHARSET=ISO-8859-1;QUOTED-PRINTABLE:Reuni=E3o\r\n"
        b"ATTACH;BASE64:JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoK\r\n"
        b"END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    assert read(data, "agenda.vcs").text.split("\n") == ["VEVENT", "SUMMARY: Reunião"]
