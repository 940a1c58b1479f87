"""A document some of whose pages were lost to an error is read in part: an error line, exit 1.

Pages left without text by choice (``--ocr never`` on a scan) are not a loss.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from goblin_core import ExtractionTimeout, OCRResult, PageContent
from goblin_core.cli import CliState, cli
from goblin_core.engines import BaseEngine
from goblin_core.registry import Registry

from scripted_engines import (
    TEST_BYTES,
    FakeImage,
    ScriptedParser,
    registry_with,
    scan_page,
    text_page,
)


class _StoppedOCR(BaseEngine):
    """An OCR backend whose binary runs past its time on every page."""

    name = "tests.stopped_ocr"
    formats = ("*",)
    priority = 0
    cloud = False

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        assert isinstance(image, FakeImage)
        raise ExtractionTimeout(f"the OCR binary ran past 2 s on page {image.page} and was "
                                "stopped")


def _run(tmp_path: Path, registry: Registry, *args: str) -> Result:
    document = tmp_path / "lote.test"
    document.write_bytes(TEST_BYTES)
    return CliRunner().invoke(cli, ["extract", str(document), *args], obj=CliState(registry))


def test_a_page_the_parser_could_not_read_is_an_error_line_and_exit_1(tmp_path: Path) -> None:
    parser = ScriptedParser("tests.parser", [
        text_page(1, "Primeira página lida."),
        PageContent(number=2, error="content stream 7 cannot be decoded"),
        text_page(3, "Terceira página lida."),
    ])
    result = _run(tmp_path, registry_with(parser))
    assert "Primeira página lida." in result.stdout
    assert "Terceira página lida." in result.stdout
    assert result.exit_code == 1
    assert ('"lote.test": PageError: page 2 not read: content stream 7 cannot be decoded'
            in result.stderr)


def test_pages_whose_ocr_failed_are_an_error_line_and_exit_1(tmp_path: Path) -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "Página de texto."), scan_page(2),
                                             scan_page(3)], renders=True)
    result = _run(tmp_path, registry_with(parser, _StoppedOCR()))
    assert "Página de texto." in result.stdout
    assert result.exit_code == 1
    assert ('"lote.test": ExtractionTimeout: page 2 has no text: the OCR binary ran past 2 s '
            'on page 2 and was stopped (and 1 more)' in result.stderr)


def test_a_document_no_page_of_which_has_text_names_the_ocr_failure(tmp_path: Path) -> None:
    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    result = _run(tmp_path, registry_with(parser, _StoppedOCR()))
    assert result.exit_code == 1
    assert "corrupt_unrecoverable" in result.stderr
    assert "page 1: ExtractionTimeout: the OCR binary ran past 2 s" in result.stderr


def test_a_scan_left_unread_by_choice_is_no_loss(tmp_path: Path) -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "Página de texto."), scan_page(2)],
                            renders=True)
    result = _run(tmp_path, registry_with(parser, _StoppedOCR()), "--ocr", "never")
    assert "Página de texto." in result.stdout
    assert result.exit_code == 0, result.stderr


def test_a_scan_with_no_ocr_backend_says_why_it_got_no_ocr(tmp_path: Path) -> None:
    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    result = _run(tmp_path, registry_with(parser))
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert "corrupt_unrecoverable: no page has usable text: 1 page corrupt (needs_ocr); " in line
    assert "1 page(s) need OCR but no OCR backend is available" in line
