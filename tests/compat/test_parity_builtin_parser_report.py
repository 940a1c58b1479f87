"""Calling one of ``TextExtractor.parsers`` directly records the file's report in
``last_extraction_report``, as GoblinTools 0.13.4's PDF and image parsers do; a text
file's parser leaves it as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from stand_in_pdf import PDF_BYTES, read_pdfs_as

from goblin_core.compat import TextExtractor


def test_the_pdf_parser_records_its_report(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    read_pdfs_as(monkeypatch, ["Edital", None])
    path = tmp_path / "edital.pdf"
    path.write_bytes(PDF_BYTES)
    extractor = TextExtractor()
    assert extractor.parsers[".pdf"](str(path)) == "Edital\n"
    report = extractor.last_extraction_report
    assert report is not None and len(report.pages) == 2
    assert report.overall_status == "partially_recovered"
    text = tmp_path / "nota.txt"
    text.write_text("Valor", encoding="utf-8")
    assert extractor.parsers[".txt"](str(text)) == "Valor"
    assert extractor.last_extraction_report is report
