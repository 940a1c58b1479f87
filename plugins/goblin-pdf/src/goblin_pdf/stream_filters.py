"""A stream's filters, decoded a piece at a time, to count what a reader would hold.

A reader decodes a stream through every filter its dictionary names, holding each
layer's output whole. The bomb checks need the sizes, not the bytes: each filter here
yields its output in pieces of about ``CHUNK`` bytes, so a gigabyte-sized layer is
counted while a megabyte is held. The filters are those that can make data larger than
it is in the file (Flate, LZW, RunLength) and the ASCII encodings that may wrap them.
Image codecs (DCT, JPX, JBIG2, CCITT) are left out: text extraction never decodes an
image, and a page rendered for OCR has its own pixel limit.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Callable, Iterable, Iterator

CHUNK = 1 << 20

FLATE = b"FlateDecode"
LZW = b"LZWDecode"
RUN_LENGTH = b"RunLengthDecode"
ASCII85 = b"ASCII85Decode"
ASCII_HEX = b"ASCIIHexDecode"

# Readers take the inline-image abbreviations in stream dictionaries too.
_FULL_NAMES = {b"Fl": FLATE, b"LZW": LZW, b"RL": RUN_LENGTH, b"A85": ASCII85, b"AHx": ASCII_HEX}

#: The most bytes one byte of encoded data decodes to, per filter. Deflate: RFC 1951's
#: longest match, 258 bytes, in under two bits. LZW: a 12-bit code for the longest string
#: a 4,096-entry table holds (3,839 bytes). RunLength: 128 bytes from a 2-byte run.
#: ASCII85: "z" stands for four zero bytes.
GROWTH = {FLATE: 1032, LZW: 2560, RUN_LENGTH: 64, ASCII85: 4, ASCII_HEX: 1}

_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/[^\s/\[\]()<>{}%]+|\d+\s+\d+\s+R)")
_NAME = re.compile(rb"/([^\s/\[\]()<>{}%]+)")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_EARLY_CHANGE = re.compile(rb"/EarlyChange\s+0\b")
_ASCII_SPACE = b" \t\n\r\x0c\x00"
_A85_DIGITS = bytes(range(ord("!"), ord("u") + 1)) + b"z"
_A85_POWERS = (85**4, 85**3, 85**2, 85, 1)
# ASCII85 data up to this size is decoded by the standard library, byte by byte in Python,
# in less time than loading NumPy for it would take
_A85_IN_PYTHON = 32 * 1024


def read_name(raw: bytes) -> bytes:
    """A PDF name's bytes with its ``#xx`` escapes resolved."""
    if b"#" not in raw:
        return raw
    return _NAME_ESCAPE.sub(lambda escape: bytes([int(escape[1], 16)]), raw)


def filter_chain(dictionary: bytes) -> list[bytes] | None:
    """The filters a stream dictionary names, in order and spelled out ([] for none);
    None when ``/Filter`` is an indirect reference (see ``filter_reference``)."""
    found = _FILTER.search(dictionary)
    if found is None:
        return []
    if found[1].endswith(b"R"):
        return None
    return filter_names(found[1])


def filter_names(value: bytes) -> list[bytes]:
    """The filters a ``/Filter`` value (a name or an array of names) holds, spelled out."""
    return [_FULL_NAMES.get(full, full) for full in map(read_name, _NAME.findall(value))]


def filter_reference(dictionary: bytes) -> tuple[int, int] | None:
    """The object (number, generation) a ``/Filter`` given by reference points to."""
    found = _FILTER.search(dictionary)
    if found is None or not found[1].endswith(b"R"):
        return None
    number, generation = found[1].split()[:2]
    return int(number), int(generation)


def most_decoded(size: int, chain: Iterable[bytes]) -> int:
    """The most bytes ``size`` bytes of data can decode to through ``chain``; a filter
    outside ``GROWTH`` ends the count there (its output is not text a reader parses)."""
    for filter_name in chain:
        growth = GROWTH.get(filter_name)
        if growth is None:
            break
        size *= growth
    return size


class Layer:
    """One filter's output, a piece at a time, counted as it passes."""

    def __init__(self, pieces: Iterator[bytes]) -> None:
        self._pieces = pieces
        self.size = 0

    def __iter__(self) -> Iterator[bytes]:
        for piece in self._pieces:
            self.size += len(piece)
            yield piece


def layers(pieces: Iterable[bytes], chain: Iterable[bytes], dictionary: bytes = b"",
           held: int = 1 << 26) -> list[Layer]:
    """Each filter of ``chain`` applied in turn to ``pieces``: iterating the last layer
    drives them all, and each one's size stays current. A filter outside ``GROWTH`` ends
    the chain. An ASCII layer after the first needs its whole input: past ``held`` bytes
    of it, it is cut there."""
    found: list[Layer] = []
    stage: Iterable[bytes] = pieces
    for filter_name in chain:
        decode = _DECODERS.get(filter_name)
        if decode is None:
            break
        if filter_name == LZW and _EARLY_CHANGE.search(dictionary):
            decode = _lzw_late
        if filter_name in (ASCII85, ASCII_HEX) and found:
            stage = _capped(stage, held)
        found.append(Layer(decode(stage)))
        stage = found[-1]
    return found


def decodes_past(pieces: Iterable[bytes], chain: Iterable[bytes], dictionary: bytes,
                 limit: int) -> bool:
    """Whether decoding ``pieces`` through ``chain`` makes a reader hold more than
    ``limit`` bytes: every layer's output counts, since each is held whole."""
    found = layers(pieces, chain, dictionary, held=limit)
    if not found:
        return False
    return any(sum(layer.size for layer in found) > limit for _ in found[-1])


