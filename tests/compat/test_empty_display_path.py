"""``display_path=""`` is the name in the tag, as in GoblinTools 0.13.4, and the
report of the file read under it is kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import goblin_core.compat as compat
from goblin_core import hookimpl, load_registry
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.model import PageContent


def test_an_empty_display_path_tags_the_block_with_it(goblintools: Any, tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_text("Valor global", encoding="utf-8")
    ours = compat.TextExtractor().extract_from_file(str(path), display_path="")
    theirs = goblintools.TextExtractor().extract_from_file(str(path), display_path="")
    assert ours == theirs == 'file_path_pwd:""\nValor global'


class _OnePagePDF(BaseEngine):
    name = "tests.one-page-pdf"
    formats = ("application/pdf",)
    priority = 1000

    def open(self, source: Any, config: Any) -> TextDocument:
        return TextDocument([PageContent(number=1, text="Edital", glyphs=6)])


def test_the_report_of_a_pdf_read_under_an_empty_name_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Plugin:
        @hookimpl
        def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
            register(_OnePagePDF())

    registry = load_registry(extra_plugins=[("tests-one-page-pdf", Plugin())])
    monkeypatch.setattr("goblin_core.compat.extractor.default_registry", lambda: registry)
    path = tmp_path / "edital.pdf"
    path.write_bytes(b"%PDF-1.4\n%%EOF\n")
    extractor = compat.TextExtractor()
    assert extractor.extract_from_file(str(path), display_path="") == 'file_path_pwd:""\nEdital'
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "clean"
