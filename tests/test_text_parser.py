"""The built-in plain-text parser: encodings, pages, and what it refuses."""

from __future__ import annotations

import pytest

from goblin_core import CorruptDocument, extract, load_registry
from goblin_core.builtin.text import decode_text

CORE_ONLY = load_registry(load=[])

SAMPLES = [
    ("Licitação nº 12/2024 — R$ 1.234,56", "cp1252"),
    ("São Paulo", "cp1252"),
    ("Der Bürgermeister läßt grüßen", "cp1252"),
    ("Le garçon a mangé une crème brûlée", "latin-1"),
    ("Zażółć gęślą jaźń", "cp1250"),
    ("Árvíztűrő tükörfúrógép", "cp1250"),
    ("Пример текста на русском языке", "cp1251"),
    ("Пример текста на русском языке", "cp866"),
    ("Ελληνικά κείμενα εδώ", "cp1253"),
    ("中文文本測試，這是一個較長的句子。", "big5"),
    ("日本語のテキストです。これは長い文です。", "cp932"),
    ("Olá, mundo ✓", "utf-8"),
    ("Olá, mundo ✓", "utf-8-sig"),
    ("Olá, mundo ✓", "utf-16"),
    ("Olá, mundo ✓", "utf-32"),
    ("Olá, mundo, sem BOM", "utf-16-le"),
    ("Olá, mundo, sem BOM", "utf-16-be"),
]


@pytest.mark.parametrize(("text", "encoding"), SAMPLES,
                         ids=[f"{enc}-{i}" for i, (_, enc) in enumerate(SAMPLES)])
def test_text_in_common_encodings_is_decoded(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding))[0].lstrip("\ufeff") == text


def test_core_alone_extracts_a_legacy_text_file_through_the_pipeline() -> None:
    document = extract("Edital de licitação\r\nObjeto: aquisição".encode("cp1252"),
                       name="edital.txt", registry=CORE_ONLY)
    assert document.text == "Edital de licitação\nObjeto: aquisição"
    assert document.pages[0].engine == "text.plain"
    assert document.raw_metadata["encoding"] == "cp1252"


def test_form_feeds_split_pages() -> None:
    document = extract(b"first page\fsecond page\fthird page", name="a.txt", registry=CORE_ONLY)
    assert [p.text for p in document.pages] == ["first page", "second page", "third page"]
    assert document.page_offsets[1] == (12, 23)
    assert document.text[12:23] == "second page"


def test_binary_bytes_in_a_text_file_are_refused() -> None:
    with pytest.raises(CorruptDocument, match=r"bin\.txt: binary content"):
        extract(b"looks like text\x00\x00\x01\x02 but is not", name="bin.txt", registry=CORE_ONLY)


def test_whitespace_only_text_is_an_empty_page() -> None:
    document = extract(b"   \n\n  ", name="blank.txt", registry=CORE_ONLY)
    assert document.pages[0].status == "empty"
    assert document.status == "clean"
