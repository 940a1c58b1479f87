"""The original name a gzip records is read as the system that wrote it spelled it."""

from __future__ import annotations

import gzip
import io

import goblin_core


def _gzip_named(name: bytes, payload: bytes) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as out:
        out.write(payload)
    data = buffer.getvalue()
    # FNAME: flag 0x08, the NUL-ended name right after the 10-byte header
    return data[:3] + bytes([data[3] | 0x08]) + data[4:10] + name + b"\0" + data[10:]


def test_a_utf8_gzip_stored_name_is_read_as_utf8() -> None:
    data = _gzip_named("relatório final.txt".encode(), b"original name report text\n")
    doc = goblin_core.extract(data, name="renomeado.gz", ocr="never")
    assert [m.name for m in doc.report.members] == ["relatório final.txt"]


def test_a_latin1_gzip_stored_name_is_still_read_as_latin1() -> None:
    data = _gzip_named("relatório final.txt".encode("latin-1"), b"texto\n")
    doc = goblin_core.extract(data, name="renomeado.gz", ocr="never")
    assert [m.name for m in doc.report.members] == ["relatório final.txt"]
