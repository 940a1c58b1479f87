"""An extraction that puts nothing in place (an empty archive, or one whose every
member a limit refused) leaves no destination folder behind, as in GoblinTools 0.13.4,
which moves files into a folder only when there are files; the facade left an empty
one."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from test_from_bytes import zip_bytes

import goblin_core.compat as compat
from goblin_core.registry import Registry


def empty_zip() -> bytes:
    buffer = io.BytesIO()
    zipfile.ZipFile(buffer, "w").close()
    return buffer.getvalue()


CASES = {"empty": (empty_zip(), {}),
         "refused": (zip_bytes({"a.txt": "primeiro", "b.txt": "segundo"}),
                     {"max_member_bytes": 0})}


def outcome(module: Any, tmp_path: Path, case: str, how: str) -> tuple[bool, bool]:
    data, limits = CASES[case]
    work = tmp_path / module.__name__ / how
    work.mkdir(parents=True)
    archive = work / "lote.zip"
    archive.write_bytes(data)
    budget = module.ExtractionBudget(module.ArchiveLimits(**limits))
    extract = (module.ArchiveHandler.extract if how == "archive_handler"
               else module.FileManager.extract_files_recursive)
    done = extract(str(archive), str(work / "saida"), budget=budget)
    return done, (work / "saida").exists()


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("how", ["archive_handler", "file_manager"])
def test_nothing_extracted_leaves_no_folder(zip_registry: Registry, tmp_path: Path,
                                            case: str, how: str) -> None:
    assert outcome(compat, tmp_path, case, how) == (True, False)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("how", ["archive_handler", "file_manager"])
def test_same_folders_as_goblintools(goblintools: Any, zip_registry: Registry,
                                     tmp_path: Path, case: str, how: str) -> None:
    assert outcome(compat, tmp_path, case, how) == outcome(goblintools, tmp_path, case, how)
