"""Outlook .msg headers and code pages: what Outlook itself shows, not extract-msg's guesses."""

from __future__ import annotations

import codecs
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from goblin_core import extract
from goblin_core.testing.corpus import corpus_dir
from goblin_office.mail import msg_recipients, msg_sender, msg_string_encoding


class _Kind(Enum):
    TO = 1
    CC = 2


class _Prop:
    def __init__(self, value: object) -> None:
        self.value = value


class _Recipient:
    def __init__(self, name: str, email: str, kind: _Kind) -> None:
        self.name, self.email, self.type = name, email, kind


class _Msg:
    """The parts of an extract-msg message the header and code page readers use."""

    def __init__(self, *, unicode: bool = False, props: dict[str, object] | None = None,
                 streams: dict[str, Any] | None = None,
                 recipients: list[_Recipient] | None = None) -> None:
        self.areStringsUnicode = unicode
        self.props = {key: _Prop(value) for key, value in (props or {}).items()}
        self.streams = streams or {}
        self.recipients = recipients or []

    def getStream(self, name: str) -> Any:
        return self.streams.get(name)

    def getStringStream(self, name: str) -> Any:
        return self.streams.get(name)


_BIG5_BODY = "中文測試：會議記錄，理事會議時間與地點".encode("big5")


@pytest.mark.parametrize(
    ("message", "codec"),
    [
        (_Msg(unicode=True, props={"3FDE0003": 950}), None),  # UTF-16 strings: nothing to choose
        (_Msg(props={"3FFD0003": 1252, "3FDE0003": 950}), None),  # extract-msg reads 3FFD itself
        (_Msg(props={"3FDE0003": 932}), "cp932"),
        (_Msg(props={"3FDE0003": 65001}), "utf-8"),
        (_Msg(props={"3FDE0003": 28591}), "iso8859-1"),
        (_Msg(props={"3FDE0003": 1200}, streams={"__substg1.0_1000001E": b"plain"}), None),
        (_Msg(props={"3FDE0003": "950"}, streams={"__substg1.0_1000001E": b"plain"}), None),
        (_Msg(streams={"__substg1.0_1000001E": b"only ASCII here"}), None),
        (_Msg(), None),
    ],
)
def test_msg_code_page_comes_from_what_the_message_declares(message: _Msg,
                                                           codec: str | None) -> None:
    found = msg_string_encoding(message)
    assert (codecs.lookup(found).name if found else None) == codec


def test_msg_code_page_without_a_declaration_is_read_from_the_body() -> None:
    codec = msg_string_encoding(_Msg(streams={"__substg1.0_1000001E": _BIG5_BODY}))
    assert codec is not None
    assert _BIG5_BODY.decode(codec) == "中文測試：會議記錄，理事會議時間與地點"


def test_msg_sender_is_outlooks_name_and_smtp_address() -> None:
    smtp = _Msg(streams={"__substg1.0_0C1A": "Ana Souza", "__substg1.0_0C1E": "SMTP",
                         "__substg1.0_0C1F": "ana@example.org"})
    assert msg_sender(smtp) == "Ana Souza <ana@example.org>"
    exchange = _Msg(streams={"__substg1.0_0C1A": "Ana Souza", "__substg1.0_0C1E": "EX",
                             "__substg1.0_0C1F": "/O=ORG/OU=SITE/CN=RECIPIENTS/CN=ASOUZA"})
    assert msg_sender(exchange) == "Ana Souza"
    exchange.streams["__substg1.0_5D01"] = "ana@example.org"
    assert msg_sender(exchange) == "Ana Souza <ana@example.org>"
    assert msg_sender(_Msg()) == ""


def test_msg_recipients_skip_empty_entries_and_keep_their_kind() -> None:
    message = _Msg(recipients=[
        _Recipient("Ana Souza", "ana@example.org", _Kind.TO),
        _Recipient("", "", _Kind.CC),
        _Recipient("bo@example.org", "bo@example.org", _Kind.TO),
    ])
    assert msg_recipients(message, "to") == "Ana Souza <ana@example.org>; bo@example.org"
    assert msg_recipients(message, "cc") == ""


def test_big5_message_without_a_string_code_page_reads_as_chinese() -> None:
    # the message declares only its internet code page (950) and the locale zh-TW
    document = extract(Path(corpus_dir(__file__)) / "office/testMSG_chinese.msg", ocr="never")
    lines = document.text.splitlines()
    assert "Subject: Alfresco MSG format testing ( MSG 格式測試 )" in lines
    assert "From: Tests Chang@FT (張毓倫)" in lines
    assert "恭喜 HQ 保全課 陳奎良 高票當選" in document.text
    assert document.metadata["title"] == "Alfresco MSG format testing ( MSG 格式測試 )"


def test_msg_headers_are_the_messages_own_not_its_transport_headers() -> None:
    # the transport headers kept from the original mail name another sender and recipient
    document = extract(Path(corpus_dir(__file__)) / "office/test_outlook_msg.msg", ocr="never")
    lines = document.text.splitlines()
    assert "From: M. C. Kurtuluş <test.sender@example.com>" in lines
    assert "To: test.recipient@example.com" in lines
    assert not any(line.startswith("Cc:") for line in lines)
