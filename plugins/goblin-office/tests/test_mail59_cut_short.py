"""A multipart message cut short (a download or an export that stopped) says so: it ends
inside its last part, before the line closing its parts, and what followed is lost."""

from __future__ import annotations

import email
import email.errors
import email.policy
from collections.abc import Callable
from typing import Any

import pytest
from bounds import bounded
from parsed_mail import assert_reads_as_the_library

from goblin_office import mail
from goblin_office.mail import parse_mail

_HEAD = (b"From: ana@example.com\r\nTo: bia@example.com\r\nSubject: Contrato\r\n"
         b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="XYZ"\r\n\r\n'
         b"--XYZ\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSegue o contrato.\r\n"
         b"--XYZ\r\nContent-Type: text/plain; name=clausulas.txt\r\n"
         b"Content-Disposition: attachment; filename=clausulas.txt\r\n\r\n"
         b"Primeira cl\xc3\xa1usula: prazo de 30 dias.\r\nSegunda cl\xc3\xa1usula: multa")


def _nested(ending: bytes) -> bytes:
    """A mixed message whose body is an alternative part, then ``ending``."""
    return (b"From: ana@example.com\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
            b'Content-Type: multipart/mixed; boundary="out"\r\n\r\n--out\r\n'
            b'Content-Type: multipart/alternative; boundary="in"\r\n\r\n--in\r\n'
            b"Content-Type: text/plain\r\n\r\nSegue o contrato" + ending)


def _kinds(document: Any) -> list[str]:
    return [warning.kind for warning in document.report.warnings]


def test_a_message_cut_mid_line_is_read_in_part(read: Callable[..., Any]) -> None:
    document = read(_HEAD, "contrato.eml")
    assert document.text.endswith("Segue o contrato.")
    (child,) = document.children
    assert child.text.endswith("Segunda cláusula: multa")
    assert "Truncated" in _kinds(document)
    assert document.report.truncated


def test_a_message_cut_inside_a_nested_part_is_read_in_part(
        read: Callable[..., Any]) -> None:
    document = read(_nested(b", assinado pelas"), "contrato.eml")
    assert document.text.endswith("Segue o contrato, assinado pelas")
    assert document.report.truncated


def test_a_message_without_its_closing_line_at_a_line_end_is_not_read_in_part(
        read: Callable[..., Any]) -> None:
    document = read(_HEAD + b".\r\n", "contrato.eml")
    assert _kinds(document) == ["CorruptDocument"]
    assert not document.report.truncated
    assert document.children[0].text.endswith("multa.")


def test_a_whole_message_says_nothing(read: Callable[..., Any]) -> None:
    for ending in (b".\r\n--XYZ--\r\n", b".\r\n--XYZ--", b".\r\n--XYZ--\r\nepilogue"):
        document = read(_HEAD + ending, "contrato.eml")
        assert _kinds(document) == [] and not document.report.truncated, ending


def test_an_inner_part_left_open_inside_a_closed_message_is_no_cut(
        read: Callable[..., Any]) -> None:
    document = read(_nested(b".\r\n--out--\r\n"), "x.eml")
    assert document.text.endswith("Segue o contrato.")
    assert not document.report.truncated


_BIG_HEAD = (b"From: a@example.com\r\nSubject: big\r\nMIME-Version: 1.0\r\n"
             b'Content-Type: multipart/mixed; boundary="XYZ"\r\n\r\n--XYZ\r\n'
             b"Content-Type: text/plain\r\n\r\nhello body\r\n--XYZ\r\n"
             b"Content-Type: text/plain\r\nContent-Disposition: attachment; filename=a.txt"
             b"\r\n\r\n")


@pytest.mark.usefixtures("warm_plugins")
def test_a_large_message_cut_short_is_not_held_line_by_line(
        read: Callable[..., Any]) -> None:
    # without its closing line the whole message went through the standard parser,
    # a string per line: 16 MB took about 400 MB
    data = _BIG_HEAD + b"ab\r\n" * 4_000_000 + b"cut her"
    with bounded(seconds=30, megabytes=150):
        document = read(data, "grande.eml")
    assert document.text.endswith("hello body")
    (child,) = document.children
    assert child.text.count("ab") == 4_000_000 and child.text.endswith("cut her")
    assert document.report.truncated


@pytest.mark.parametrize("ending", [b"cut", b"cut\r\n", b"cut\r\n\r\n", b"cut\n", b"cut\r",
                                    b"", b"\r\n--XYZ", b"\r\n--XYZ\r\n", b"\r\n--XYZ-"])
def test_a_split_message_cut_short_reads_as_the_whole_parse(
        ending: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mail, "SPLIT_MULTIPART_FROM", 0)  # split however small
    message = _BIG_HEAD + b"first line\r\n" + ending
    ours = parse_mail(message)
    assert_reads_as_the_library(ours, message)
    library = email.message_from_bytes(message, policy=email.policy.default)
    assert _unclosed(ours) == _unclosed(library)


def _unclosed(message: Any) -> bool:
    return any(isinstance(d, email.errors.CloseBoundaryNotFoundDefect) for d in message.defects)


def test_a_split_forwarded_message_cut_short_reads_as_the_whole_parse(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mail, "SPLIT_MULTIPART_FROM", 0)
    message = (_BIG_HEAD.replace(b"Content-Type: text/plain\r\nContent-Disposition",
                                 b"Content-Type: message/rfc822\r\nContent-Disposition")
               + b"From: c@example.com\r\nSubject: inner\r\n\r\ninner body\r\n")
    assert_reads_as_the_library(parse_mail(message), message)
