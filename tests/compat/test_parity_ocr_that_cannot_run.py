"""OCR asked for but unable to run (no backend, or its language data missing) is said,
as GoblinTools 0.13.4 logs the failure: a WARNING naming the cause, and the same cause
in the report's ``errors``. The facade gave an empty text and a corrupt report with no
reason at all."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from stand_in_pdf import PDF_BYTES, read_pdfs_as

from goblin_core.compat import GoblinConfig, OCRConfig, OCRProcessor, TextExtractor

#: A language code no Tesseract installation has, so OCR cannot run wherever the test does.
NO_SUCH_LANGUAGE = "xxx"


def scanned_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PDF whose only page is a picture of text: it needs OCR."""
    registry = read_pdfs_as(monkeypatch, [None])
    monkeypatch.setattr("goblin_core.compat.ocr.default_registry", lambda: registry)
    path = tmp_path / "digitalizado.pdf"
    path.write_bytes(PDF_BYTES)
    return path


def ocr_warnings(caplog: pytest.LogCaptureFixture, logger: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith(logger)
            and r.levelno == logging.WARNING and "OCR" in r.getMessage()]


def test_the_report_and_the_log_say_why_ocr_gave_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    path = scanned_pdf(tmp_path, monkeypatch)
    config = GoblinConfig(ocr=OCRConfig(tesseract_lang=NO_SUCH_LANGUAGE))
    extractor = TextExtractor(ocr_handler=True, config=config)
    with caplog.at_level(logging.WARNING):
        assert extractor.extract_from_file(str(path)) == ""
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"
    causes = [e for e in report.errors if "no OCR backend is available" in e]
    assert causes, report.errors
    assert [m for m in ocr_warnings(caplog, "goblintools.parser") if causes[0] in m]


def test_ocr_processor_says_why_it_read_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    path = scanned_pdf(tmp_path, monkeypatch)
    processor = OCRProcessor(OCRConfig(tesseract_lang=NO_SUCH_LANGUAGE))
    with caplog.at_level(logging.WARNING):
        assert processor.extract_text_from_pdf(str(path)) == ""
    assert [m for m in ocr_warnings(caplog, "goblintools.ocr_parser")
            if "no OCR backend is available" in m]
