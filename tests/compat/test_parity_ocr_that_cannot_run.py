"""OCR asked for but unable to run (language data missing) is said, as GoblinTools
0.13.4 logs the failure: a WARNING naming the cause and the same cause in the report's
``errors``. The facade gave an empty text and a corrupt report with no reason at all."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from test_parity_display_path import require_parser

from goblin_core.compat import GoblinConfig, OCRConfig, OCRProcessor, TextExtractor

#: A language code no Tesseract installation has.
NO_SUCH_LANGUAGE = "xxx"


def drawn_page(path: Path) -> Path:
    image = pytest.importorskip("PIL.Image")
    draw = pytest.importorskip("PIL.ImageDraw")
    page = image.new("RGB", (600, 120), "white")
    draw.Draw(page).text((20, 50), "Valor global da proposta", fill="black")
    page.save(path)
    return path


def test_the_report_and_the_log_say_why_ocr_gave_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    require_parser("image/png", "ocr")
    path = drawn_page(tmp_path / "digitalizado.png")
    config = GoblinConfig(ocr=OCRConfig(tesseract_lang=NO_SUCH_LANGUAGE))
    extractor = TextExtractor(ocr_handler=True, ocr_images=True, config=config)
    with caplog.at_level(logging.WARNING):
        assert extractor.extract_from_file(str(path)) == ""
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"
    assert [e for e in report.errors if NO_SUCH_LANGUAGE in e], report.errors
    assert [r for r in caplog.records if r.name.startswith("goblintools")
            and r.levelno == logging.WARNING and NO_SUCH_LANGUAGE in r.getMessage()]


def test_ocr_processor_says_why_it_read_nothing(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    require_parser("image/png", "ocr")
    image = pytest.importorskip("PIL.Image")
    path = drawn_page(tmp_path / "digitalizado.png")
    processor = OCRProcessor(OCRConfig(tesseract_lang=NO_SUCH_LANGUAGE))
    with caplog.at_level(logging.WARNING), image.open(path) as page:
        assert processor.extract_text_from_image(page) == ""
    assert [r for r in caplog.records if r.name == "goblintools.ocr_parser"
            and r.levelno == logging.WARNING and NO_SUCH_LANGUAGE in r.getMessage()]
