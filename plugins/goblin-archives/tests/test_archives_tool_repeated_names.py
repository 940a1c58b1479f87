"""A name listed twice in an archive a system tool extracts: no copy vanishes unreported."""

from __future__ import annotations

import subprocess
from pathlib import Path

import goblin_core
from goblin_core.testing.corpus import require_binary


def _newc_entry(name: str, data: bytes, inode: int) -> bytes:
    encoded = name.encode() + b"\0"
    fields = [inode, 0o100644, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(encoded), 0]
    entry = b"070701" + b"".join(b"%08X" % value for value in fields) + encoded
    entry += b"\0" * (-len(entry) % 4)
    return entry + data + b"\0" * (-len(data) % 4)


def _cpio_with_a_repeated_name() -> bytes:
    data = (_newc_entry("dup.txt", b"first copy of the repeated name\n", 1)
            + _newc_entry("other.txt", b"other member\n", 2)
            + _newc_entry("dup.txt", b"second copy, of another length\n\n", 3)
            + _newc_entry("TRAILER!!!", b"", 0))
    return data + b"\0" * (-len(data) % 512)


def _refused_copies(doc: goblin_core.Document) -> list[str]:
    return [m.reason for m in doc.report.members if m.name == "dup.txt" and m.action == "refused"]


def test_a_cpio_copy_a_tool_writes_over_is_refused_with_a_duplicate_warning(
        tmp_path: Path) -> None:
    require_binary("lsar", "unar")
    path = tmp_path / "repetido.cpio"
    path.write_bytes(_cpio_with_a_repeated_name())
    doc = goblin_core.extract(path, ocr="never")
    refused = _refused_copies(doc)
    assert len(refused) == 1 and "more than once" in refused[0]
    assert [m.action for m in doc.report.members if m.name == "dup.txt"].count("extracted") == 1
    assert any(w.kind == "DuplicateMember" for w in doc.report.warnings)


def test_an_ar_copy_a_tool_writes_over_is_refused_with_a_duplicate_warning(
        tmp_path: Path) -> None:
    require_binary("lsar", "unar")
    ar = require_binary("ar", "binutils")
    first, second = tmp_path / "a" / "dup.txt", tmp_path / "b" / "dup.txt"
    for file, text in ((first, "first copy\n"), (second, "second copy, longer\n")):
        file.parent.mkdir()
        file.write_text(text)
    path = tmp_path / "repetido.a"
    subprocess.run([ar, "qD", str(path), str(first), str(second)], check=True)
    doc = goblin_core.extract(path, ocr="never")
    refused = _refused_copies(doc)
    assert len(refused) == 1 and "(11 bytes)" in refused[0]
    assert "second copy, longer" in " ".join(child.text for child in doc.walk())
    assert any(w.kind == "DuplicateMember" for w in doc.report.warnings)
