"""ocr.tesseract reading real page images drawn in the tests."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import goblin_core
from goblin_core import default_registry
from goblin_core.config import Config
from goblin_core.testing.corpus import normalize
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import choose, debian_package, split_languages
from goblin_ocr_tesseract.process import run

LINES = (
    "The quick brown fox jumps over the lazy dog.",
    "Goblin reads scanned pages with Tesseract.",
    "Invoice number 4471 was paid on 12 March.",
    "Every page says which engine read it.",
)
DrawPage = Callable[..., Image.Image]


def config(**tesseract: object) -> Config:
    return default_registry().config(tesseract=dict(tesseract))


def test_reads_a_page_with_confidence(tesseract: str, page_image: DrawPage) -> None:
    result = TesseractBackend().recognize(page_image(), "eng", config())
    text = normalize(result.text)
    assert all(line in text for line in LINES[:2]), text
    assert 0.8 < result.confidence <= 1.0


def test_tesseract_runs_with_one_openmp_thread(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMP_THREAD_LIMIT", "8")
    seen = tmp_path / "seen"
    run(["sh", "-c", f'printf %s "$OMP_THREAD_LIMIT" > "{seen}"'], 10)
    assert seen.read_text() == "1"


def test_the_thread_limit_stays_out_of_the_callers_environment(
        tesseract: str, page_image: DrawPage, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMP_THREAD_LIMIT", "8")
    TesseractBackend().recognize(page_image(LINES[:1]), "eng", config())
    assert os.environ["OMP_THREAD_LIMIT"] == "8"


def test_coloured_text_on_transparent_background(tesseract: str, page_image: DrawPage) -> None:
    page = page_image(LINES[:2], mode="RGBA", ink=(230, 120, 20, 255), paper=(0, 0, 0, 0))
    result = TesseractBackend().recognize(page, "eng", config())
    assert LINES[0] in normalize(result.text)


def test_sideways_page_is_read_upright(tesseract: str, page_image: DrawPage) -> None:
    sideways = page_image(LINES * 3).rotate(90, expand=True, fillcolor=255)
    read = TesseractBackend().recognize(sideways, "eng", config())
    assert LINES[1] in normalize(read.text)
    without = TesseractBackend().recognize(sideways, "eng", config(orientation=False))
    assert LINES[1] not in normalize(without.text)


def test_small_text_is_read_again_enlarged(tesseract: str, page_image: DrawPage) -> None:
    tiny = page_image(LINES[2:3], size=9, margin=8)
    result = TesseractBackend().recognize(tiny, "eng", config())
    assert "4471" in result.text


def test_missing_language_falls_back_to_installed_ones(
    tesseract: str, page_image: DrawPage, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        result = TesseractBackend().recognize(page_image(LINES[:1]), "eng+zzz", config())
    assert LINES[0] in normalize(result.text)
    assert "apt-get install tesseract-ocr-zzz" in caplog.text


def test_a_missing_language_is_in_the_document_report_once(
    tesseract: str, page_image: DrawPage, tmp_path: Path
) -> None:
    # read without the language, the text may be misread: a log line alone goes unseen
    path = tmp_path / "scans.tiff"
    first, second = page_image(LINES[:1]), page_image(LINES[1:2])
    first.save(path, save_all=True, append_images=[second])
    document = goblin_core.extract(path, ocr="always", ocr_languages="eng+zzz")
    assert len(document.pages) == 2 and LINES[1] in normalize(document.text)
    [warning] = [w for w in document.report.warnings if w.kind == "MissingLanguage"]
    assert warning.engine == "ocr.tesseract" and warning.page == 1
    assert "apt-get install tesseract-ocr-zzz" in warning.message
    assert "read with eng only" in warning.message
    clean = goblin_core.extract(path, ocr="always", ocr_languages="eng")
    assert not [w for w in clean.report.warnings if w.kind == "MissingLanguage"]


def test_only_missing_languages_means_no_text(
    tesseract: str, page_image: DrawPage, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        result = TesseractBackend().recognize(page_image(LINES[:1]), "zzz", config())
    assert (result.text, result.confidence) == ("", 0.0)
    assert "tesseract-ocr-zzz" in caplog.text


def test_only_missing_languages_is_in_the_document_report(
    tesseract: str, page_image: DrawPage, tmp_path: Path
) -> None:
    path = tmp_path / "scan.png"
    page_image(LINES[:1]).save(path)
    document = goblin_core.extract(path, ocr="always", ocr_languages="zzz")
    [warning] = [w for w in document.report.warnings if w.kind == "EngineUnavailable"]
    assert "ocr.tesseract" in warning.message
    assert "apt-get install tesseract-ocr-zzz" in warning.message
    ready, reason = TesseractBackend().available_for(
        default_registry().config(ocr_languages="zzz"))
    assert not ready and "tesseract-ocr-zzz" in reason
    assert TesseractBackend().available_for(default_registry().config(ocr_languages="eng"))[0]


def test_fail_policy_refuses_a_partial_language_set(tesseract: str, page_image: DrawPage) -> None:
    result = TesseractBackend().recognize(page_image(LINES[:1]), "eng+zzz",
                                          config(missing_languages="fail"))
    assert result.text == ""


def test_tesseract_languages_override_the_core_ones(tesseract: str, page_image: DrawPage) -> None:
    result = TesseractBackend().recognize(page_image(LINES[:1]), "zzz", config(languages="eng"))
    assert LINES[0] in normalize(result.text)


def test_blank_page_reads_as_nothing(tesseract: str) -> None:
    result = TesseractBackend().recognize(Image.new("L", (400, 300), 255), "eng", config())
    assert result.text == ""
    assert result.confidence == 0.0


def test_missing_binary_is_unavailable_with_the_debian_package() -> None:
    ok, reason = TesseractBackend(command="no-such-tesseract-binary").available()
    assert not ok
    assert "apt-get install tesseract-ocr" in reason


def test_missing_configured_binary_gives_empty_result(page_image: DrawPage) -> None:
    result = TesseractBackend().recognize(page_image(LINES[:1]), "eng",
                                          config(command="/nonexistent/tesseract"))
    assert result.text == ""


def test_installed_tesseract_is_available(tesseract: str) -> None:
    assert TesseractBackend().available() == (True, "")


def test_language_helpers() -> None:
    assert split_languages("por+eng+por") == ("por", "eng")
    assert debian_package("chi_sim") == "tesseract-ocr-chi-sim"
    choice = choose("por+kor", frozenset({"por"}))
    assert choice.lang == "por"
    assert choice.install_hint() == "apt-get install tesseract-ocr-kor"


def test_tilted_page_reads_whole_lines(tesseract: str, page_image: DrawPage) -> None:
    tilted = page_image(LINES * 2).rotate(3, expand=True, fillcolor=255,
                                          resample=Image.Resampling.BICUBIC)
    result = TesseractBackend().recognize(tilted, "eng", config())
    text = normalize(result.text)
    assert all(line in text for line in LINES), text


@pytest.mark.parametrize("angle", [12, -15])
def test_a_page_tilted_past_what_tesseract_reads_is_levelled_by_its_ink(
        tesseract: str, page_image: DrawPage, angle: int) -> None:
    tilted = page_image(LINES * 3).rotate(angle, expand=True, fillcolor=255,
                                          resample=Image.Resampling.BICUBIC)
    result = TesseractBackend().recognize(tilted, "eng", config())
    text = normalize(result.text)
    assert all(line in text for line in LINES), text
    assert result.confidence > 0.8
    # Tesseract alone finds no line at this tilt, so it has none to measure it by
    assert not TesseractBackend().recognize(tilted, "eng", config(deskew_above=0)).text.strip()


def test_ink_skew_is_measured_on_tilted_pages_and_not_made_up_elsewhere(
        page_image: DrawPage) -> None:
    from goblin_ocr_tesseract.skew import ink_skew_degrees

    page = page_image(LINES * 3)
    for angle in (-18, -6, 2.5, 11):
        tilted = page.rotate(angle, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)
        assert ink_skew_degrees(tilted) == pytest.approx(-angle, abs=0.3)
    assert ink_skew_degrees(page) == pytest.approx(0.0, abs=0.3)
    # no lines at all: noise, an even grey, a page turned on its side
    noise = Image.effect_noise((500, 400), 80)
    assert ink_skew_degrees(noise) == 0.0
    assert ink_skew_degrees(Image.new("L", (500, 400), 128)) == 0.0
    assert ink_skew_degrees(page.rotate(90, expand=True, fillcolor=255)) == 0.0


def test_text_on_a_shaded_band_is_read(tesseract: str, page_image: DrawPage) -> None:
    page = page_image(LINES)
    band = Image.new("L", (page.width, 70), 110)
    banner = page_image(("Results of the public tender",), size=40, paper=110, margin=12)
    band.paste(banner.crop((0, 0, min(banner.width, band.width), 70)), (0, 0))
    sheet = Image.new("L", (page.width, page.height + 200), 255)
    sheet.paste(band, (0, 60))
    sheet.paste(page, (0, 160))
    # The band's ink is a fifth of the page's: ask for near-full coverage to trigger the reread.
    result = TesseractBackend().recognize(sheet, "eng", config(min_ink_coverage=0.95))
    assert "Results of the public tender" in normalize(result.text)
    assert LINES[0] in normalize(result.text)


def test_skew_is_measured_from_hocr_baselines() -> None:
    from goblin_ocr_tesseract.skew import skew_degrees

    hocr = " ".join(f'title="bbox 0 0 9 9; baseline {s} -3"' for s in (0.031, 0.032, 0.9))
    assert round(skew_degrees(hocr), 1) == 1.8
    assert skew_degrees("<html></html>") == 0.0
