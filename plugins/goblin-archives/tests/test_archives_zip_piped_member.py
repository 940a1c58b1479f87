"""A zip member written from a pipe (``producer | zip out.zip -``) is the data it holds."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import goblin_core
from goblin_core.unpack import unpack

#: The Unix mode zip records for its standard input when that is a pipe (prw-------).
_PIPE_MODE = 0o010600


def _piped_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("-")
        info.create_system = 3
        info.external_attr = _PIPE_MODE << 16
        archive.writestr(info, b"minutes piped into zip\n")
        archive.writestr("plain.txt", b"plain member beside it\n")
    return buffer.getvalue()


def test_a_member_zip_read_from_a_pipe_is_extracted() -> None:
    doc = goblin_core.extract(_piped_zip(), name="piped.zip", ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [
        ("-", "extracted"), ("plain.txt", "extracted")]
    assert not doc.report.errors
    assert "minutes piped into zip" in "\n".join(child.text for child in doc.walk())


def test_a_member_zip_read_from_a_pipe_unpacks_as_a_plain_file(tmp_path: Path) -> None:
    path = tmp_path / "piped.zip"
    path.write_bytes(_piped_zip())
    result = unpack(path, tmp_path / "out")
    assert not result.errors
    written = {p.name: p for p in result.written}
    assert written["-"].is_file()
    assert written["-"].read_bytes() == b"minutes piped into zip\n"
