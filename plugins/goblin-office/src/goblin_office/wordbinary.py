"""The header and footer story of a Word 97-2003 file, read from its piece table.

antiword reads a .doc's body, tables and footnotes well but prints no page
headers or footers. Word keeps them in their own story, right after the body
and the footnotes in the document's character positions; the FIB says how
long each story is and the piece table (CLX) where its characters live.
"""

from __future__ import annotations

import logging
import re
import struct
from dataclasses import dataclass

import olefile

log = logging.getLogger(__name__)

_WORD97_NFIB = 0x00C1
_FIELD = re.compile(r"\x13[^\x13\x14\x15]*\x14([^\x13\x14\x15]*)\x15|\x13[^\x13\x14\x15]*\x15")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")


@dataclass(frozen=True)
class _Piece:
    start: int  # first character position
    end: int
    offset: int  # byte offset in the WordDocument stream
    compressed: bool  # 8-bit cp1252 rather than UTF-16LE


_STORY_KINDS = ("header", "header", "footer", "footer", "header", "footer")


def header_footer_lines(data: bytes) -> tuple[list[str], list[str]]:
    """(header lines, footer lines) of a Word 97-2003 file, distinct, in order.

    Both are empty for Word 6/95, encrypted or damaged files.
    """
    stories = _stories(data)
    if stories is None:
        return [], []
    word, table, pieces = stories
    try:
        text, footnotes, headers = struct.unpack_from("<3i", word, 0x4C)
        hdd_offset, hdd_length = struct.unpack_from("<II", word, 0xF2)
        bounds = struct.unpack_from(f"<{hdd_length // 4}i", table, hdd_offset)
    except (struct.error, ValueError) as exc:
        log.debug("unreadable header story table: %s", exc)
        return [], []
    start = text + footnotes
    found: dict[str, list[str]] = {"header": [], "footer": []}
    # Every story's characters are in the WordDocument stream: all of them together
    # cannot outnumber its bytes, however many stories and pieces a file declares.
    room = len(word)
    # plcfHdd: six separator stories, then six stories per section
    for index in range(6, len(bounds) - 1):
        low, high = bounds[index], bounds[index + 1]
        if not 0 <= low < high <= headers:
            continue
        story = _characters(word, pieces, start + low, start + high, room)
        room -= len(story)
        lines = found[_STORY_KINDS[(index - 6) % 6]]
        for line in _lines(story):
            if line not in lines:
                lines.append(line)
        if room <= 0:
            break
    return found["header"], found["footer"]


def holds_no_text(data: bytes) -> bool:
    """Whether a Word 97-2003 file's body, notes and header stories are all blank.

    A converter printing nothing is then right: the document is empty, not
    unreadable. False for Word 6/95, encrypted or damaged files, which cannot
    be told apart from ones a converter failed on.
    """
    stories = _stories(data)
    if stories is None:
        return False
    word, _table, pieces = stories
    try:
        # ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx
        total = sum(struct.unpack_from("<8i", word, 0x4C))
    except struct.error:
        return False
    covered = sum(piece.end - piece.start for piece in pieces)
    if total <= 0 or covered < total:
        return False
    return not _lines(_characters(word, pieces, 0, total, len(word)))


def _stories(data: bytes) -> tuple[bytes, bytes, list[_Piece]] | None:
    """The WordDocument stream, its table stream and piece table, or None."""
    try:
        with olefile.OleFileIO(data) as ole:
            word = ole.openstream("WordDocument").read()
            flags = struct.unpack_from("<H", word, 0x0A)[0]
            if struct.unpack_from("<H", word, 2)[0] < _WORD97_NFIB or flags & 0x0100:
                return None  # Word 6/95, or encrypted: not this layout
            table = ole.openstream("1Table" if flags & 0x0200 else "0Table").read()
    except (OSError, ValueError, IndexError, struct.error, RecursionError) as exc:
        log.debug("no Word 97 stories: %s", exc)
        return None
    try:
        clx_offset, clx_length = struct.unpack_from("<II", word, 0x01A2)
        pieces = _pieces(table[clx_offset : clx_offset + clx_length])
    except (struct.error, ValueError) as exc:
        log.debug("unreadable FIB or piece table: %s", exc)
        return None
    return word, table, pieces


def _pieces(clx: bytes) -> list[_Piece]:
    pos = 0
    while pos < len(clx) and clx[pos] == 0x01:  # Prc: property modifiers, skipped
        pos += 3 + struct.unpack_from("<H", clx, pos + 1)[0]
    if pos >= len(clx) or clx[pos] != 0x02:
        raise ValueError("no piece table in the CLX")
    length = struct.unpack_from("<I", clx, pos + 1)[0]
    plc = clx[pos + 5 : pos + 5 + length]
    count = (length - 4) // 12
    positions = struct.unpack_from(f"<{count + 1}i", plc, 0)
    pieces = []
    reached = 0
    for index in range(count):
        if not reached <= positions[index] < positions[index + 1]:
            continue  # pieces follow each other: one reaching back would read text twice
        reached = positions[index + 1]
        fc = struct.unpack_from("<I", plc, 4 * (count + 1) + 8 * index + 2)[0]
        compressed = bool(fc & 0x40000000)
        offset = (fc & 0x3FFFFFFF) // 2 if compressed else fc
        pieces.append(_Piece(positions[index], positions[index + 1], offset, compressed))
    return pieces


def _characters(word: bytes, pieces: list[_Piece], start: int, end: int, limit: int) -> str:
    """The characters from position ``start`` to ``end``, at most ``limit`` of them."""
    out = []
    for piece in pieces:
        low, high = max(start, piece.start), min(end, piece.end)
        if low >= high:
            continue
        skip, count = low - piece.start, min(high - low, limit)
        if piece.compressed:
            raw = word[piece.offset + skip : piece.offset + skip + count]
            out.append(raw.decode("cp1252", "replace"))
        else:
            raw = word[piece.offset + 2 * skip : piece.offset + 2 * (skip + count)]
            out.append(raw.decode("utf-16-le", "replace"))
        limit -= len(out[-1])
        if limit <= 0:
            break
    return "".join(out)


def _lines(story: str) -> list[str]:
    previous = None
    while previous != story:  # nested fields resolve from the inside out
        previous = story
        story = _FIELD.sub(r"\1", story)
    story = _CONTROL.sub("", story.replace("\x07", "\t"))
    lines: list[str] = []
    for line in re.split(r"[\r\n\x0c]", story):
        cleaned = " ".join(line.split())
        if cleaned and cleaned not in lines:
            lines.append(cleaned)
    return lines
