"""A UTF-8 CSV, Markdown file or web page with one stray Windows-1252 byte keeps its
UTF-8, the stray byte read as Windows-1252, where the whole file was read in one
legacy code page ("RelatÃ³rio")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

LINE = "Relatório anual de atividades da comissão de licitação; Ação nº 12"


def _with_one_stray_dash(prefix: bytes = b"", suffix: bytes = b"") -> bytes:
    body = "\n".join([LINE] * 50).encode()
    return prefix + body + b"\nPrazo: 10 \x96 20 dias\n" + body + suffix


@pytest.mark.parametrize("name", ["relatorio.csv", "relatorio.md"])
def test_a_text_format_with_one_stray_byte_keeps_its_utf8(
        read: Callable[..., Any], name: str) -> None:
    document = read(_with_one_stray_dash(), name)
    assert document.text.splitlines()[0].replace("\t", ";") == LINE
    assert "Prazo: 10 – 20 dias" in document.text
    assert "Ã" not in document.text


def test_a_page_without_a_charset_with_one_stray_byte_keeps_its_utf8(
        read: Callable[..., Any]) -> None:
    document = read(_with_one_stray_dash(b"<html><body><pre>", b"</pre></body></html>"),
                    "relatorio.html")
    assert document.text.splitlines()[0] == LINE
    assert "Prazo: 10 – 20 dias" in document.text
    assert "Ã" not in document.text


def test_a_page_declared_utf8_with_only_windows_1252_is_still_read(
        read: Callable[..., Any]) -> None:
    # not one UTF-8 sequence: the declaration lies and detection reads the page
    page = f"<html><head><meta charset='utf-8'></head><body><p>{LINE}</p></body></html>"
    assert read(page.encode("cp1252"), "mente.html").text == LINE
