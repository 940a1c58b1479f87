"""Hostile mail, web archives, JSON and calendars: headers the standard library parses
in quadratic time, charsets that are no text encoding, attachments past the limit,
numbers past Python's digit limit, folded lines by the million.

Each must end in seconds and bounded memory with the text it could read.
"""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable
from typing import Any

import pytest
from bounds import bounded
from parsed_mail import assert_reads_as_the_library

from goblin_core import default_registry
from goblin_core.source import Source
from goblin_office.mail import MAX_HEADER_CHARS, EMLParser, parse_mail
from goblin_office.structured import JSONParser

pytestmark = pytest.mark.usefixtures("warm_plugins")


def _warnings(document: Any) -> str:
    return " ".join(entry.message for entry in document.report.warnings)


def test_a_subject_of_encoded_words_is_read_to_a_bound(read: Callable[..., Any]) -> None:
    # 64 KiB of encoded words took the header parser 135 MB; 200 KB of them, 1.2 GB
    subject = "=?utf-8?q?abc?= " * 12_000
    data = f"From: a@example.com\nSubject: {subject}\n\nthe body survives\n".encode()
    with bounded(seconds=10, megabytes=200):
        document = read(data, "palavras.eml")
    assert "the body survives" in document.text
    assert "abcabc" in document.text
    assert "Subject" in _warnings(document)


def test_a_body_of_millions_of_short_lines_is_not_held_line_by_line(
        read: Callable[..., Any]) -> None:
    # the standard library's parser keeps a string per body line: 16 MB of them took 400 MB
    data = b"From: a@example.com\nSubject: lines\n\n" + b"ab\n" * 4_000_000 + b"the end\n"
    with bounded(seconds=20, megabytes=150):
        document = read(data, "linhas.eml")
    assert document.text.count("ab") == 4_000_000
    assert document.text.rstrip().endswith("the end")


@pytest.mark.parametrize("message", [
    b"From: a@example.com\r\nSubject: =?utf-8?q?ol=C3=A1?=\r\n\r\nline one\r\n\r\nline two\r\n",
    b"From: a@example.com\nContent-Type: text/plain; charset=latin-1\n"
    b"Content-Transfer-Encoding: quoted-printable\n\nS=E3o Paulo =\nsoft break\n",
    b"From: a@example.com\nContent-Type: text/plain; charset=cp1252\n\nS\xe3o Paulo \x80\n",
    b"From: a@example.com\nnot a header line\nSubject: late\n\nbody\n",
    b"From: a@example.com\nContent-Type: message/rfc822\n\nFrom: b@example.com\n\ninner\n",
    b"\nFrom: a@example.com\n\nbody\n",
    b"From: a@example.com\nSubject: no body",
], ids=["crlf", "quoted-printable", "8-bit", "no-blank-line-first", "message", "blank-first",
        "headers-only"])
def test_a_message_parsed_past_its_headers_only_reads_as_the_full_parse(message: bytes) -> None:
    ours = parse_mail(message)
    assert_reads_as_the_library(ours, message)
    library = email.message_from_bytes(message, policy=email.policy.default)
    assert ours.defects == library.defects or [type(d) for d in ours.defects] == \
        [type(d) for d in library.defects]


def test_rfc2231_continuations_by_the_thousand_are_parsed_once(read: Callable[..., Any]) -> None:
    # each read of a part's Content-Disposition parsed all of them again
    params = "".join(f";\n filename*{i}*=ab%41" for i in range(1, 20_000))
    data = (
        "From: a@example.com\nSubject: s\nContent-Type: multipart/mixed; boundary=XX\n\n"
        "--XX\nContent-Type: text/plain\n\nthe body survives\n"
        "--XX\nContent-Type: text/plain\nContent-Disposition: attachment;\n"
        f" filename*0*=utf-8''anexo{params}\n\nthe attachment\n--XX--\n"
    ).encode()
    with bounded(seconds=10, megabytes=200):
        document = read(data, "parametros.eml")
    assert "the body survives" in document.text
    assert [child.text for child in document.children] == ["the attachment"]
    assert "Content-Disposition" in _warnings(document)


