"""TNEF streams written attribute by attribute (MS-OXTNEF), for the TNEF tests and samples.

Each attribute is level, id, atp type, length, data and checksum; MAPI blocks
hold one property each. Writing them here lets each test say exactly what
the stream holds.
"""

from __future__ import annotations

import struct

SIGNATURE = b"\x78\x9f\x3e\x22"
MESSAGE, ATTACHMENT = 1, 2
# attribute ids and their atp types (MS-OXTNEF 2.1.3.1)
VERSION = (0x9006, 0x0008)
CODEPAGE = (0x9007, 0x0006)
FROM = (0x8000, 0x0000)
SUBJECT = (0x8004, 0x0001)
DATE_SENT = (0x8005, 0x0003)
BODY = (0x800C, 0x0002)
MAPI_PROPS = (0x9003, 0x0006)
REND_DATA = (0x9002, 0x0006)
ATTACH_TITLE = (0x8010, 0x0001)
ATTACH_DATA = (0x800F, 0x0006)
ATTACHMENT_PROPS = (0x9005, 0x0006)
IMESSAGE = b"\x07\x03\x02\x00\x00\x00\x00\x00\xc0\x00\x00\x00\x00\x00\x00\x46"


def attribute(level: int, name: tuple[int, int], data: bytes) -> bytes:
    ident, kind = name
    checksum = sum(data) & 0xFFFF
    return struct.pack("<BHHI", level, ident, kind, len(data)) + data + struct.pack("<H", checksum)


def stream(*attributes: bytes) -> bytes:
    head = (
        attribute(MESSAGE, VERSION, struct.pack("<I", 0x10000))
        + attribute(MESSAGE, CODEPAGE, struct.pack("<II", 1252, 0))
    )
    return SIGNATURE + struct.pack("<H", 0x0101) + head + b"".join(attributes)


def mapi_binary(prop_id: int, prop_type: int, value: bytes) -> bytes:
    """A MAPI block of one binary-like property (count, type, id, one value, padded)."""
    padding = b"\x00" * (-len(value) % 4)
    return struct.pack("<IHHII", 1, prop_type, prop_id, 1, len(value)) + value + padding


def attached_file(name: str, data: bytes) -> bytes:
    """An attachment: rendering data (which opens it), its file name, its bytes."""
    return (
        attribute(ATTACHMENT, REND_DATA, b"\xff\xff\xff\xff" + b"\x00" * 10)
        + attribute(ATTACHMENT, ATTACH_TITLE, name.encode("cp1252") + b"\x00")
        + attribute(ATTACHMENT, ATTACH_DATA, data)
    )


def embedding(inner: bytes) -> bytes:
    """An attachment holding ``inner`` as an embedded message (PR_ATTACH_DATA_OBJ)."""
    props = mapi_binary(0x3701, 0x000D, IMESSAGE + inner)
    return (
        attribute(ATTACHMENT, REND_DATA, b"\xff\xff\xff\xff" + b"\x00" * 10)
        + attribute(ATTACHMENT, ATTACHMENT_PROPS, props)
    )


def winmail(subject: str, body: str, files: dict[str, bytes]) -> bytes:
    """A message as Outlook writes one: subject, date sent, plain body, attached files."""
    return stream(
        attribute(MESSAGE, SUBJECT, f"{subject}\x00".encode("cp1252")),
        attribute(MESSAGE, DATE_SENT, struct.pack("<7H", 2024, 3, 15, 14, 30, 0, 5)),
        attribute(MESSAGE, BODY, f"{body}\x00".encode("cp1252")),
        *(attached_file(name, data) for name, data in files.items()),
    )
