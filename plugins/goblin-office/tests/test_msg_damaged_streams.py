"""Outlook .msg files with a damaged stream lose only what that stream held."""

from __future__ import annotations

import logging
import struct
from collections.abc import Callable

import pytest

from goblin_core import Document
from goblin_core.testing.corpus import corpus_dir

# PR_ATTACH_LONG_FILENAME, as a Unicode string stream
_LONG_FILENAME = "__substg1.0_3707001F".encode("utf-16-le")
# where a compound file's directory entry keeps its stream's size
_ENTRY_SIZE_AT = 120


def test_an_attachment_whose_name_stream_is_damaged_keeps_the_message(
    read: Callable[..., Document],
) -> None:
    data = bytearray((corpus_dir(__file__) / "office/fake-email-attachment.msg").read_bytes())
    entry = data.find(_LONG_FILENAME)
    assert entry > 0 and data.count(_LONG_FILENAME) == 1
    # a size past the file's end: olefile refuses to open the stream
    struct.pack_into("<I", data, entry + _ENTRY_SIZE_AT, 0x7FFFFFF0)
    document = read(bytes(data), "anexo.msg")
    assert document.status == "clean"
    assert "Subject: Fake email with attachment" in document.text.splitlines()
    # the short name stands in for the long one
    assert [child.name for child in document.children] == ["anexo.msg/fake-att.txt"]
    assert document.children[0].text == "Hey this is a fake attachment!"


def _corpus_msg(name: str) -> bytes:
    return (corpus_dir(__file__) / "office" / name).read_bytes()


def test_a_msg_whose_attachment_lost_its_data_keeps_its_text_and_says_so(
    read: Callable[..., Document],
) -> None:
    data = bytearray(_corpus_msg("fake-email-attachment.msg"))
    stream = "__substg1.0_37010102".encode("utf-16-le")  # PR_ATTACH_DATA_BIN
    entry = data.find(stream)
    data[entry:entry + len(stream)] = "__substg1.0_37990102".encode("utf-16-le")
    document = read(bytes(data), "anexo.msg")
    assert "Subject: Fake email with attachment" in document.text.splitlines()
    assert "Here's the attachments!" in document.text
    assert [(w.kind, "data stream" in w.message) for w in document.report.warnings] == [
        ("CorruptDocument", True)]


def test_a_msg_cut_short_keeps_the_text_it_still_holds(read: Callable[..., Document]) -> None:
    data = _corpus_msg("tika-testMSG.msg")
    document = read(data[:-3000], "cortada.msg")
    assert "Subject: MIME registry use cases" in document.text.splitlines()
    assert "type detection code" in document.text
    assert [w.kind for w in document.report.warnings] == ["CorruptDocument"]




def test_a_msg_read_past_its_damage_logs_no_extract_msg_error(
    read: Callable[..., Document], caplog: pytest.LogCaptureFixture,
) -> None:
    data = _corpus_msg("tika-testMSG.msg")
    with caplog.at_level(logging.DEBUG):
        document = read(data[:-3000], "cortada.msg")
    assert "Subject: MIME registry use cases" in document.text.splitlines()
    # the damage is said once, in the report, not as an error of a file that was read
    assert not [r for r in caplog.records
                if r.name.startswith("extract_msg") and r.levelno >= logging.ERROR]
    assert logging.getLogger("extract_msg").level == logging.NOTSET
