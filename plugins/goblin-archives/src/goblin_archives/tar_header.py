"""Recognising a tar header by its checksum, so that tars without the ustar magic are found.

Old V7 tars (and some hand-made ones) have no ``ustar`` magic at offset
257; the only thing that identifies them is the header checksum: the sum of
the header's 512 bytes with the checksum field counted as spaces.
"""

from __future__ import annotations

BLOCK = 512
_CHECKSUM = slice(148, 156)


def is_tar_header(block: bytes) -> bool:
    """True when ``block`` is a plausible first tar header.

    >>> is_tar_header(b"\\0" * 512)
    False
    """
    if len(block) < BLOCK or block[0] == 0:
        return False
    if block[257:262] == b"ustar":
        return True
    stored = _octal(block[_CHECKSUM])
    if stored is None:
        return False
    header = block[:BLOCK]
    counted = header[:148] + b" " * 8 + header[156:]
    unsigned = sum(counted)
    signed = sum(b - 256 if b > 127 else b for b in counted)
    return stored in (unsigned, signed) and _name_is_text(header[:100])


def _octal(field: bytes) -> int | None:
    text = field.replace(b"\0", b" ").strip()
    if not text or any(ch not in b"01234567" for ch in text):
        return None
    return int(text, 8)


def _name_is_text(field: bytes) -> bool:
    name = field.split(b"\0", 1)[0]
    return bool(name) and all(b >= 32 for b in name)
