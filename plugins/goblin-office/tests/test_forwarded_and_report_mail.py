"""Messages inside messages, and the delivery reports bounces carry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import Document


def _forward_chain(levels: int) -> bytes:
    """A message forwarded inside ``levels`` others, each a multipart/mixed with it attached."""
    data = b"From: origem@example.com\r\nSubject: nivel 0\r\n\r\nTexto original.\r\n"
    for level in range(1, levels + 1):
        data = (
            f"From: encaminha@example.com\r\nSubject: nivel {level}\r\nMIME-Version: 1.0\r\n"
            f'Content-Type: multipart/mixed; boundary="b{level}"\r\n\r\n'
            f"--b{level}\r\nContent-Type: text/plain\r\n\r\nEncaminhado {level}.\r\n"
            f"--b{level}\r\nContent-Type: message/rfc822\r\n\r\n"
        ).encode() + data + f"\r\n--b{level}--\r\n".encode()
    return data


def test_a_message_whose_whole_body_is_a_forwarded_message_has_it_as_a_child(
    read: Callable[..., Document],
) -> None:
    data = (
        b"From: encaminha@example.com\r\nSubject: Fwd: edital\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: message/rfc822\r\n\r\n"
        b"From: origem@example.com\r\nSubject: Edital 42\r\n\r\nO prazo termina sexta.\r\n"
    )
    document = read(data, "encaminhada.eml")
    assert [child.name for child in document.children] == ["encaminhada.eml/attachment-1.eml"]
    child = document.children[0]
    assert child.metadata["title"] == "Edital 42"
    assert child.text.splitlines()[-1] == "O prazo termina sexta."


def test_a_message_forwarded_too_deep_to_be_written_back_leaves_the_outer_text_read(
    read: Callable[..., Document],
) -> None:
    # parsed by the standard library, but deeper than it writes a message back
    document = read(_forward_chain(200), "cadeia.eml")
    assert document.metadata["title"] == "nivel 200"
    assert document.text.splitlines()[-1] == "Encaminhado 200."
    assert not document.children
    assert [(w.kind, "nests deeper" in w.message) for w in document.report.warnings] == [
        ("CorruptDocument", True)]
    assert "RecursionError" not in str(document.report)


def _report(kind: str, fields: bytes, original: bytes = b"") -> bytes:
    """A multipart/report of ``kind`` (RFC 6522): a line of text, the report's
    ``fields``, then the ``original`` message when given."""
    attached = b"--RR\r\nContent-Type: message/rfc822\r\n\r\n" + original if original else b""
    return (
        b"From: MAILER-DAEMON@mx.example.com\r\nTo: alice@example.com\r\n"
        b"Subject: Report\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: multipart/report; report-type=" + kind.encode()
        + b'; boundary="RR"\r\n\r\n'
        b"--RR\r\nContent-Type: text/plain\r\n\r\nA report follows.\r\n"
        b"--RR\r\nContent-Type: message/" + kind.encode() + b"\r\n\r\n"
        + fields + b"\r\n" + attached + b"--RR--\r\n"
    )


def test_a_bounce_keeps_the_fields_of_its_delivery_report(read: Callable[..., Any]) -> None:
    fields = (
        b"Reporting-MTA: dns; mx.example.com\r\n\r\n"
        b"Final-Recipient: rfc822; bob@nowhere.example\r\nAction: failed\r\n"
        b"Status: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\r\n"
    )
    original = (b"From: alice@example.com\r\nTo: bob@nowhere.example\r\nSubject: Proposta\r\n"
                b"\r\nSegue a proposta.\r\n")
    document = read(_report("delivery-status", fields, original), "bounce.eml")
    lines = document.text.splitlines()
    assert lines[lines.index("A report follows."):] == [
        "A report follows.",
        "Reporting-MTA: dns; mx.example.com",
        "Final-Recipient: rfc822; bob@nowhere.example",
        "Action: failed",
        "Status: 5.1.1",
        "Diagnostic-Code: smtp; 550 5.1.1 User unknown",
    ]
    assert [child.metadata["title"] for child in document.children] == ["Proposta"]


def test_a_read_receipt_keeps_the_fields_of_its_disposition_report(
    read: Callable[..., Any],
) -> None:
    fields = (b"Final-Recipient: rfc822; bob@example.com\r\n"
              b"Disposition: manual-action/MDN-sent-manually; displayed\r\n")
    document = read(_report("disposition-notification", fields), "recibo.eml")
    assert document.text.splitlines()[-2:] == [
        "Final-Recipient: rfc822; bob@example.com",
        "Disposition: manual-action/MDN-sent-manually; displayed",
    ]
    assert not document.children


def test_a_delivery_report_written_8bit_keeps_its_letters(read: Callable[..., Any]) -> None:
    fields = ("Final-Recipient: rfc822; bob@example.org\r\n"
              "Diagnostic-Code: smtp; 550 usuário inexistente\r\n").encode("latin-1")
    document = read(_report("delivery-status", fields), "bounce.eml")
    assert document.text.splitlines()[-1] == "Diagnostic-Code: smtp; 550 usuário inexistente"
