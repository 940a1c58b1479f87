"""ocr.easyocr reading an English page with the offline English models (own nox session)."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

import goblin_core
from goblin_core import load_registry
from goblin_core.config import Config
from goblin_core.testing.corpus import skip_or_fail
from goblin_core.testing.image_pages import ImagePagesPlugin
from goblin_ocr_easyocr.backend import EasyOCRBackend
from goblin_ocr_easyocr.languages import easyocr_codes, readable
from goblin_ocr_easyocr.lines import Detection, join_lines

LINES = ("Invoice number 4471 was paid", "The quick brown fox jumps")


@pytest.fixture(scope="module")
def backend() -> EasyOCRBackend:
    engine = EasyOCRBackend()
    ok, reason = engine.available()
    if not ok:
        skip_or_fail(f"EasyOCR cannot run here: {reason}")
    return engine


def config(**easyocr: Any) -> Config:
    return load_registry(load=["easyocr"]).config(easyocr=easyocr)


def page(lines: tuple[str, ...] = LINES) -> Image.Image:
    font = ImageFont.load_default(size=40)
    image = Image.new("L", (1100, 120 + 70 * len(lines)), 255)
    pen = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        pen.text((60, 60 + 70 * i), line, font=font, fill=0)
    return image


def test_reads_an_english_page(backend: EasyOCRBackend) -> None:
    result = backend.recognize(page(), "eng", config())
    lines = result.text.splitlines()
    assert len(lines) == 2
    assert "4471" in lines[0] and "Invoice" in lines[0]
    assert "brown fox" in lines[1]
    assert 0.5 < result.confidence <= 1.0


def test_languages_without_models_fall_back_to_english(
    backend: EasyOCRBackend, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        result = backend.recognize(page(LINES[1:]), "kor+eng", config())
    assert "brown fox" in result.text
    assert "no model for ko" in caplog.text


def test_missing_model_folder_gives_no_text(backend: EasyOCRBackend, tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        result = backend.recognize(page(), "eng", config(model_dir=str(tmp_path)))
    assert result.text == ""
    assert "craft_mlt_25k.pth" in caplog.text


def test_unavailable_when_the_configured_folder_lacks_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "goblin.toml").write_text(f'[easyocr]\nmodel_dir = "{tmp_path}"\n')
    monkeypatch.setenv("GOBLIN_CONFIG", str(tmp_path / "goblin.toml"))
    ok, reason = EasyOCRBackend().available()
    assert not ok
    assert "craft_mlt_25k.pth" in reason and "never downloads" in reason


def test_pipeline_ocrs_an_image_page_with_easyocr(backend: EasyOCRBackend) -> None:
    out = io.BytesIO()
    page(LINES[:1]).save(out, format="PNG")
    registry = load_registry(load=["easyocr"], extra_plugins=[("test-pages", ImagePagesPlugin())])
    doc = goblin_core.extract(out.getvalue(), name="scan.png", registry=registry,
                              ocr_languages="eng")
    assert (doc.pages[0].status, doc.pages[0].engine) == ("ocr", "ocr.easyocr")
    assert "4471" in doc.text


def test_language_mapping_and_model_choice() -> None:
    assert easyocr_codes("por+eng") == ["pt", "en"]
    assert readable(["pt", "en", "ko"], {"english_g2.pth"}) == ["en"]
    assert readable(["pt", "en"], {"latin_g2.pth"}) == ["pt", "en"]


def test_boxes_are_joined_into_lines() -> None:
    found = [Detection("fox", 0.9, 300, 100, 140), Detection("brown", 0.9, 100, 102, 142),
             Detection("Invoice", 0.9, 100, 10, 50)]
    assert join_lines(found) == "Invoice\nbrown fox"
