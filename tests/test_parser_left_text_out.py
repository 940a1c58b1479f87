"""A parser that says what text it left out (ParsedDocument.left_out) makes the document one
read in part: a Truncated warning, report.truncated, and an error line saying it, exit 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from goblin_core import Source, extract
from goblin_core.cli import CliState, cli
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.registry import Registry

from scripted_engines import TEST_BYTES, TEST_MIME, registry_with


class _ChapteredParser(BaseEngine):
    """Reads the test format as a book whose third chapter the package lacks, or not."""

    formats = (TEST_MIME,)
    priority = 10

    def __init__(self, lost: bool) -> None:
        self.name = "tests.chapters"
        self.lost = lost

    def open(self, source: Source, config: Any) -> TextDocument:
        document = TextDocument(["Capítulo um.", "Capítulo dois."])
        if self.lost:
            document.warnings = [("Labels", "the table of contents cannot be read"),
                                 ("CorruptDocument", "chapter 3 left out: the package lacks it")]
            document.left_out = "chapter 3 could not be read"
        return document


def _registry(lost: bool) -> Registry:
    return registry_with(_ChapteredParser(lost))


def _run(tmp_path: Path, lost: bool) -> Result:
    book = tmp_path / "livro.test"
    book.write_bytes(TEST_BYTES)
    return CliRunner().invoke(cli, ["extract", str(book)], obj=CliState(_registry(lost)))


def test_a_parser_that_left_text_out_sets_report_truncated() -> None:
    lost = extract(TEST_BYTES, name="livro.test", registry=_registry(True))
    kept = extract(TEST_BYTES, name="livro.test", registry=_registry(False))
    assert lost.report.truncated and not kept.report.truncated
    assert ("Truncated", "chapter 3 could not be read") in [
        (w.kind, w.message) for w in lost.report.warnings]
    assert lost.status == kept.status == "clean"  # every page it gave was read well


def test_the_cli_names_the_parsers_warnings_and_exits_1(tmp_path: Path) -> None:
    result = _run(tmp_path, lost=True)
    assert "Capítulo dois." in result.stdout
    assert result.exit_code == 1
    assert '"livro.test": Truncated: chapter 3 could not be read' in result.stderr


def test_a_book_read_whole_exits_0(tmp_path: Path) -> None:
    assert _run(tmp_path, lost=False).exit_code == 0
