"""Sparse tar members (GNU tar --sparse, in each of its formats): an honest one is read
byte for byte, holes and all, and one whose holes make a tiny archive claim gigabytes is
stopped by the archive's ratio while its holes are read, never written out whole."""

from __future__ import annotations

import os
import random
import subprocess
import tarfile
import zlib
from pathlib import Path

import pytest
from archives_bounded import MAX_SECONDS, extract_without_the_ratio

import goblin_core
from goblin_core.testing.corpus import require_binary
from goblin_core.unpack import unpack

#: GNU tar's sparse formats: the old GNU headers, and the pax ones (0.0, 0.1, 1.0).
_FORMATS = {
    "gnu": ["--format=gnu"],
    "pax-0.0": ["--format=posix", "--sparse-version=0.0"],
    "pax-0.1": ["--format=posix", "--sparse-version=0.1"],
    "pax-1.0": ["--format=posix", "--sparse-version=1.0"],
}


def _sparse_tar(folder: Path, member: Path, style: str, *others: Path) -> Path:
    tar = require_binary("tar", "tar")
    archive = folder / f"{member.stem}-{style}.tar"
    subprocess.run([tar, "--sparse", *_FORMATS[style], "-cf", str(archive), "-C",
                    str(member.parent), member.name, *(o.name for o in others)],
                   check=True, capture_output=True)
    return archive


@pytest.mark.parametrize("style", sorted(_FORMATS))
def test_an_honest_sparse_member_unpacks_byte_for_byte(style: str, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    member = folder / "tabela.bin"
    text = random.Random(9).randbytes(60_000)
    with open(member, "wb") as out:
        out.write(b"INICIO " + text[:30_000])
        out.seek(400_000)  # a hole of ~370 KB, then the rest
        out.write(text[30_000:] + b" FIM")
    archive = _sparse_tar(tmp_path, member, style)
    assert archive.stat().st_size < member.stat().st_size
    result = unpack(archive, tmp_path / "out")
    assert not result.errors
    assert [p.read_bytes() for p in result.written] == [member.read_bytes()]


@pytest.mark.parametrize("style", sorted(_FORMATS))
def test_a_hole_of_gigabytes_is_stopped_by_the_archives_ratio(style: str,
                                                             tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    hole = folder / "disco.img"
    with open(hole, "wb") as out:
        out.truncate(900 << 20)  # under max_member_size: only the ratio can stop it
        out.seek(0, os.SEEK_END)
        out.write(b"fim\n")
    note = folder / "nota.txt"
    note.write_text("Nota fiscal número 42.\n", encoding="utf-8")
    archive = _sparse_tar(tmp_path, hole, style, note)
    assert archive.stat().st_size < 64 * 1024
    doc = goblin_core.extract(archive, ocr="never")
    actions = {m.name: (m.action, m.reason) for m in doc.report.members}
    assert actions["disco.img"][0] == "refused" and "max_ratio" in actions["disco.img"][1]


def _pax_record(key: str, value: str) -> bytes:
    body = f" {key}={value}\n".encode()
    length = len(body) + len(str(len(body)))
    length += len(str(length)) - len(str(len(body)))
    return str(length).encode() + body


def _header(name: str, kind: bytes, size: int) -> bytes:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    return info.tobuf(format=tarfile.USTAR_FORMAT)


def _sparse_map_bomb(extents: int, path: Path) -> Path:
    """A .tar.gz whose sparse member (format 1.0) declares ``extents`` extents, its map
    that many lines of zeros (a few kilobytes packed), then a plain member."""
    records = b"".join(_pax_record(key, value) for key, value in (
        ("GNU.sparse.major", "1"), ("GNU.sparse.minor", "0"),
        ("GNU.sparse.name", "mapa.bin"), ("GNU.sparse.realsize", "100")))
    lines = b"%d\n" % extents, b"0\n" * (2 * extents)
    size = sum(map(len, lines))
    note = "Nota fiscal número 42.\n".encode()
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    with open(path, "wb") as out:
        for piece in (_header("PaxHeaders/mapa.bin", tarfile.XHDTYPE, len(records)),
                      records + bytes(-len(records) % 512),
                      _header("GNUSparseFile/mapa.bin", tarfile.REGTYPE, size), *lines,
                      bytes(-size % 512), _header("nota.txt", tarfile.REGTYPE, len(note)),
                      note + bytes(-len(note) % 512), bytes(1024)):
            out.write(packer.compress(piece))
        out.write(packer.flush())
    return path


def test_a_sparse_map_of_millions_of_extents_is_refused_without_reading_it(
        tmp_path: Path) -> None:
    """tarfile read such a map a line at a time: ten million extents took minutes."""
    bomb = _sparse_map_bomb(10_000_000, tmp_path / "mapa.tar.gz")
    assert bomb.stat().st_size < 200_000
    run = extract_without_the_ratio(bomb, tmp_path)
    assert run.seconds < MAX_SECONDS, f"took {run.seconds:.1f}s"
    assert "Nota fiscal número 42.\n" in run.result["texts"]
    assert any(action == "refused" and "sparse map of 10,000,000 extents" in reason
               for _, action, reason in run.result["members"])


def test_a_sparse_map_within_bounds_is_read(tmp_path: Path) -> None:
    doc = goblin_core.extract(_sparse_map_bomb(1000, tmp_path / "mapa.tar.gz"), ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [("mapa.bin", "extracted"),
                                                                ("nota.txt", "extracted")]
    assert not doc.report.errors
