"""TNEF streams whose code page Python names otherwise, or whose strings do not fit it."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest
from tnefdata import (
    BODY,
    CODEPAGE,
    MAPI_PROPS,
    MESSAGE,
    SIGNATURE,
    SUBJECT,
    VERSION,
    attribute,
    mapi_binary,
)

from goblin_core import Document

_PR_SENDER_NAME = 0x0C1A
_PT_STRING8 = 0x001E


def _winmail(code_page: int, subject: bytes, body: bytes, sender: bytes) -> bytes:
    """A stream declaring ``code_page``, its strings written as the bytes given."""
    head = (attribute(MESSAGE, VERSION, struct.pack("<I", 0x10000))
            + attribute(MESSAGE, CODEPAGE, struct.pack("<II", code_page, 0)))
    return SIGNATURE + struct.pack("<H", 0x0101) + head + b"".join((
        attribute(MESSAGE, SUBJECT, subject + b"\x00"),
        attribute(MESSAGE, BODY, body + b"\x00"),
        attribute(MESSAGE, MAPI_PROPS, mapi_binary(_PR_SENDER_NAME, _PT_STRING8, sender + b"\x00")),
    ))


@pytest.mark.parametrize(("code_page", "codec", "text"), [
    # code pages Python names otherwise, or none
    (20932, "euc_jp", "会議の議事録"),  # tnefparse names it cp20932, which Python lacks
    (54936, "gb18030", "会议记录"),
    (0, "cp1252", "Ata da sessão"),
    # strings that do not fit the code page declared
    (1252, "cp932", "会議、議事録"),  # a Shift_JIS 0x81 Windows-1252 has no character for
    (65001, "cp1252", "Ata da sessão"),  # declared UTF-8, written in Windows-1252
])
def test_a_tnef_stream_is_read_whatever_its_code_page_says(
    read: Callable[..., Document], code_page: int, codec: str, text: str,
) -> None:
    encoded = text.encode(codec)
    document = read(_winmail(code_page, encoded, encoded, encoded), "winmail.dat")
    assert document.text.splitlines() == [f"From: {text}", f"Subject: {text}", text]
    assert document.metadata["title"] == text


def test_a_tnef_stream_declaring_no_code_page_is_read_as_windows_1252(
    read: Callable[..., Document],
) -> None:
    data = SIGNATURE + struct.pack("<H", 0x0101) + b"".join((
        attribute(MESSAGE, VERSION, struct.pack("<I", 0x10000)),
        attribute(MESSAGE, SUBJECT, "Ata da sessão\x00".encode("cp1252")),
        attribute(MESSAGE, BODY, "Sessão aberta às 9h.\x00".encode("cp1252")),
    ))
    document = read(data, "winmail.dat")
    assert document.text.splitlines() == ["Subject: Ata da sessão", "Sessão aberta às 9h."]
