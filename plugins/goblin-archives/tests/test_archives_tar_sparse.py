"""Sparse tar members (GNU tar --sparse, in each of its formats): an honest one is read
byte for byte, holes and all, and one whose holes make a tiny archive claim gigabytes is
stopped by the archive's ratio while its holes are read, never written out whole."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

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
