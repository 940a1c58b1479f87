"""Every member a damaged 7z costs is refused in the report; intact blocks after it are read."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import goblin_core
from goblin_core.testing.corpus import require_binary


def _words(seed: int, count: int) -> bytes:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    return " ".join("".join(rng.choice(letters) for _ in range(7))
                    for _ in range(count)).encode()


def _damaged_7z(tmp_path: Path, solid: bool) -> Path:
    seven = require_binary("7z", "p7zip-full")
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.txt").write_bytes(b"alpha member " + _words(1, 3000))
    (folder / "b.txt").write_bytes(b"bravo member " + _words(2, 20000))
    (folder / "c.txt").write_bytes(b"charlie member " + _words(3, 3000))
    path = tmp_path / ("solido.7z" if solid else "avulso.7z")
    subprocess.run([seven, "a", "-ms=on" if solid else "-ms=off", str(path),
                    "a.txt", "b.txt", "c.txt"], cwd=folder, check=True, capture_output=True)
    data = bytearray(path.read_bytes())
    middle = len(data) // 2  # inside b.txt's packed bytes, the largest by far
    data[middle:middle + 50] = bytes(byte ^ 0xFF for byte in data[middle:middle + 50])
    path.write_bytes(bytes(data))
    return path


def _actions(doc: goblin_core.Document) -> dict[str, tuple[str, str]]:
    return {m.name: (m.action, m.reason) for m in doc.report.members}


def test_a_damaged_7z_member_is_refused_and_the_members_after_it_are_read(
        tmp_path: Path) -> None:
    doc = goblin_core.extract(_damaged_7z(tmp_path, solid=False), ocr="never",
                              archives={"patool": False})
    actions = _actions(doc)
    assert actions["a.txt"][0] == actions["c.txt"][0] == "extracted"
    assert actions["b.txt"][0] == "refused"
    assert "charlie member" in " ".join(child.text for child in doc.walk())
    assert any("'b.txt'" in e.message and "avulso.7z" in e.message for e in doc.report.errors)


def test_the_members_after_the_damage_in_a_solid_block_are_refused_saying_why(
        tmp_path: Path) -> None:
    doc = goblin_core.extract(_damaged_7z(tmp_path, solid=True), ocr="never",
                              archives={"patool": False})
    actions = _actions(doc)
    assert actions["a.txt"][0] == "extracted"
    assert actions["b.txt"][0] == actions["c.txt"][0] == "refused"
    assert "same solid block" in actions["c.txt"][1] and "'b.txt'" in actions["c.txt"][1]