def test_a_long_header_in_a_web_archive_is_read_to_a_bound(read: Callable[..., Any]) -> None:
    params = "".join(f";\n p{i}*=utf-8''ab%41" for i in range(20_000))
    data = (
        "From: a@example.com\nMIME-Version: 1.0\n"
        "Content-Type: multipart/related; boundary=XX\n\n"
        f"--XX\nContent-Type: text/html; charset=utf-8{params}\n\n"
        "<p>visible page</p>\n--XX--\n"
    ).encode()
    with bounded(seconds=10, megabytes=200):
        document = read(data, "pagina.mht")
    assert "visible page" in document.text


def test_an_mbox_index_reads_a_long_subject_to_a_bound(read: Callable[..., Any]) -> None:
    # decoding 3 MB of encoded words for the index took 88 s
    subject = "=?utf-8?q?abc?= " * 40_000
    data = (
        f"From a@x Mon Jan  1 00:00:00 2024\nFrom: a@example.com\nSubject: {subject}\n\n"
        "the body\n"
    ).encode()
    assert len(subject) > MAX_HEADER_CHARS
    with bounded(seconds=10, megabytes=200):
        document = read(data, "caixa.mbox")
    assert document.parsed_by == ("office.mbox",)
    assert "abcabc" in document.text
    assert "the body" in document.children[0].text


@pytest.mark.parametrize("charset", ["hex", "base64", "rot13", "idna", "punycode", "undefined"])
def test_a_charset_that_is_no_text_encoding_keeps_the_body(
    read: Callable[..., Any], charset: str
) -> None:
    # written in Windows-1252, as a mailer that knows no better sends it
    data = (
        f"From: a@example.com\nSubject: s\nContent-Type: text/plain; charset={charset}\n"
        "Content-Transfer-Encoding: 8bit\n\nA licitação começa às nove horas.\n"
    ).encode("cp1252")
    document = read(data, "charset.eml")
    assert "A licitação começa às nove horas." in document.text


def test_attachments_past_max_members_are_not_gathered() -> None:
    parts = "".join(
        f"--XX\nContent-Type: text/plain\nContent-Disposition: attachment; filename=a{i}.txt\n"
        f"\nanexo {i}\n"
        for i in range(50)
    )
    data = (
        "From: a@example.com\nSubject: s\nContent-Type: multipart/mixed; boundary=XX\n\n"
        f"--XX\nContent-Type: text/plain\n\nbody\n{parts}--XX--\n"
    ).encode()
    config = default_registry().config(max_members=5)
    document = EMLParser().open(Source.from_bytes(data, "anexos.eml"), config)
    # one past the limit: the pipeline still learns that some were left out
    assert len(list(document.attachments())) == 6


def test_many_attachments_past_max_members_are_said_in_the_report(
    read: Callable[..., Any],
) -> None:
    parts = "".join(f"--XX\nContent-Type: text/plain\n\nparte {i}\n" for i in range(20))
    data = (
        "From: a@example.com\nSubject: s\nContent-Type: multipart/mixed; boundary=XX\n\n"
        f"--XX\nContent-Type: text/plain\n\nbody\n{parts}--XX--\n"
    ).encode()
    document = read(data, "partes.eml", max_members=5)
    assert len(document.children) == 5
    assert any(e.kind == "UnsafeArchive" for e in document.report.errors)


def test_json_with_a_number_past_the_digit_limit_keeps_its_text() -> None:
    data = b'{"n": ' + b"1" * 10_000 + b"}"
    document = JSONParser().open(Source.from_bytes(data, "numero.json"),
                                 default_registry().config())
    assert next(iter(document.pages())).text.startswith('{"n": 111')
    assert document.metadata["valid_json"] is False
    assert "digits" in str(document.metadata["json_error"])


def test_ndjson_records_are_counted(read: Callable[..., Any]) -> None:
    document = JSONParser().open(
        Source.from_bytes(b'{"a": 1}\n\n[2]\n"x"\n', "linhas.ndjson"), default_registry().config()
    )
    assert document.metadata["records"] == 3
    assert document.metadata["valid_json"] is True


def test_a_calendar_line_folded_a_million_times_is_unfolded_in_linear_time(
    read: Callable[..., Any],
) -> None:
    # adding each continuation to the line so far took 5 s for 600,000 of them, 13 s for
    # a million
    data = b"BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:a\n" + b" b\n" * 1_000_000 + b"END:VEVENT\n"
    with bounded(seconds=10, megabytes=300):
        document = read(data, "agenda.ics")
    assert "SUMMARY: a" + "b" * 1_000_000 in document.text
