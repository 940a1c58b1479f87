"""Outlook .msg bodies kept only as rich text (RTF) are read through goblin's RTF reader."""

from __future__ import annotations

import io
from collections.abc import Callable

import compressed_rtf
import olefile

from goblin_core import Document
from goblin_core.testing.corpus import corpus_dir


def test_a_msg_whose_body_is_only_rich_text_is_read(read: Callable[..., Document]) -> None:
    data = (corpus_dir(__file__) / "office/tika-testMSG.msg").read_bytes()
    rtf_stream = "__substg1.0_10090102"  # PR_RTF_COMPRESSED
    with olefile.OleFileIO(data) as ole:
        size = ole.get_size(rtf_stream)
    # Outlook's rich text, not RTF wrapping plain text or HTML; olefile writes a
    # stream of the same size only, so the RTF is padded to it
    rtf = (rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Arial;}}\pard\f0\fs20 "
           rb"Proposta revisada em anexo.\par Atenciosamente, Ana.\par}")
    packed = compressed_rtf.compress(rtf + b" " * (size - 16 - len(rtf)), compressed=False)
    buffer = io.BytesIO(data)
    with olefile.OleFileIO(buffer, write_mode=True) as ole:
        ole.write_stream(rtf_stream, packed)
    edited = bytearray(buffer.getvalue())
    plain = "__substg1.0_1000001E".encode("utf-16-le")  # PR_BODY: renamed away
    at = edited.find(plain)
    edited[at:at + len(plain)] = "__substg1.0_1000001D".encode("utf-16-le")
    document = read(bytes(edited), "rica.msg")
    assert document.text.splitlines()[-2:] == ["Proposta revisada em anexo.",
                                               "Atenciosamente, Ana."]
