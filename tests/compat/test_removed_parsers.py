"""Removing an entry from ``TextExtractor.parsers`` turns that format off, as in
GoblinTools 0.13.4: its files give "" and no report, with GoblinTools' warning. The
content is still sniffed for the formats the mapping keeps."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from stand_in_pdf import PDF_BYTES, read_pdfs_as

import goblin_core.compat as compat

CSV = "Item,Qtd\nCimento,10\nAreia,5\n"


def write(path: Path, data: str | bytes) -> str:
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


def removing(module: Any, how: str) -> Any:
    extractor = module.TextExtractor()
    if how == "del":
        del extractor.parsers[".txt"]
    elif how == "pop":
        extractor.parsers.pop(".txt")
    else:
        extractor.parsers.clear()
    return extractor


@pytest.mark.parametrize("how", ["del", "pop", "clear"])
def test_a_removed_parser_turns_its_format_off(goblintools: Any, tmp_path: Path,
                                               how: str) -> None:
    path = write(tmp_path / "nota.txt", "Valor global")
    for module in (goblintools, compat):
        extractor = removing(module, how)
        assert extractor.extract_from_file(path) == ""
        assert extractor.last_extraction_report is None


def test_clearing_the_parsers_turns_every_goblintools_format_off(goblintools: Any,
                                                                 tmp_path: Path) -> None:
    write(tmp_path / "nota.txt", "Valor global")
    write(tmp_path / "planilha.csv", CSV)
    for module in (goblintools, compat):
        extractor = removing(module, "clear")
        assert extractor.extract_from_folder(str(tmp_path)) == ""
        assert extractor.last_extraction_reports == {}
        assert compat.TextExtractor().extract_from_folder(str(tmp_path)) != ""


def test_the_formats_still_in_the_mapping_are_read(goblintools: Any, tmp_path: Path) -> None:
    write(tmp_path / "nota.txt", "Valor global")
    write(tmp_path / "planilha.csv", CSV)
    ours = removing(compat, "del").extract_from_folder(str(tmp_path))
    theirs = removing(goblintools, "del").extract_from_folder(str(tmp_path))
    assert ours.splitlines()[0] == theirs.splitlines()[0] == 'file_path_pwd:"planilha.csv"'
    assert "nota.txt" not in ours and "Cimento" in ours


def test_text_without_a_name_is_off_with_the_txt_parser(goblintools: Any,
                                                        tmp_path: Path) -> None:
    path = write(tmp_path / "nota", "Valor global")
    for module in (goblintools, compat):
        assert removing(module, "del").extract_from_file(path) == ""
    assert compat.TextExtractor().extract_from_file(path) != ""


def test_the_removal_is_logged_in_goblintools_words(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    path = write(tmp_path / "nota.txt", "Valor global")
    with caplog.at_level(logging.WARNING):
        removing(compat, "del").extract_from_file(path)
    assert [r.getMessage() for r in caplog.records] == [
        "No parser available for file extension: .txt"]
    assert caplog.records[0].levelno == logging.WARNING


def test_a_removed_pdf_parser_turns_pdfs_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_pdfs_as(monkeypatch, ["Edital"])
    path = write(tmp_path / "edital.pdf", PDF_BYTES)
    extractor = compat.TextExtractor()
    assert extractor.extract_from_file(path, display_path="edital.pdf") == (
        'file_path_pwd:"edital.pdf"\nEdital')
    extractor.parsers.pop(".pdf")
    assert extractor.extract_from_file(path) == ""
    assert extractor.last_extraction_report is None


def test_content_is_still_sniffed_for_a_format_the_mapping_keeps(goblintools: Any,
                                                                 tmp_path: Path) -> None:
    # A DOCX named .pdf: GoblinTools finds no .pdf parser, sniffs a DOCX and reads it.
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_paragraph("Termo de referência")
    document.save(str(tmp_path / "termo.pdf"))
    for module in (goblintools, compat):
        extractor = module.TextExtractor()
        extractor.parsers.pop(".pdf")
        assert "Termo de referência" in extractor.extract_from_file(str(tmp_path / "termo.pdf"))
