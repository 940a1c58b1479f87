"""Language options as users write them: case, separators, empty, and codes of no language."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import goblin_core
from goblin_core import default_registry
from goblin_core.testing.corpus import normalize
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import choose, split_languages

DrawPage = Callable[..., Image.Image]

INSTALLED = frozenset({"eng", "por", "chi_sim", "osd"})
LINE = "The quick brown fox jumps over the lazy dog."


def test_a_language_code_matches_the_installed_one_whatever_its_case() -> None:
    choice = choose("ENG+Por+CHI-SIM", INSTALLED)
    assert choice.use == ("eng", "por", "chi_sim")
    assert choice.missing == ()


def test_languages_separated_by_spaces_are_each_read() -> None:
    assert split_languages("eng por") == ("eng", "por")
    assert split_languages(" deu ,  fra+eng ") == ("deu", "fra", "eng")
    assert choose("eng por", INSTALLED).lang == "eng+por"


def test_a_code_of_no_language_is_not_given_a_package_to_install() -> None:
    hint = choose("en+kor", INSTALLED).install_hint()
    assert "apt-get install tesseract-ocr-kor" in hint
    assert "tesseract-ocr-en " not in hint + " "
    assert "'en' is not a Tesseract language code" in hint


def test_the_missing_language_message_names_the_installed_ones() -> None:
    message = choose("engl", INSTALLED).missing_message()
    assert "missing for engl" in message
    assert "installed: chi_sim, eng, por" in message


def test_an_upper_case_language_code_reads_the_page(tesseract: str,
                                                    page_image: DrawPage) -> None:
    config = default_registry().config()
    result = TesseractBackend().recognize(page_image([LINE]), "ENG", config)
    assert LINE in normalize(result.text)
    assert TesseractBackend().available_for(default_registry().config(ocr_languages="ENG"))[0]


def test_no_language_at_all_says_why_no_page_was_read(tesseract: str, page_image: DrawPage,
                                                       tmp_path: Path) -> None:
    ready, reason = TesseractBackend().available_for(default_registry().config(ocr_languages=""))
    assert not ready
    assert "goblin.ocr_languages" in reason
    path = tmp_path / "scan.png"
    page_image([LINE]).save(path)
    document = goblin_core.extract(path, ocr="always", ocr_languages=" + ")
    [warning] = [w for w in document.report.warnings if w.kind == "EngineUnavailable"]
    assert "no OCR language given" in warning.message


def test_a_tessdata_folder_that_does_not_exist_is_named_as_the_cause(
        tesseract: str, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder"
    config = default_registry().config(tesseract={"tessdata_dir": str(missing)})
    ready, reason = TesseractBackend().available_for(config)
    assert not ready
    assert reason == f"tesseract.tessdata_dir ({missing}) is not a folder"


def test_languages_missing_from_a_tessdata_folder_name_that_folder(
        tesseract: str, tmp_path: Path) -> None:
    config = default_registry().config(ocr_languages="eng",
                                       tesseract={"tessdata_dir": str(tmp_path)})
    ready, reason = TesseractBackend().available_for(config)
    assert not ready
    assert "missing for eng" in reason
    assert f"tesseract.tessdata_dir is {tmp_path}" in reason


def test_models_missing_where_tessdata_prefix_points_name_it(
        tesseract: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the packages are installed: Tesseract was sent to look elsewhere, and must say so
    backend = TesseractBackend()
    assert backend.available()[0]
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))
    ready, reason = backend.available_for(default_registry().config(ocr_languages="eng"))
    assert not ready
    assert "missing for eng" in reason or "no Tesseract language data" in reason
    assert f"as TESSDATA_PREFIX={tmp_path} in the environment says" in reason
    monkeypatch.delenv("TESSDATA_PREFIX")
    assert backend.available_for(default_registry().config(ocr_languages="eng")) == (True, "")


def test_the_orientation_model_is_no_language_to_read_with(tesseract: str,
                                                           page_image: DrawPage) -> None:
    # read "in" osd, English came out as Latin and Han nonsense
    config = default_registry().config(ocr_languages="osd")
    ready, reason = TesseractBackend().available_for(config)
    assert not ready
    assert "'osd' is Tesseract's orientation model, not a language" in reason
    assert "apt-get install" not in reason
    result = TesseractBackend().recognize(page_image([LINE]), "eng+osd",
                                          default_registry().config())
    assert LINE in normalize(result.text)
    [(kind, message)] = result.warnings
    assert kind == "MissingLanguage" and "orientation model" in message
