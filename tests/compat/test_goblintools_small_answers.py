"""Small answers GoblinTools 0.13.4 gives and the facade now gives too: an Office
file's extension written in lower case by extract_files_recursive, TypeError for a
bytes path, and a missing file judged an archive by its name."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from zip_archives import docx_bytes

import goblin_core.compat as compat
from goblin_core.registry import Registry


def test_an_office_files_extension_is_written_in_lower_case(goblintools: Any,
                                                            tmp_path: Path) -> None:
    source = tmp_path / "D.DOCX"
    source.write_bytes(docx_bytes())
    for module, out in ((compat, "ours"), (goblintools, "theirs")):
        assert module.FileManager.extract_files_recursive(str(source), str(tmp_path / out))
    assert os.listdir(tmp_path / "ours") == os.listdir(tmp_path / "theirs") == ["D.docx"]
    assert source.exists()


def test_a_bytes_path_is_a_type_error(goblintools: Any, tmp_path: Path) -> None:
    path = tmp_path / "nota.txt"
    path.write_text("Valor global", encoding="utf-8")
    for module in (compat, goblintools):
        with pytest.raises(TypeError):
            module.TextExtractor().extract_from_file(os.fsencode(path))
        # A missing one is only not found, as for a str.
        assert module.TextExtractor().extract_from_file(os.fsencode(tmp_path / "x.txt")) == ""


@pytest.mark.parametrize("name", ["ausente.zip", "AUSENTE.ZIP", "ausente.pdf", "ausente"])
def test_a_missing_file_is_judged_by_its_name(goblintools: Any, zip_registry: Registry,
                                              tmp_path: Path, name: str) -> None:
    path = str(tmp_path / name)
    assert compat.FileValidator.is_archive(path) == goblintools.FileValidator.is_archive(path)
    assert compat.FileValidator.is_archive(path) == name.lower().endswith(".zip")
