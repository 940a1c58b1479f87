"""The Info-ZIP Unicode Path extra field names a member stored under a legacy name."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

import goblin_core


def _unicode_path(name: str, legacy: bytes, crc_of: bytes | None = None) -> bytes:
    body = b"\x01" + struct.pack("<I", zlib.crc32(crc_of or legacy)) + name.encode()
    return struct.pack("<HH", 0x7075, len(body)) + body


def _zip(entries: list[tuple[str, bytes, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for legacy, extra, data in entries:
            info = zipfile.ZipInfo(legacy)
            info.extra = extra
            archive.writestr(info, data)
    return buffer.getvalue()


def test_the_unicode_path_field_names_the_member() -> None:
    data = _zip([("??.txt", _unicode_path("文件.txt", b"??.txt"), b"chinese via upath\n"),
                 ("plain.txt", b"", b"plain\n")])
    doc = goblin_core.extract(data, name="upath.zip", ocr="never")
    assert [m.name for m in doc.report.members] == ["文件.txt", "plain.txt"]


def test_a_unicode_path_field_whose_crc_does_not_match_the_name_is_ignored() -> None:
    stale = _unicode_path("antigo.txt", b"novo.txt", crc_of=b"antigo.txt")
    doc = goblin_core.extract(_zip([("novo.txt", stale, b"renamed member\n")]),
                              name="upath.zip", ocr="never")
    assert [m.name for m in doc.report.members] == ["novo.txt"]
