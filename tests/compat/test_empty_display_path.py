"""``display_path=""`` is the name in the tag, as in GoblinTools 0.13.4, and the
report of the file read under it is kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from stand_in_pdf import PDF_BYTES, read_pdfs_as

import goblin_core.compat as compat


def test_an_empty_display_path_tags_the_block_with_it(goblintools: Any, tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_text("Valor global", encoding="utf-8")
    ours = compat.TextExtractor().extract_from_file(str(path), display_path="")
    theirs = goblintools.TextExtractor().extract_from_file(str(path), display_path="")
    assert ours == theirs == 'file_path_pwd:""\nValor global'


def test_the_report_of_a_pdf_read_under_an_empty_name_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_pdfs_as(monkeypatch, ["Edital"])
    path = tmp_path / "edital.pdf"
    path.write_bytes(PDF_BYTES)
    extractor = compat.TextExtractor()
    assert extractor.extract_from_file(str(path), display_path="") == 'file_path_pwd:""\nEdital'
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "clean"
