"""A 7z that lists more members than ``limits.max_members`` is refused as its header is
read: py7zr built a record of every member first (a 7z of 62 KB listing 200,000 empty
files held 300 MB and took 18 s before it was refused)."""

from __future__ import annotations

import io
from pathlib import Path

import py7zr
import py7zr.archiveinfo
import pytest

import goblin_core
from goblin_core.errors import UnsafeArchive


def _empty_files_7z(count: int, path: Path) -> Path:
    with py7zr.SevenZipFile(path, "w") as archive:
        for number in range(count):
            archive.writef(io.BytesIO(b""), f"vazio-{number:04d}.txt")
    return path


def test_too_many_members_are_refused_before_py7zr_reads_their_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = _empty_files_7z(300, tmp_path / "muitos.7z")
    names_read: list[int] = []
    read_names = py7zr.archiveinfo.FilesInfo._read_name

    def counting(files: py7zr.archiveinfo.FilesInfo, buffer: io.BytesIO) -> None:
        names_read.append(len(files.files))
        read_names(files, buffer)

    monkeypatch.setattr(py7zr.archiveinfo.FilesInfo, "_read_name", counting)
    with pytest.raises(UnsafeArchive, match=r"lists 300 members, more than "
                                            r"limits\.max_members \(100\)"):
        goblin_core.extract(archive, ocr="never", config={"limits": {"max_members": 100}})
    assert names_read == []
    # within the limit, the same archive opens (its names read once)
    doc = goblin_core.extract(archive, ocr="never", config={"limits": {"max_members": 300}})
    assert len(doc.report.members) == 300 and names_read


def test_an_archive_opened_without_a_limit_is_left_to_py7zr(tmp_path: Path) -> None:
    """The count is checked only while goblin opens an archive: py7zr used directly (by
    another library in the same process) reads as it would without goblin."""
    archive = _empty_files_7z(30, tmp_path / "alguns.7z")
    with pytest.raises(UnsafeArchive, match="lists 30 members"):
        goblin_core.extract(archive, ocr="never", config={"limits": {"max_members": 10}})
    with py7zr.SevenZipFile(archive, "r") as opened:
        assert len(opened.getnames()) == 30