def _capped(pieces: Iterable[bytes], held: int) -> Iterator[bytes]:
    out = bytearray()
    for piece in pieces:
        out += piece
        if len(out) > held:
            break
    yield bytes(out[:held + 1])


def _flate(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """Deflate data inflated; damaged data ends where inflating fails, as in the readers."""
    inflater = zlib.decompressobj()
    try:
        for piece in pieces:
            while piece and not inflater.eof:
                out = inflater.decompress(piece, CHUNK)
                if out:
                    yield out
                piece = inflater.unconsumed_tail
            if inflater.eof:
                return
    except zlib.error:
        return


def _lzw_late(pieces: Iterable[bytes]) -> Iterator[bytes]:
    return _lzw(pieces, early=0)


def _lzw(pieces: Iterable[bytes], early: int = 1) -> Iterator[bytes]:
    """LZW data decoded as PDF 32000-1, 7.4.4 has it: 9- to 12-bit codes, 256 clears the
    table, 257 ends the data; with ``early`` 1 the code width grows one code early."""
    table = [bytes([value]) for value in range(256)] + [b"", b""]
    width = 9
    previous = b""
    held = bits = 0
    out: list[bytes] = []
    size = 0
    for piece in pieces:
        for byte in piece:
            held = (held << 8) | byte
            bits += 8
            if bits < width:
                continue
            bits -= width
            code = held >> bits
            held &= (1 << bits) - 1
            if code == 256:
                del table[258:]
                width, previous = 9, b""
                continue
            if code == 257:
                break
            if code < len(table):
                entry = table[code]
                if previous and len(table) < 4096:
                    table.append(previous + entry[:1])
            elif code == len(table) and previous:
                entry = previous + previous[:1]
                table.append(entry)
            else:
                break  # a code the table cannot hold: damaged data ends here
            previous = entry
            out.append(entry)
            size += len(entry)
            entries = len(table) + early
            width = 9 if entries < 512 else 10 if entries < 1024 else 11 if entries < 2048 else 12
            if size >= CHUNK:
                yield b"".join(out)
                out, size = [], 0
        else:
            continue
        break
    if out:
        yield b"".join(out)


def _run_length(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """RunLength data decoded: a length byte, then that many plus one literal bytes
    (0 to 127) or one byte repeated 257 minus it times (129 to 255); 128 ends the data."""
    pending = b""
    out = bytearray()
    for piece in pieces:
        data = pending + piece
        at = 0
        while at < len(data):
            length = data[at]
            if length == 128:
                if out:
                    yield bytes(out)
                return
            if length < 128:
                if at + length + 2 > len(data):
                    break
                out += data[at + 1:at + length + 2]
                at += length + 2
            else:
                if at + 2 > len(data):
                    break
                out += data[at + 1:at + 2] * (257 - length)
                at += 2
            if len(out) >= CHUNK:
                yield bytes(out)
                out.clear()
        pending = data[at:]
    if out:
        yield bytes(out)


def _ascii85(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """ASCII85 data decoded up to its ``~>`` (whole: it is never larger than the file);
    nothing when it is not ASCII85, as ``base64.a85decode`` has it."""
    raw = b"".join(pieces)
    end = raw.find(b"~>")
    raw = raw[:end] if end >= 0 else raw
    if raw.startswith(b"<~"):
        raw = raw[2:]
    if len(raw) <= _A85_IN_PYTHON:
        try:
            yield base64.a85decode(raw, ignorechars=_ASCII_SPACE)
        except ValueError:
            return
        return
    decoded = _a85decode(raw)
    if decoded is not None:
        yield decoded


def _a85decode(raw: bytes) -> bytes | None:
    """``base64.a85decode(raw, ignorechars=_ASCII_SPACE)``, None where it raises
    ValueError: the same, with numpy doing what it does in a Python loop a byte at a
    time (a megabyte took a quarter of a second)."""
    digits = raw.translate(None, _ASCII_SPACE)
    if digits.translate(None, _A85_DIGITS):
        return None  # a byte that is neither a digit, "z" nor space
    if b"z" in digits:
        # "z" stands for four zero bytes between groups of five digits only, as "!!!!!"
        parts = digits.split(b"z")
        if any(len(part) % 5 for part in parts[:-1]):
            return None
        digits = b"!!!!!".join(parts)
    import numpy as np  # here: few PDFs have ASCII85 streams the checks decode

    # a last group short of five digits is filled with "u" and as many bytes cut again
    padded = digits + b"u" * 4
    groups = np.frombuffer(padded, dtype=np.uint8, count=len(padded) // 5 * 5).reshape(-1, 5)
    powers = np.array(_A85_POWERS, dtype=np.uint64)
    out = []
    for at in range(0, len(groups), CHUNK // 4):  # a few megabytes of numbers at a time
        values = (groups[at:at + CHUNK // 4] - 33).astype(np.uint64) @ powers
        if int(values.max()) > 0xFFFFFFFF:
            return None  # a group past four bytes
        out.append(values.astype(">u4").tobytes())
    decoded = b"".join(out)
    cut = 4 - len(padded) % 5
    return decoded[:-cut] if cut else decoded


def _ascii_hex(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """ASCIIHex data decoded up to its ``>``; an odd last digit counts as followed by 0."""
    raw = b"".join(pieces)
    end = raw.find(b">")
    digits = (raw[:end] if end >= 0 else raw).translate(None, _ASCII_SPACE)
    if len(digits) % 2:
        digits += b"0"
    try:
        yield binascii.unhexlify(digits)
    except (binascii.Error, ValueError):
        return


_DECODERS: dict[bytes, Callable[[Iterable[bytes]], Iterator[bytes]]] = {
    FLATE: _flate, LZW: _lzw, RUN_LENGTH: _run_length, ASCII85: _ascii85,
    ASCII_HEX: _ascii_hex,
}
