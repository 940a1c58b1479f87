"""A web archive is read part by part: an HTML part of binary noise costs itself, not
the pages beside it; a transfer encoding is undone as in a mail; an archive cut short
says so."""

from __future__ import annotations

import base64
import random
from collections.abc import Callable
from typing import Any

import pytest

from goblin_core.errors import CorruptDocument

_HEAD = (b"From: <Saved by Blink>\r\nSubject: Relatorio\r\nMIME-Version: 1.0\r\n"
         b'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n')
_MAIN = (b"--B\r\nContent-Type: text/html; charset=utf-8\r\n"
         b"Content-Location: https://example.com/relatorio\r\n\r\n"
         b"<html><body><h1>Relat\xc3\xb3rio</h1><p>Vendas de mar\xc3\xa7o</p></body></html>\r\n")


def _noise_part(location: bytes) -> bytes:
    noise = random.Random(7).randbytes(3000)
    return (b"--B\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n"
            b"Content-Location: " + location + b"\r\n\r\n"
            + base64.encodebytes(noise).replace(b"\n", b"\r\n"))


def test_a_part_of_binary_noise_costs_only_itself(read: Callable[..., Any]) -> None:
    archive = _HEAD + _MAIN + _noise_part(b"https://example.com/quadro") + b"--B--\r\n"
    document = read(archive, "relatorio.mht")
    assert [page.text for page in document.pages] == ["Relatório\nVendas de março"]
    said = [w.message for w in document.report.warnings if w.kind == "CorruptDocument"]
    assert len(said) == 1 and "https://example.com/quadro" in said[0]
    assert document.report.truncated


def test_an_archive_of_noise_alone_is_still_refused(read: Callable[..., Any]) -> None:
    with pytest.raises(CorruptDocument, match="binary content"):
        read(_HEAD + _noise_part(b"https://example.com/") + b"--B--\r\n", "ruido.mht")


def test_a_transfer_encoding_named_with_spaces_is_decoded(read: Callable[..., Any]) -> None:
    part = (b"--B\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Content-Transfer-Encoding: quoted-printable \r\n\r\n"
            b"<p>A=C3=A7=C3=A3o conclu=C3=ADda</p>\r\n--B--\r\n")
    assert read(_HEAD + part, "acao.mht").text == "Ação concluída"


def test_an_archive_cut_short_is_read_in_part(read: Callable[..., Any]) -> None:
    archive = _HEAD + _MAIN + b"--B\r\nContent-Type: text/html\r\n\r\n<p>Segunda p\xc3\xa1gi"
    document = read(archive, "relatorio.mht")
    assert document.pages[0].text == "Relatório\nVendas de março"
    assert document.report.truncated
