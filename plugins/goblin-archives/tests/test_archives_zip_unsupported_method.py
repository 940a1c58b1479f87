"""A zip member in a method zipfile does not decode is unsupported, not a wrong password,
and the archive goes to 7-Zip when it can run."""

from __future__ import annotations

import io
import struct
import subprocess
import zipfile
from pathlib import Path

import goblin_core
from goblin_core.testing.corpus import require_binary
from goblin_core.unpack import unpack


def _zip_with_a_member_marked_zstd() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("plain.txt", b"plain stored member")
        archive.writestr("zstd.txt", b"said to be zstd")
    data = bytearray(buffer.getvalue())
    # the method field of the second member, in its local header and in the directory
    local = data.index(b"PK\x03\x04", 1)
    central = data.index(b"PK\x01\x02", data.index(b"PK\x01\x02") + 4)
    struct.pack_into("<H", data, local + 8, 93)
    struct.pack_into("<H", data, central + 10, 93)
    return bytes(data)


def test_a_member_in_a_method_zipfile_lacks_is_unsupported_not_a_wrong_password() -> None:
    doc = goblin_core.extract(_zip_with_a_member_marked_zstd(), name="metodos.zip",
                              ocr="never", archives={"patool": False})
    actions = {m.name: (m.action, m.reason) for m in doc.report.members}
    assert actions["plain.txt"][0] == "extracted"
    assert actions["zstd.txt"][0] == "refused"
    assert "zstd" in actions["zstd.txt"][1] and "password" not in actions["zstd.txt"][1]
    assert [e.kind for e in doc.report.errors] == ["UnsupportedFormat"]


def test_a_ppmd_zip_is_read_by_seven_zip(tmp_path: Path) -> None:
    seven = require_binary("7z", "p7zip-full")
    (tmp_path / "ppmd.txt").write_text("ppmd member text\n" * 20)
    path = tmp_path / "ppmd.zip"
    subprocess.run([seven, "a", "-tzip", "-mm=PPMd", str(path), "ppmd.txt"], cwd=tmp_path,
                   check=True, capture_output=True)
    doc = goblin_core.extract(path, ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [("ppmd.txt", "extracted")]
    assert "ppmd member text" in " ".join(child.text for child in doc.walk())
    result = unpack(path, tmp_path / "out")
    assert [p.name for p in result.written] == ["ppmd.txt"]
