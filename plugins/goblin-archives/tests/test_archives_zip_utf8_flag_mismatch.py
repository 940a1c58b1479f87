"""A member whose UTF-8 flag is set in the directory but not in its local header is read."""

from __future__ import annotations

import io
import struct
import zlib

import goblin_core

_LOCAL = "<4sHHHHHIIIHH"
_CENTRAL = "<4sHHHHHHIIIHHHHHII"


def _zip(entries: list[tuple[bytes, bytes, int, int]]) -> bytes:
    """A stored zip of (name bytes, data, local flags, directory flags)."""
    out = io.BytesIO()
    directory = b""
    for name, data, local_flags, central_flags in entries:
        offset, crc = out.tell(), zlib.crc32(data)
        out.write(struct.pack(_LOCAL, b"PK\x03\x04", 20, local_flags, 0, 0, 0x21, crc,
                              len(data), len(data), len(name), 0) + name + data)
        directory += struct.pack(_CENTRAL, b"PK\x01\x02", 20, 20, central_flags, 0, 0, 0x21,
                                 crc, len(data), len(data), len(name), 0, 0, 0, 0, 0,
                                 offset) + name
    start = out.tell()
    out.write(directory)
    out.write(struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries),
                          len(directory), start, 0))
    return out.getvalue()


def test_a_utf8_flag_only_in_the_directory_does_not_make_the_member_damaged() -> None:
    data = _zip([("Licitação.txt".encode(), b"licitacao text\n", 0, 0x800),
                 (b"plain.txt", b"plain\n", 0, 0)])
    doc = goblin_core.extract(data, name="bandeira.zip", ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [
        ("Licitação.txt", "extracted"), ("plain.txt", "extracted")]
    assert not doc.report.errors


def test_a_local_name_of_other_bytes_is_still_refused() -> None:
    data = bytearray(_zip([("Licitação.txt".encode(), b"licitacao text\n", 0, 0x800),
                           (b"plain.txt", b"plain\n", 0, 0)]))
    data[data.index(b"Licita")] = ord("X")  # the local header's copy of the name only
    doc = goblin_core.extract(bytes(data), name="bandeira.zip", ocr="never",
                              archives={"patool": False})
    assert [(m.name, m.action) for m in doc.report.members] == [
        ("Licitação.txt", "refused"), ("plain.txt", "extracted")]
