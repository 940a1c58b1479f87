"""Removing an entry from ``TextExtractor.parsers`` turns that format off, as in
GoblinTools 0.13.4: its files give "" and no report, with GoblinTools' warning. The
content is still sniffed for the formats the mapping keeps."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import goblin_core.compat as compat
from goblin_core import hookimpl, load_registry
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.model import PageContent

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


class _OnePagePDF(BaseEngine):
    name = "tests.one-page-pdf"
    formats = ("application/pdf",)
    priority = 1000

    def open(self, source: Any, config: Any) -> TextDocument:
        return TextDocument([PageContent(number=1, text="Edital", glyphs=6)])


def test_a_removed_pdf_parser_turns_pdfs_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Plugin:
        @hookimpl
        def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
            register(_OnePagePDF())

    registry = load_registry(extra_plugins=[("tests-one-page-pdf", Plugin())])
    monkeypatch.setattr("goblin_core.compat.extractor.default_registry", lambda: registry)
    path = write(tmp_path / "edital.pdf", b"%PDF-1.4\n%%EOF\n")
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
