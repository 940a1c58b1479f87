"""extract_from_bytes on plain text: tags, limits, never raising."""

from __future__ import annotations

import logging

import pytest

from goblin_core.compat import BytesExtractionResult, GoblinConfig, extract_from_bytes
from goblin_core.compat.from_bytes import safe_filename


def test_bytes_of_a_text_file() -> None:
    result = extract_from_bytes("Edital nº 5".encode(), "edital.txt")
    assert isinstance(result, BytesExtractionResult)
    assert result.text == 'file_path_pwd:"edital.txt"\nEdital nº 5'
    assert result.reports == {} and result.skipped == []
    assert result.overall_status == "clean"


def test_the_name_is_never_a_path() -> None:
    result = extract_from_bytes(b"dados", "../../etc/segredo.txt")
    assert result.text.startswith('file_path_pwd:"segredo.txt"')
    assert safe_filename(None) == "document"
    assert safe_filename("C:\\docs\\a.txt") == "a.txt"


def test_empty_and_oversized_inputs() -> None:
    assert extract_from_bytes(b"", "a.txt") == BytesExtractionResult()
    result = extract_from_bytes(b"x" * 100, "a.txt", config=GoblinConfig(max_file_size=10))
    assert result.text == ""
    assert result.skipped == ["a.txt: larger than max_file_size (10 bytes)"]


def test_unreadable_bytes_are_reported_not_raised() -> None:
    result = extract_from_bytes(b"\x00\x01\x02\x03" * 64, "blob.bin")
    assert result.text == ""
    assert result.overall_status == "corrupt_unrecoverable"
    assert result.reports["blob.bin"].errors


def test_data_that_is_not_bytes_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        result = extract_from_bytes("texto", "nota.txt")  # type: ignore[arg-type]
    assert result == BytesExtractionResult()
    assert "expected bytes, got str" in caplog.text
    assert extract_from_bytes(bytearray(b"dados"), "nota.txt").text.endswith("\ndados")
