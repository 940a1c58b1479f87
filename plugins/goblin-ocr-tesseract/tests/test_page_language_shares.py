"""Pages in another language whose accented words a wrong model reads as no word at all."""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Callable

import pytest
from PIL import Image, ImageFont

import goblin_core
from goblin_core.testing.corpus import skip_or_fail
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import installed_languages
from goblin_ocr_tesseract.page_language import page_language

DrawPage = Callable[..., Image.Image]
INSTALLED = ("ces", "deu", "eng", "fra", "nld", "por", "osd")

#: A German notice as por+eng read it from a scan: its umlauts lost, half its words
#: still German
GERMAN_AS_READ = (
    "Bekanntmachung\n\nDie Geschaftsstelle fiir 6ffentliche Auftrage gibt bekannt, dass die "
    "Ausschrei-\nbung fiir Biirogeraéte am Montag beginnt. Angebote miissen schriftlich ein-\n"
    "gereicht werden. Uber die Vergabe entscheidet der Ausschuss nach Priifung\naller "
    "Unterlagen und Nachweise.")
#: Czech news as por+eng read it: most words lost a diacritic, a third are still Czech
CZECH_AS_READ = (
    "Vlada schválila novy zákon o verejnych zakázkách, ktery má\nzjednodusit vybérova rizeni. "
    "Podle ministra financi se tim\nusetií stovky milionú korun roéné. Opozice vSak "
    "upozorhuje,\nZe zmény mohou vest k mensí kontrole nad tim, jak stat\n\nutraci penize.")
CZECH = ("Vláda schválila nový zákon o veřejných zakázkách, který má zjednodušit výběrová "
         "řízení. Podle ministra financí se tím ušetří stovky milionů korun ročně. Opozice "
         "však upozorňuje, že změny mohou vést k menší kontrole nad tím, jak stát utrácí "
         "peníze.")


def test_german_official_prose_that_lost_its_umlauts_is_german() -> None:
    assert page_language(GERMAN_AS_READ, ["por", "eng"], INSTALLED) == "deu"


def test_czech_that_lost_its_diacritics_is_czech() -> None:
    assert page_language(CZECH_AS_READ, ["por", "eng"], INSTALLED) == "ces"


def test_english_prose_stays_english_beside_these_lists() -> None:
    english = ("Before cleaning the device, disconnect the power supply. Do not use abrasive "
               "cleaning agents, since these may damage the surface. The warranty is void if "
               "the housing has been opened.")
    assert page_language(english, ["por", "eng"], INSTALLED) is None
    names = ("Meeting minutes: Hans Müller, Jürgen Schäfer and Anna Berger attended from "
             "Berlin; Klaus Fischer joined from München. Agenda: Rheinland project, Düsseldorf "
             "office lease, Kaiserstraße warehouse, Bergmann GmbH contract renewal")
    assert page_language(names, ["por", "eng"], INSTALLED) is None


def test_a_czech_scan_asked_in_portuguese_and_english_keeps_its_diacritics(
        tesseract: str, page_image: DrawPage, caplog: pytest.LogCaptureFixture) -> None:
    if "ces" not in installed_languages(tesseract):
        skip_or_fail("Tesseract ces data needed: apt-get install tesseract-ocr-ces")
    try:
        font = ImageFont.truetype("DejaVuSerif.ttf", 34)
    except OSError:
        skip_or_fail("DejaVu Serif not found (its diacritics are drawn): "
                     "apt-get install fonts-dejavu-core")
    page = page_image(textwrap.wrap(CZECH, 60), font=font)
    with caplog.at_level(logging.DEBUG, logger="goblin_ocr_tesseract.backend"):
        result = TesseractBackend().recognize(page, "por+eng",
                                              goblin_core.default_registry().config())
    assert "read again in ces" in caplog.text
    for word in ("veřejných", "zjednodušit", "výběrová", "řízení", "ušetří", "upozorňuje"):
        assert word in result.text, result.text
