"""A page in another installed language than the requested ones is read in its own."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from PIL import Image, ImageFont

import goblin_core
from goblin_core.testing.corpus import skip_or_fail
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import installed_languages
from goblin_ocr_tesseract.page_language import MIN_WORDS, page_language

FRENCH = ("Le conseil a décidé que les travaux de la rue seront terminés avant la fin du mois, "
          "et les habitants pourront alors rentrer chez eux avec leurs enfants dans une ville "
          "plus calme qui leur a beaucoup manqué pendant cette année")
GERMAN = (
    "Die Geschäftsstelle wünscht für die Prüfung",
    "der Anträge eine schnelle Rückmeldung über",
    "die Größe der Flächen, die Gebühren und die",
    "Übergabe der Schlüssel an das Hauptbüro.",
    "Wir danken Ihnen für die Unterstützung und",
    "freuen uns über eine baldige Antwort.",
)
DrawPage = Callable[..., Image.Image]
INSTALLED = ("eng", "por", "fra", "deu", "nld", "osd", "jpn", "jpn_vert")


def test_french_read_with_english_and_portuguese_is_french() -> None:
    # as an English model reads it: the accents gone, the common words still French
    unaccented = FRENCH.replace("é", "e")
    assert page_language(unaccented, ["por", "eng"], INSTALLED) == "fra"


def test_a_page_in_a_requested_language_keeps_it() -> None:
    assert page_language(FRENCH, ["fra", "eng"], INSTALLED) is None
    english = "The quick brown fox jumps over the lazy dog and the cat sleeps in the sun " * 3
    assert page_language(english, ["por", "eng"], INSTALLED) is None


def test_a_language_that_is_not_installed_is_not_chosen() -> None:
    assert page_language(FRENCH, ["por", "eng"], ("eng", "por", "deu")) is None


def test_too_few_words_say_nothing() -> None:
    few = " ".join(FRENCH.split()[: MIN_WORDS - 1])
    assert page_language(few, ["por", "eng"], INSTALLED) is None


def test_words_of_no_language_say_nothing() -> None:
    latin = ("Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
             "incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud")
    assert page_language(latin, ["por", "eng"], INSTALLED) is None


def test_a_quotation_in_another_language_does_not_decide() -> None:
    english = " ".join(["the council has decided that the works in the street will be over by "
                        "the end of the month and that people can go home"] * 3)
    assert page_language(english + " " + FRENCH, ["eng"], INSTALLED) is None


def test_models_without_a_language_are_never_chosen() -> None:
    assert page_language(FRENCH, ["eng"], ("eng", "osd", "equ", "Latin")) is None


@pytest.fixture
def german_page(tesseract: str, page_image: DrawPage) -> Image.Image:
    if not {"deu", "eng", "por"} <= installed_languages(tesseract):
        skip_or_fail("Tesseract deu, eng and por data needed: apt-get install "
                     "tesseract-ocr-deu tesseract-ocr-eng tesseract-ocr-por")
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 36)
    except OSError:
        skip_or_fail("DejaVu Sans not found (its umlauts are drawn): "
                     "apt-get install fonts-dejavu-core")
    return page_image(GERMAN, font=font)


def test_a_german_page_asked_in_portuguese_and_english_is_read_in_german(
        german_page: Image.Image, caplog: pytest.LogCaptureFixture) -> None:
    registry = goblin_core.default_registry()
    backend = TesseractBackend()
    plain = backend.recognize(german_page, "por+eng",
                              registry.config(tesseract={"detect_language": False}))
    with caplog.at_level(logging.DEBUG, logger="goblin_ocr_tesseract.backend"):
        detected = backend.recognize(german_page, "por+eng", registry.config())
    words = ["Geschäftsstelle", "wünscht", "für", "die", "Prüfung", "der", "Anträge"]
    assert not all(word in plain.text for word in words)  # the umlauts a wrong model loses
    assert all(word in detected.text for word in words), detected.text
    assert "Schlüssel" in detected.text and "Größe" in detected.text
    assert detected.confidence > plain.confidence
    assert "read again in deu" in caplog.text


def test_an_english_page_is_read_once(tesseract: str, page_image: DrawPage,
                                      caplog: pytest.LogCaptureFixture) -> None:
    registry = goblin_core.default_registry()
    with caplog.at_level(logging.DEBUG, logger="goblin_ocr_tesseract.backend"):
        result = TesseractBackend().recognize(page_image(), "por+eng", registry.config())
    assert "quick brown fox" in result.text
    assert "page reads as" not in caplog.text
