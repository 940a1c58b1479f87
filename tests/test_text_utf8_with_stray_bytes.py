"""UTF-8 text with a few stray Windows-1252 bytes (a dash pasted from Word) keeps its
UTF-8, each stray byte read as Windows-1252, where one legacy code page for the whole
text garbled every letter ("RelatÃ³rio")."""

from __future__ import annotations

import codecs
import time

import pytest

from goblin_core import extract, load_registry
from goblin_core.builtin.text import UTF8_STRAY_CP1252, decode_text

CORE_ONLY = load_registry(load=[])

LINE = "Relatório anual de atividades da comissão de licitação. Ação nº 12.\n"


def _with_one_stray_dash() -> tuple[bytes, str]:
    body = LINE * 50
    return body.encode() + b"Prazo: 10 \x96 20 dias.\n" + body.encode(), (
        body + "Prazo: 10 – 20 dias.\n" + body)


def test_one_stray_byte_keeps_the_utf8_of_the_whole_file() -> None:
    data, expected = _with_one_stray_dash()
    assert decode_text(data) == (expected, UTF8_STRAY_CP1252)


def test_a_text_file_with_a_stray_byte_reads_through_the_pipeline() -> None:
    data, expected = _with_one_stray_dash()
    document = extract(data, name="relatorio.txt", registry=CORE_ONLY)
    assert document.text == expected
    assert document.raw_metadata["encoding"] == UTF8_STRAY_CP1252


def test_the_encoding_named_reads_the_same_bytes_again() -> None:
    # a caller may decode more of the same source by the name it was given
    data, expected = _with_one_stray_dash()
    assert codecs.lookup(UTF8_STRAY_CP1252).name == UTF8_STRAY_CP1252
    assert data.decode(UTF8_STRAY_CP1252) == expected
    assert "ção".encode(UTF8_STRAY_CP1252) == "ção".encode()


def test_strays_in_cyrillic_utf8_keep_its_letters() -> None:
    text = "Профиль Сообщения Контакты. "
    data = text.encode() + "Maceió".encode("cp1252") + text.encode()
    assert decode_text(data) == (text + "Maceió" + text, UTF8_STRAY_CP1252)


@pytest.mark.parametrize(("text", "encoding"), [
    ("Relatório anual da comissão de licitação", "cp1252"),
    # Ukrainian capitals before "і" form two-byte UTF-8 sequences by chance ("Ві")
    ("Він сказав: Віталій і Ірина ідуть до Інституту, а Вікторія чекає.", "cp1251"),
    ("中文文本測試，這是一個較長的句子。香港特別行政區政府公佈了新的財政預算案", "big5"),
    ("这是一个中文文本测试。北京欢迎你。我们在这里。我公司可代开各类增值税发票", "gb18030"),
    ("日本語のテキストです。これは長い文です。東京都に住んでいます。", "cp932"),
    ("한국어 텍스트입니다. 이것은 긴 문장입니다. 대한민국의 수도는 서울입니다", "euc_kr"),
])
def test_legacy_text_is_not_taken_for_utf8_with_strays(text: str, encoding: str) -> None:
    decoded, found = decode_text(text.encode(encoding))
    assert decoded == text
    assert found != UTF8_STRAY_CP1252


def test_as_many_strays_as_sequences_is_not_utf8() -> None:
    # "Ã©" written in cp1252 is a UTF-8 "é"; with a stray beside each, no side wins
    data = ("Preço e café " * 20).encode("cp1252") + b"\xc3\xa9 " * 20
    assert decode_text(data)[1] != UTF8_STRAY_CP1252


def test_a_large_file_with_stray_bytes_is_decoded_in_linear_time() -> None:
    lines = (LINE.encode() + b"Prazo \x96 fim\n") * 200_000  # 17 MB, a stray on every other line
    started = time.monotonic()
    text, encoding = decode_text(lines)
    assert time.monotonic() - started < 10
    assert encoding == UTF8_STRAY_CP1252
    assert text.count("–") == 200_000


def test_a_utf8_label_reads_a_short_text_with_as_many_strays_as_letters_as_utf8() -> None:
    """Undeclared, one letter of UTF-8 beside two stray quotes is no evidence; declared
    UTF-8 (a mail's or a page's label), it is: the whole text read as cp1252 was "olÃ¡"."""
    data = "olá, tudo bem? ".encode() + b"\x93aspas\x94 fim"
    assert decode_text(data, "utf-8") == ("olá, tudo bem? “aspas” fim", UTF8_STRAY_CP1252)
    assert decode_text(data, "UTF8")[0] == "olá, tudo bem? “aspas” fim"


def test_a_utf8_label_over_text_without_utf8_is_not_followed() -> None:
    data = "São Paulo, ação é".encode("cp1252")
    assert decode_text(data, "utf-8") == ("São Paulo, ação é", "cp1252")
