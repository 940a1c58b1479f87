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


def test_a_stored_name_that_names_no_file_leaves_the_file_its_own_name() -> None:
    for stored in (b"..", b".", b"pasta/.."):
        data = _gzip_named(stored, b"texto do gzip\n")
        doc = goblin_core.extract(data, name="ata.txt.gz", ocr="never")
        assert [(m.name, m.action) for m in doc.report.members] == [("ata.txt", "extracted")]
        assert not doc.report.errors
        assert "texto do gzip" in "".join(child.text for child in doc.walk())


def test_a_drive_letter_in_front_of_the_stored_name_is_dropped() -> None:
    data = _gzip_named(b"C:relatorio.txt", b"texto do relatorio\n")
    doc = goblin_core.extract(data, name="copia.gz", ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [("relatorio.txt", "extracted")]
    assert not doc.report.errors
