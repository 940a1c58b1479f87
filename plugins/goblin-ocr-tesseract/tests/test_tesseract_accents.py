"""Accents OCR dropped or read twice, put back only where the word lists leave one choice."""

from __future__ import annotations

import pytest

from goblin_core import default_registry
from goblin_core.testing.corpus import contains_phrase
from goblin_ocr_tesseract.accents import WordLists, restore_accents, variants
from goblin_ocr_tesseract.backend import TesseractBackend


def test_a_dropped_accent_is_put_back() -> None:
    assert restore_accents("l'alcôve ovoide, où les bûches se", "fra") == (
        "l'alcôve ovoïde, où les bûches se")


def test_a_letter_read_plain_and_accented_is_read_once() -> None:
    assert restore_accents("ovoiïde", "fra") == "ovoïde"


def test_case_is_kept() -> None:
    assert restore_accents("Ovoide OVOIDE", "fra") == "Ovoïde OVOÏDE"


def test_an_accent_on_the_wrong_letter_is_moved() -> None:
    assert restore_accents("bûchës", "fra") == "bûches"


def test_known_words_are_left_alone() -> None:
    text = "Portez ce vieux whisky au juge blond qui fume sur son île capharnaüm pecher"
    assert restore_accents(text, "fra") == text


def test_halves_of_a_hyphenated_word_are_left_alone() -> None:
    # Sänger broken at a line end: neither half is a word, and "San" would be wrong.
    text = "dem weithin bekannten Sän-\nger und Entertainer; porte-ovoide"
    assert restore_accents(text, "deu+fra") == text


def test_two_known_spellings_leave_the_word_alone() -> None:
    # côte and côté are both words: the page decides, not the list.
    assert restore_accents("côtè", "fra") == "côtè"


def test_words_with_no_known_spelling_are_left_alone() -> None:
    assert restore_accents("Xylophonez Kowalczyk cötè", "fra") == "Xylophonez Kowalczyk cötè"


def test_only_the_page_languages_count() -> None:
    # ovoïde is French; read as English the word stays as OCR gave it.
    assert restore_accents("ovoide", "eng") == "ovoide"
    assert restore_accents("ovoide", "eng+fra") == "ovoïde"


@pytest.mark.parametrize("languages", ["chi_sim", "osd", "", "xyz"])
def test_languages_without_a_word_list_change_nothing(languages: str) -> None:
    assert restore_accents("ovoide 漢文に倣い", languages) == "ovoide 漢文に倣い"


def test_short_words_and_words_in_other_scripts_are_skipped() -> None:
    # Two-letter words (ou/où, la/là) are too ambiguous to judge alone.
    assert restore_accents("ou la a", "fra") == "ou la a"
    assert restore_accents("ovoideй", "fra") == "ovoideй"


def test_variants_change_one_diacritic_or_drop_one_of_a_doubled_pair() -> None:
    assert {"oi", "oí", "òï", "ôï"} <= set(variants("oï"))
    doubled = set(variants("ovoiïde"))
    assert {"ovoïde", "ovoide"} <= doubled  # either of the pair dropped
    assert "ovide" not in doubled  # one change at a time
    assert not set(variants("xyz")) & {"xyz"}


def test_word_lists_use_wordfreq_codes() -> None:
    assert WordLists("por+eng+fra").codes == ("pt", "en", "fr")
    assert WordLists("jpn_vert").codes == ("ja",)


def test_backend_option_turns_it_off(tesseract: str) -> None:
    registry = default_registry()
    on = registry.config()
    off = registry.config(tesseract={"restore_accents": False})
    assert on.section("tesseract")["restore_accents"] is True
    assert off.section("tesseract")["restore_accents"] is False
    backend = TesseractBackend()
    from PIL import Image, ImageDraw, ImageFont

    page = Image.new("L", (900, 160), 255)
    ImageDraw.Draw(page).text((40, 50), "Une forme ovoide", font=ImageFont.load_default(size=48),
                              fill=0)
    assert contains_phrase(backend.recognize(page, "fra", on).text, "forme ovoïde")
    assert contains_phrase(backend.recognize(page, "fra", off).text, "forme ovoide")
