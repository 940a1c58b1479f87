"""Folder entries as Windows tools write them are folders, not empty files."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import goblin_core
from goblin_core.unpack import unpack


def _windows_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, attributes in [("docs\\", b"", 0x10),
                                       ("docs\\report.txt", b"report in docs\n", 0x20),
                                       ("attrdir", b"", 0x10),
                                       ("attrdir\\in.txt", b"in attrdir\n", 0x20)]:
            info = zipfile.ZipInfo(name)
            info.create_system = 0  # MS-DOS
            info.external_attr = attributes
            archive.writestr(info, data)
    return buffer.getvalue()


def test_backslash_and_attribute_folder_entries_are_folders() -> None:
    doc = goblin_core.extract(_windows_zip(), name="pastas.zip", ocr="never")
    actions = {m.name: m.action for m in doc.report.members}
    assert actions["docs/report.txt"] == actions["attrdir/in.txt"] == "extracted"
    assert [m.name for m in doc.report.members if m.action == "extracted"] == [
        "docs/report.txt", "attrdir/in.txt"]
    assert all(m.reason == "directory" for m in doc.report.members if m.action == "skipped")


def test_windows_folder_entries_do_not_push_the_real_folders_aside(tmp_path: Path) -> None:
    path = tmp_path / "pastas.zip"
    path.write_bytes(_windows_zip())
    result = unpack(path, tmp_path / "out", flatten=False)
    written = sorted(p.relative_to(tmp_path / "out").as_posix() for p in result.written)
    assert written == ["attrdir/in.txt", "docs/report.txt"]
    assert not result.renamed


def test_an_empty_file_with_a_unix_mode_stays_a_file() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo("vazio")
        info.create_system = 3
        info.external_attr = (0o100644 << 16) | 0x10
        archive.writestr(info, b"")
    doc = goblin_core.extract(buffer.getvalue(), name="vazio.zip", ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [("vazio", "extracted")]
