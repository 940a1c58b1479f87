"""A winmail.dat cut short says so (tnefparse reads an attribute cut off as what is left
of it, silently), and an RTF body whose checksum does not match is read as far as it
decompresses instead of being lost whole, in TNEF and in Outlook .msg files."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import compressed_rtf
import olefile
import pytest
from tnefdata import MAPI_PROPS, MESSAGE, SUBJECT, attribute, mapi_binary, stream, winmail

from goblin_core.testing.corpus import corpus_dir

_FILES = {"orcamento.csv": b"item;valor\ncimento;10\n" * 50, "prazo.txt": b"trinta dias"}
_WHOLE = winmail("Proposta", "Segue a proposta revisada.", _FILES)
_RTF = (rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Arial;}}\pard\f0\fs20 "
        rb"Proposta revisada em anexo.\par Atenciosamente, Ana.\par}")


def _warnings(document: Any) -> list[tuple[str, str]]:
    return [(w.kind, w.message) for w in document.report.warnings]


def test_a_whole_stream_says_nothing(read: Callable[..., Any]) -> None:
    document = read(_WHOLE, "winmail.dat")
    assert _warnings(document) == [] and len(document.children) == 2


@pytest.mark.parametrize("cut", [1, 5, 400, 900])
def test_a_stream_cut_short_is_read_in_part(read: Callable[..., Any], cut: int) -> None:
    document = read(_WHOLE[:-cut], "winmail.dat")
    assert document.text.endswith("Segue a proposta revisada.")
    assert document.children[0].name.endswith("orcamento.csv")
    (warning,) = _warnings(document)
    assert warning[0] == "Truncated" and "cut short" in warning[1]
    assert document.report.truncated


def test_a_body_cut_inside_its_text_keeps_what_is_left(read: Callable[..., Any]) -> None:
    body_ends = _WHOLE.index(b"revisada.") + len(b"revisada")
    document = read(_WHOLE[:body_ends - 4], "winmail.dat")
    assert document.text.endswith("Segue a proposta re")
    assert document.report.truncated


def _bad_checksum(rtf: bytes) -> bytes:
    packed = compressed_rtf.compress(rtf)
    return packed[:12] + b"\0\0\0\0" + packed[16:]


def test_a_tnef_rtf_body_with_a_bad_checksum_is_read(read: Callable[..., Any]) -> None:
    props = mapi_binary(0x1009, 0x0102, _bad_checksum(_RTF))  # PR_RTF_COMPRESSED
    data = stream(attribute(MESSAGE, SUBJECT, b"Rica\x00"), attribute(MESSAGE, MAPI_PROPS, props))
    document = read(data, "winmail.dat")
    assert document.text.splitlines()[-2:] == ["Proposta revisada em anexo.",
                                               "Atenciosamente, Ana."]
    (warning,) = _warnings(document)
    assert warning[0] == "CorruptDocument" and "RTF body" in warning[1]


def _msg_with_rtf_body_only(compressed: bytes) -> bytes:
    """The corpus .msg with ``compressed`` as its RTF body and no plain body."""
    data = (corpus_dir(__file__) / "office/tika-testMSG.msg").read_bytes()
    buffer = io.BytesIO(data)
    with olefile.OleFileIO(buffer, write_mode=True) as ole:
        rtf_stream = "__substg1.0_10090102"  # PR_RTF_COMPRESSED
        # olefile writes a stream of the same size only: the bytes past the size the
        # compressed header gives are not read
        padding = ole.get_size(rtf_stream) - len(compressed)
        assert padding >= 0
        ole.write_stream(rtf_stream, compressed + b"\0" * padding)
    # PR_BODY renamed away, so the RTF is the only body
    return buffer.getvalue().replace("__substg1.0_1000001E".encode("utf-16-le"),
                                     "__substg1.0_1000001D".encode("utf-16-le"), 1)


def test_a_msg_rtf_body_with_a_bad_checksum_is_read(read: Callable[..., Any]) -> None:
    document = read(_msg_with_rtf_body_only(_bad_checksum(_RTF)), "rica.msg")
    assert document.text.splitlines()[-2:] == ["Proposta revisada em anexo.",
                                               "Atenciosamente, Ana."]
