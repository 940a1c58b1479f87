"""Encoders for the stream filters goblin-pdf decodes, to build test streams: PDF
libraries decode LZW and RunLength but write neither."""

from __future__ import annotations

CLEAR, END = 256, 257


def lzw_packed(codes: list[int], early: int = 1) -> bytes:
    """LZW codes packed high bit first, the width growing as a decoder's table does
    (``early`` 1: one code early, PDF's default)."""
    out = bytearray()
    held = bits = 0
    width, entries, first = 9, 258, True
    for code in codes:
        held, bits = (held << width) | code, bits + width
        while bits >= 8:
            bits -= 8
            out.append((held >> bits) & 0xFF)
        held &= (1 << bits) - 1
        if code == CLEAR:
            entries, first = 258, True
        elif code != END:
            entries += not first and entries < 4096
            first = False
        grown = entries + early
        width = 9 if grown < 512 else 10 if grown < 1024 else 11 if grown < 2048 else 12
    if bits:
        out.append((held << (8 - bits)) & 0xFF)
    return bytes(out)


def lzw_encoded(data: bytes, early: int = 1) -> bytes:
    """``data`` LZW-encoded, the table cleared when full."""
    table = {bytes([value]): value for value in range(256)}
    codes = [CLEAR]
    current = b""
    for value in data:
        longer = current + bytes([value])
        if longer in table:
            current = longer
            continue
        codes.append(table[current])
        if len(table) + 2 < 4095:
            table[longer] = len(table) + 2
        else:
            codes.append(CLEAR)
            table = {bytes([v]): v for v in range(256)}
        current = bytes([value])
    if current:
        codes.append(table[current])
    return lzw_packed([*codes, END], early)


def lzw_run(cycles: int, value: int = 0x20) -> bytes:
    """One byte repeated in ever longer strings, the table refilled ``cycles`` times:
    about 7.4 MB decoded per 5.4 kB."""
    return lzw_packed([*[c for _ in range(cycles) for c in (CLEAR, value, *range(258, 4095))],
                       END])


def run_length_encoded(data: bytes) -> bytes:
    out = bytearray()
    at = 0
    while at < len(data):
        run = 1
        while at + run < len(data) and run < 128 and data[at + run] == data[at]:
            run += 1
        if run > 1:
            out += bytes([257 - run, data[at]])
        else:
            out += bytes([0, data[at]])
        at += run
    return bytes(out + b"\x80")
