"""Settings a caller leaves unset after construction (``config.ocr = None``,
``config.archive_limits = None``, ``pdf_ocr_dpi=None``) read as GoblinTools 0.13.4
reads them, as their defaults: a text file still reads, where the facade raised."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from goblin_core.compat import GoblinConfig, OCRConfig, TextExtractor, extract_from_bytes


def without_ocr_settings(config: GoblinConfig) -> None:
    config.ocr = None  # type: ignore[assignment]


def without_archive_limits(config: GoblinConfig) -> None:
    config.archive_limits = None  # type: ignore[assignment]


def without_a_dpi(config: GoblinConfig) -> None:
    config.ocr = OCRConfig(pdf_ocr_dpi=None)  # type: ignore[arg-type]


@pytest.mark.parametrize("unset", [without_ocr_settings, without_archive_limits,
                                   without_a_dpi])
@pytest.mark.parametrize("ocr_handler", [False, True])
def test_a_text_file_reads_with_a_setting_left_unset(
        tmp_path: Path, unset: Callable[[GoblinConfig], None], ocr_handler: bool) -> None:
    path = tmp_path / "nota.txt"
    path.write_text("Valor global", encoding="utf-8")
    config = GoblinConfig()
    unset(config)
    extractor = TextExtractor(ocr_handler=ocr_handler, config=config)
    assert extractor.extract_from_file(str(path), display_path="nota.txt") == (
        'file_path_pwd:"nota.txt"\nValor global')
    assert extractor.extract_from_folder(str(tmp_path)) == (
        'file_path_pwd:"nota.txt"\nValor global')
    assert extract_from_bytes(b"Valor global", "nota.txt", config=config).text == (
        'file_path_pwd:"nota.txt"\nValor global')
