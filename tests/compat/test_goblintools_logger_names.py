"""The facade logs GoblinTools' messages under GoblinTools' logger names, so a logging
configuration written for ``logging.getLogger("goblintools")`` keeps applying; and
``configure(suppress_warnings=True)`` hides them as before."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import goblin_core.compat as compat

UNKNOWN_BYTES = bytes(range(256)) * 4  # no sniffer claims it, no parser reads it


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def goblintools_handler() -> Iterator[_Collect]:
    """A handler on the ``goblintools`` logger, as a GoblinTools user configured it."""
    handler = _Collect()
    logger = logging.getLogger("goblintools")
    logger.addHandler(handler)
    compat.configure(suppress_warnings=False)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        compat.configure(suppress_warnings=False)


def test_a_goblintools_handler_gets_the_facades_warnings(
    goblintools_handler: _Collect, tmp_path: Path
) -> None:
    path = tmp_path / "desenho.xyz"
    path.write_bytes(UNKNOWN_BYTES)
    assert compat.TextExtractor().extract_from_file(str(path)) == ""
    assert compat.TextExtractor().extract_from_file(str(tmp_path / "ausente.pdf")) == ""
    assert [(r.name, r.levelno) for r in goblintools_handler.records] == [
        ("goblintools.parser", logging.WARNING), ("goblintools.parser", logging.WARNING)]


def test_the_same_logger_names_as_goblintools(goblintools: Any,
                                              goblintools_handler: _Collect,
                                              tmp_path: Path) -> None:
    path = str(tmp_path / "ausente.pdf")

    def names(module: Any) -> list[str]:
        goblintools_handler.records.clear()
        module.TextExtractor().extract_from_file(path)
        module.FileManager.move_files(str(tmp_path / "ausente"))
        return [r.name for r in goblintools_handler.records]

    assert names(compat) == names(goblintools) == ["goblintools.parser",
                                                   "goblintools.file_handling"]


def test_suppressed_warnings_stay_hidden(goblintools_handler: _Collect,
                                         tmp_path: Path) -> None:
    compat.configure(suppress_warnings=True)
    compat.TextExtractor().extract_from_file(str(tmp_path / "ausente.pdf"))
    assert goblintools_handler.records == []
    compat.configure(suppress_warnings=False)
    compat.TextExtractor().extract_from_file(str(tmp_path / "ausente.pdf"))
    assert [r.levelno for r in goblintools_handler.records] == [logging.WARNING]


def test_showing_warnings_again_restores_the_callers_level(goblintools_handler: _Collect) -> None:
    logger = logging.getLogger("goblintools")
    logger.setLevel(logging.INFO)
    try:
        compat.configure(suppress_warnings=True)
        assert logger.level == logging.ERROR
        compat.configure(suppress_warnings=False)
        assert logger.level == logging.INFO
    finally:
        logger.setLevel(logging.NOTSET)
