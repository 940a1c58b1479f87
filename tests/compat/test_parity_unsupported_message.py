"""A file no parser reads is logged in GoblinTools 0.13.4's words,
``No parser available for file extension: .xyz``, goblin's reason after them, so a
log filter written for GoblinTools keeps matching."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest

import goblin_core.compat as compat

#: Bytes no sniffer claims and no parser reads.
UNKNOWN = bytes(range(256)) * 4
PREFIX = "No parser available for file extension: "


def warnings_about(module: Any, path: Path, caplog: pytest.LogCaptureFixture) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        assert module.TextExtractor().extract_from_file(str(path)) == ""
    return [r.getMessage() for r in caplog.records
            if r.name.startswith("goblintools") and r.levelno == logging.WARNING]


@pytest.mark.parametrize(("name", "extension"), [("desenho.XYZ", ".xyz"), ("desenho", "(none)")])
def test_goblintools_words_open_the_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                            name: str, extension: str) -> None:
    path = tmp_path / name
    path.write_bytes(UNKNOWN)
    messages = warnings_about(compat, path, caplog)
    assert [m for m in messages if m.startswith(f"{PREFIX}{extension} (")], messages


def test_a_member_no_parser_reads_is_named_by_its_own_extension(
        zip_registry: Any, caplog: pytest.LogCaptureFixture) -> None:
    from test_from_bytes import zip_bytes

    with caplog.at_level(logging.DEBUG):
        compat.extract_from_bytes(zip_bytes({"planta.dwg": UNKNOWN, "a.txt": "texto"}),
                                  "lote.zip")
    messages = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert [m for m in messages if m.startswith(f"{PREFIX}.dwg (")], messages


def test_same_opening_words_as_goblintools(goblintools: Any, tmp_path: Path,
                                           caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "desenho.xyz"
    path.write_bytes(UNKNOWN)
    theirs = warnings_about(goblintools, path, caplog)
    ours = warnings_about(compat, path, caplog)
    assert theirs == [f"{PREFIX}.xyz"]
    assert [m.split(" (", 1)[0] for m in ours if m.startswith(PREFIX)] == theirs
    assert os.fspath(path) in ours[0]
