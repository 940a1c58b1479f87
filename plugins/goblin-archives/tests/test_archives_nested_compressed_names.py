"""A compressed file inside an archive unpacks where it sat, named as gunzip names it."""

from __future__ import annotations

import bz2
import gzip
import io
import zipfile
from pathlib import Path

import pytest

from goblin_core.unpack import unpack


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _gzip_named(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename=name, mode="wb", fileobj=buffer, mtime=0) as stream:
        stream.write(data)
    return buffer.getvalue()


@pytest.mark.parametrize(("flatten", "expected"), [
    (True, {"lote_ata.txt": b"ata da sessao", "planilha.csv": b"a;b"}),
    (False, {"lote/ata.txt": b"ata da sessao", "planilha.csv": b"a;b"}),
])
def test_a_compressed_member_takes_its_own_place(
    tmp_path: Path, flatten: bool, expected: dict[str, bytes]
) -> None:
    outer = _zip(tmp_path / "envio.zip", {
        "lote/ata.txt.gz": _gzip_named("ata.txt", b"ata da sessao"),
        "planilha.csv.bz2": bz2.compress(b"a;b"),
    })
    result = unpack(outer, tmp_path / "out", flatten=flatten)
    assert result.ok
    assert _files(tmp_path / "out") == expected


def test_a_compressed_member_beside_its_plain_copy_is_numbered(tmp_path: Path) -> None:
    outer = _zip(tmp_path / "envio.zip", {
        "ata.txt": b"original",
        "ata.txt.gz": _gzip_named("ata.txt", b"comprimida"),
    })
    unpack(outer, tmp_path / "out")
    assert _files(tmp_path / "out") == {"ata.txt": b"original", "ata_1.txt": b"comprimida"}


def test_an_archive_of_several_members_still_gets_its_folder(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("anexo", b"um")
        archive.writestr("outro.txt", b"dois")
    outer = _zip(tmp_path / "envio.zip", {"anexo.zip": inner.getvalue()})
    unpack(outer, tmp_path / "out", flatten=False)
    assert _files(tmp_path / "out") == {"anexo/anexo": b"um", "anexo/outro.txt": b"dois"}
