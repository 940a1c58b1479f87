"""A page in a script no requested language writes is read in an installed model of its script."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from drawn_pages import draw_page
from PIL import Image, ImageFilter

from goblin_core import default_registry
from goblin_core.testing.corpus import contains_phrase, corpus_dir, skip_or_fail
from goblin_ocr_tesseract import backend
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import installed_languages, tessdata_folder
from goblin_ocr_tesseract.page_script import model_script, other_script_groups

SCRIPTS = ("eng", "por", "chi_sim", "jpn", "jpn_vert", "kor", "osd")


@pytest.fixture
def scripts(tesseract: str) -> str:
    """The tessdata folder, with models of four scripts installed."""
    missing = sorted(set(SCRIPTS) - installed_languages(tesseract))
    if missing:
        skip_or_fail("apt-get install " + " ".join(
            f"tesseract-ocr-{code.replace('_', '-')}" for code in missing))
    return tessdata_folder(tesseract)


def _corpus_image(name: str) -> Image.Image:
    return Image.open(corpus_dir(__file__) / "images" / name)


def _languages_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The languages of each Tesseract run the backend starts from now on, in order."""
    tried: list[str] = []
    plain_read = backend.read

    def spy(image: Any, settings: Any) -> Any:
        tried.append(settings.lang)
        return plain_read(image, settings)

    monkeypatch.setattr(backend, "read", spy)
    return tried


def test_a_model_s_script_is_that_of_most_of_its_letters(scripts: str) -> None:
    def script(code: str) -> tuple[str, bool] | None:
        return model_script(str(Path(scripts) / f"{code}.traineddata"))

    assert script("por") == script("eng") == ("LATIN", False)
    assert script("chi_sim") == script("jpn") == ("CJK", False)
    assert script("jpn_vert") == ("CJK", True)
    assert script("kor") == ("HANGUL", False)


def test_other_scripts_are_grouped_and_the_requested_one_left_out(scripts: str) -> None:
    groups = other_script_groups(["por", "eng"], SCRIPTS, scripts)
    assert groups == [["chi_sim", "jpn"], ["jpn_vert"], ["kor"]]
    under_chinese = other_script_groups(["chi_sim"], SCRIPTS, scripts)
    assert ["eng", "por"] in under_chinese
    assert all("jpn" not in group and "osd" not in group for group in under_chinese)


@pytest.mark.parametrize(("image", "phrase"), [
    ("chi_sim_image.jpeg", "适合任何肌肤"),
    ("jpn-vert.jpeg", "行を右から左へ"),
], ids=["chinese", "vertical-japanese"])
def test_a_page_in_another_script_is_read_in_its_own(scripts: str, image: str,
                                                     phrase: str) -> None:
    page = _corpus_image(image)
    registry = default_registry()
    found = TesseractBackend().recognize(page, "por+eng", registry.config())
    assert contains_phrase(found.text, phrase)
    assert found.confidence > 0.6
    alone = TesseractBackend().recognize(
        page, "por+eng", registry.config(tesseract={"detect_script": False}))
    assert not contains_phrase(alone.text, phrase)
    assert alone.confidence < 0.5


def test_lines_in_another_script_beside_the_requested_one_are_read(scripts: str) -> None:
    """English read well, Korean lines read as unsure Latin words: read with kor beside."""
    page = _corpus_image("english-and-korean.png")
    registry = default_registry()
    found = TesseractBackend().recognize(page, "por+eng", registry.config())
    assert contains_phrase(found.text, "RULES AND INSTRUCTIONS")
    assert contains_phrase(found.text, "안녕하세요")
    alone = TesseractBackend().recognize(
        page, "por+eng", registry.config(tesseract={"detect_script": False}))
    assert not contains_phrase(alone.text, "안녕하세요")
    assert found.confidence > alone.confidence + 0.05


def test_a_page_read_well_throughout_is_read_once(scripts: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    tried = _languages_read(monkeypatch)
    found = TesseractBackend().recognize(draw_page(), "por+eng", default_registry().config())
    assert contains_phrase(found.text, "Goblin reads scanned pages with Tesseract.")
    assert set(tried) == {"por+eng"}


def test_a_badly_scanned_page_keeps_its_own_script(scripts: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Every other script reads a blurred, noisy Latin page still worse: the first
    reading stands."""
    page = draw_page()
    small = page.resize((page.width // 2, page.height // 2)).filter(ImageFilter.GaussianBlur(1.5))
    noise = random.Random(3)
    blurred = Image.frombytes("L", small.size, bytes(
        min(255, max(0, round(value + noise.gauss(0, 30)))) for value in small.tobytes()))
    tried = _languages_read(monkeypatch)
    registry = default_registry()
    found = TesseractBackend().recognize(blurred, "por+eng", registry.config())
    assert found.confidence < 0.5
    assert {"chi_sim", "jpn_vert", "kor"} <= set(tried)  # each script tried once
    assert "jpn" not in tried  # no script read it well enough to try the rest of its models
    alone = TesseractBackend().recognize(
        blurred, "por+eng", registry.config(tesseract={"detect_script": False}))
    assert (found.text, found.confidence) == (alone.text, alone.confidence)


def test_no_other_script_installed_costs_nothing(tesseract: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend, "installed_languages",
                        lambda binary, tessdata_dir="": frozenset({"eng", "por", "osd"}))
    tried = _languages_read(monkeypatch)
    page = _corpus_image("chi_sim_image.jpeg")
    TesseractBackend().recognize(page, "por+eng", default_registry().config(
        tesseract={"detect_language": False, "orientation": False, "legacy_below": 0}))
    assert set(tried) == {"por+eng"}
