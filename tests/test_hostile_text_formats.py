"""Hostile plain text: declared names that are no text encoding, pages of typographic
signs, a line longer than the output limit keeps."""

from __future__ import annotations

import time

import pytest

from goblin_core import default_registry, extract
from goblin_core.builtin.text import PlainTextParser, decode_text
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source


@pytest.mark.parametrize("declared", ["hex", "rot13", "idna", "undefined"])
def test_a_declared_name_that_is_no_text_encoding_is_passed_over(declared: str) -> None:
    text, encoding = decode_text("ação".encode(), declared)
    assert (text, encoding) == ("ação", "utf-8")


def test_a_file_of_typographic_signs_is_decoded_in_seconds() -> None:
    # each sign was checked for letters around it in a Python loop: 14 s for these 40 MB
    data = b"\x85" * 40_000_000
    started = time.monotonic()
    text, encoding = decode_text(data)
    assert time.monotonic() - started < 6
    assert encoding == "cp1252"
    assert text[:3] == "\u2026\u2026\u2026"


def _read(data: bytes, name: str, **options: object) -> str:
    config = default_registry().config(**options)
    document = PlainTextParser().open(Source.from_bytes(data, name), config)
    return "".join(page.text for page in document.pages())


def test_a_line_longer_than_the_output_limit_is_read_only_that_far() -> None:
    text = _read(b"a" * 10_000_000, "linha.txt", max_output_chars=1_000)
    # one character past the limit, so the pipeline says it cut the text
    assert text == "a" * 1_001


def test_the_output_limit_never_splits_a_utf8_character_into_another_code_page() -> None:
    # three bytes a character: the bytes read end inside one
    text = _read("€".encode() * 100_000, "euros.txt", max_output_chars=1_000)
    assert text == "€" * 1_001


def test_line_ends_made_one_character_still_fill_the_output_limit() -> None:
    text = _read(b"\r\n" * 1_000_000, "linhas.txt", max_output_chars=1_000)
    assert text == "\n" * 1_001


def test_a_text_cut_at_the_output_limit_says_so() -> None:
    document = extract(b"palavra " * 1_000_000, name="longo.txt", max_output_chars=5_000)
    assert len(document.text) == 5_000
    assert any(e.kind == "OutputLimitReached" for e in document.report.errors)


def test_a_short_text_is_read_whole() -> None:
    assert _read("São Paulo\r\nfim".encode("cp1252"), "curto.txt") == "São Paulo\nfim"


def test_counting_unmapped_characters_holds_no_string_per_character() -> None:
    import tracemalloc

    from goblin_core.ranking import unmapped_chars

    text = "\ue000" * 3_000_000  # private-use code points: each match a string of its own
    tracemalloc.start()
    try:
        assert unmapped_chars(text) == 3_000_000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 120 * 1024**2, f"{peak / 1024**2:.0f} MB"


@pytest.mark.parametrize("data", [
    "Edital de licitação nº 12\nValor: R$ 1.234,56\n".encode() + b"\x00" * 4096,
    "Edital de licitação nº 12\nValor: R$\x00 1.234,56\n".encode(),
], ids=["zero-padding", "one-stray-nul"])
def test_stray_nuls_in_a_text_file_are_dropped_with_a_warning(data: bytes) -> None:
    # a write that stopped leaves zeros after the text; editors open such a file
    document = extract(data, name="edital.txt")
    assert document.text.split("\n")[:2] == ["Edital de licitação nº 12", "Valor: R$ 1.234,56"]
    [warning] = document.report.warnings
    assert warning.kind == "CorruptDocument" and "NUL character(s) dropped" in warning.message


def test_text_that_is_mostly_nuls_is_still_binary() -> None:
    with pytest.raises(CorruptDocument, match="binary content in a text file"):
        extract(b"a\x00b\x00c\x00\x00d\x00e\x00" * 50 + b"\n", name="dados.txt")
