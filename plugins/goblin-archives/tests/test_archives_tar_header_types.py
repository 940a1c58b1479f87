"""tar headers of types other than files, folders and links: GNU tar's volume label,
multi-volume continuation and incremental dumps, and a vendor's type letter tar does not
know."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

import goblin_core
from goblin_core.testing.corpus import require_binary
from goblin_core.unpack import unpack


def _tar(*entries: tuple[str, bytes, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, kind, data in entries:
            info = tarfile.TarInfo(name)
            info.type = kind
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _texts(doc: goblin_core.Document) -> str:
    return "".join(child.text for child in doc.walk() if child is not doc)


def test_a_volume_label_is_skipped_not_refused() -> None:
    data = _tar(("Backup 2024", b"V", b""), ("ata.txt", tarfile.REGTYPE, b"ata da reuniao\n"))
    doc = goblin_core.extract(data, name="rotulada.tar", ocr="never")
    assert not doc.report.errors
    entries = {m.name: (m.action, m.reason) for m in doc.report.members}
    assert entries["ata.txt"][0] == "extracted"
    assert entries["Backup 2024"][0] == "skipped"
    assert "volume label" in entries["Backup 2024"][1]


def test_the_rest_of_a_file_from_the_previous_volume_is_skipped_saying_so() -> None:
    data = _tar(("grande.txt", b"M", b"tail of a file begun elsewhere\n"),
                ("nota.txt", tarfile.REGTYPE, b"nota inteira\n"))
    doc = goblin_core.extract(data, name="volume2.tar", ocr="never")
    assert not doc.report.errors
    entries = {m.name: (m.action, m.reason) for m in doc.report.members}
    assert entries["nota.txt"][0] == "extracted"
    assert entries["grande.txt"][0] == "skipped"
    assert "previous volume" in entries["grande.txt"][1]


def test_a_member_of_a_type_tar_does_not_know_is_read_as_a_file(tmp_path: Path) -> None:
    data = _tar(("fornecedor.txt", b"Q", b"vendor typed member text\n"),
                ("depois.txt", tarfile.REGTYPE, b"member after it\n"))
    doc = goblin_core.extract(data, name="fornecedor.tar", ocr="never")
    assert not doc.report.errors
    assert [(m.name, m.action) for m in doc.report.members] == [
        ("fornecedor.txt", "extracted"), ("depois.txt", "extracted")]
    assert "vendor typed member text" in _texts(doc)
    path = tmp_path / "fornecedor.tar"
    path.write_bytes(data)
    result = unpack(path, tmp_path / "out")
    assert not result.errors
    assert {p.name: p.read_bytes() for p in result.written}["fornecedor.txt"] == (
        b"vendor typed member text\n")


def test_a_gnu_incremental_dump_keeps_its_names_and_folders(tmp_path: Path) -> None:
    """GNU tar's incremental dumps store folders as type D and fill the access and change
    times where a POSIX header keeps a name prefix."""
    require_binary("tar", "tar")
    data = tmp_path / "dados" / "sub"
    data.mkdir(parents=True)
    (data.parent / "a.txt").write_text("incremental file text\n")
    (data / "b.txt").write_text("nested incremental text\n")
    dump = tmp_path / "copia.tar"
    subprocess.run(["tar", "--listed-incremental", str(tmp_path / "snapshot"), "-cf",
                    str(dump), "dados"], cwd=tmp_path, check=True)
    doc = goblin_core.extract(dump, ocr="never")
    assert not doc.report.errors
    assert [(m.name, m.action) for m in doc.report.members if m.action != "skipped"] == [
        ("dados/a.txt", "extracted"), ("dados/sub/b.txt", "extracted")]
    result = unpack(dump, tmp_path / "out", flatten=False)
    assert not result.errors and not result.renamed
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in result.written) == [
        "dados/a.txt", "dados/sub/b.txt"]
