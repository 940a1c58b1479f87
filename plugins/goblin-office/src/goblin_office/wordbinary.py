"""The header and footer story of a Word 97-2003 file, read from its piece table.

antiword reads a .doc's body, tables and footnotes well but prints no page
headers or footers. Word keeps them in their own story, right after the body
and the footnotes in the document's character positions; the FIB says how
long each story is and the piece table (CLX) where its characters live.
"""

from __future__ import annotations

import bisect
import logging
import re
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import olefile

log = logging.getLogger(__name__)

_WORD97_NFIB = 0x00C1
_FIELD = re.compile(r"\x13[^\x13\x14\x15]*\x14([^\x13\x14\x15]*)\x15|\x13[^\x13\x14\x15]*\x15")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")


@dataclass(frozen=True)
class Piece:
    """A run of a document's characters, stored together in the WordDocument stream."""

    start: int  # first character position
    end: int
    offset: int  # byte offset in the WordDocument stream
    compressed: bool  # 8-bit cp1252 rather than UTF-16LE


class WordStreams(NamedTuple):
    """A Word 97 file's WordDocument stream, its table stream and its piece table."""

    word: bytes
    table: bytes
    pieces: list[Piece]


def _streams(source: bytes | WordStreams) -> WordStreams | None:
    """The streams of a file's bytes, or the ones the caller found itself (what survives
    of a file cut short)."""
    return source if isinstance(source, WordStreams) else _stories(source)


_STORY_KINDS = ("header", "header", "footer", "footer", "header", "footer")


def header_footer_lines(data: bytes | WordStreams) -> tuple[list[str], list[str]]:
    """(header lines, footer lines) of a Word 97-2003 file, distinct, in order.

    Both are empty for Word 6/95, encrypted or damaged files.
    """
    stories = _streams(data)
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


#: The stories of a Word 97 document in the order their characters follow each other
#: (FIB ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx), by the
#: name ``document_stories`` gives them; None for the ones read elsewhere or never.
_STORY_ORDER = ("body", "footnotes", None, None, "comments", "endnotes", "text boxes", None)


def document_stories(data: bytes | WordStreams) -> dict[str, list[str]] | None:
    """The paragraphs of a Word 97-2003 file's body, footnotes, comments, endnotes and
    text boxes, read from its piece table (field results kept, their instructions left
    out, table cells tab-separated); None for Word 6/95, encrypted or damaged files.

    For the files antiword refuses though their piece table reads: it will not handle a
    text stream under a few hundred bytes (a short letter LibreOffice saved), and catdoc,
    after it, drops paragraphs that end at a section break or comment mark.
    """
    stories = _streams(data)
    if stories is None:
        return None
    word, _table, pieces = stories
    try:
        lengths = struct.unpack_from("<8i", word, 0x4C)
    except struct.error:
        return None
    found: dict[str, list[str]] = {}
    start = 0
    room = len(word)  # every story's characters are in the WordDocument stream
    row_ends = _row_ends(word, stories.table)
    for name, length in zip(_STORY_ORDER, lengths, strict=True):
        if length < 0:
            return None
        if name is not None and length:
            story = _characters(word, pieces, start, start + length, room, row_ends)
            room -= len(story)
            found[name] = _lines(story, distinct=False)
        start += length
    return found


#: FibRgFcLcb97 starts here in a Word 97 FIB; each of its entries is an (fc, lcb) pair
_FC_LCB = 0x9A
_PLCF_AND_REF, _PLCF_AND_TXT, _GRP_XST_ATN_OWNERS = 4, 5, 36
#: bytes of an ATRDPre10, the data of each comment's reference; its author index at 20
_ATRD = 30


def comment_lines(data: bytes | WordStreams) -> list[str]:
    """Each comment of a Word 97-2003 file, ``Comment (author): text`` (its paragraphs on
    lines of their own), in the order of the comments story; [] for none, or for Word
    6/95, encrypted or damaged files. antiword prints no comments."""
    stories = _streams(data)
    if stories is None:
        return []
    word, table, pieces = stories
    try:
        text, footnotes, headers, macros, length = struct.unpack_from("<5i", word, 0x4C)
        bounds = _plc_positions(word, table, _PLCF_AND_TXT, 0)
        authors = _authors(word, table)
        references = _plc_positions(word, table, _PLCF_AND_REF, _ATRD)
        fc_ref = struct.unpack_from("<I", word, _FC_LCB + 8 * _PLCF_AND_REF)[0]
    except (struct.error, ValueError) as exc:
        log.debug("unreadable comments tables: %s", exc)
        return []
    start = text + footnotes + headers + macros
    found: list[str] = []
    room = len(word)
    for index in range(len(bounds) - 1):
        low, high = bounds[index], bounds[index + 1]
        if not 0 <= low < high <= length:
            continue
        story = _characters(word, pieces, start + low, start + high, room)
        room -= len(story)
        lines = _lines(story, distinct=False)
        if not lines:
            continue
        author = ""
        if index < len(references) - 1:
            at = fc_ref + 4 * len(references) + _ATRD * index + 20
            if at + 2 <= len(table):
                owner = struct.unpack_from("<h", table, at)[0]
                author = authors[owner] if 0 <= owner < len(authors) else ""
        found.append((f"Comment ({author}): " if author else "Comment: ") + "\n".join(lines))
        if room <= 0:
            break
    return found


def _plc_positions(word: bytes, table: bytes, entry: int, data_size: int) -> list[int]:
    """The character positions of the PLC the FIB's ``entry`` locates in the table
    stream, each of its data items ``data_size`` bytes."""
    fc, lcb = struct.unpack_from("<II", word, _FC_LCB + 8 * entry)
    if lcb < 4 or fc + lcb > len(table):
        return []
    count = (lcb - 4) // (4 + data_size)
    return list(struct.unpack_from(f"<{count + 1}i", table, fc))


def _authors(word: bytes, table: bytes) -> list[str]:
    """The comment authors' names (GrpXstAtnOwners: a length, then UTF-16 characters)."""
    fc, lcb = struct.unpack_from("<II", word, _FC_LCB + 8 * _GRP_XST_ATN_OWNERS)
    names: list[str] = []
    position, end = fc, min(fc + lcb, len(table))
    while position + 2 <= end:
        size = struct.unpack_from("<H", table, position)[0]
        names.append(table[position + 2 : position + 2 + 2 * size].decode("utf-16-le", "replace"))
        position += 2 + 2 * size
    return names


#: FibRgFcLcb97 entry of PlcBteChpx, the character property pages (by file offset)
_PLCF_BTE_CHPX = 12
#: sprmCFRMarkDel: the run is a tracked deletion (operand 1: deleted)
_SPRM_DELETED = 0x0800
#: operand sizes by the sprm's spra field (6: the operand's first byte gives its size)
_OPERAND_SIZES = (1, 1, 2, 4, 2, 2, 0, 3)
#: marks a deletion keeps, so the converters still find the tables, fields and objects
#: around what is left: cell and row ends, field begin, separator and end, pictures
_STRUCTURE = frozenset({0x01, 0x07, 0x08, 0x13, 0x14, 0x15})
_OPTIONAL_HYPHEN = b"\x1f\x00"


def without_deletions(data: bytes) -> bytes | None:
    """A copy of a Word 97-2003 file whose tracked deletions are blanked (each deleted
    character an optional hyphen, U+001F, which antiword, catdoc and the piece-table
    reader all print as nothing: catdoc takes a NUL for a line's end), so the
    document reads with its changes accepted, as a .docx's does; None when it has no
    deletion, or is not a Word 97 file whose character properties read.

    antiword prints deleted text as if it were the document's (it knows only the older
    revision marks), and so does the piece table.
    """
    stories = _stories(data)
    if stories is None:
        return None
    word, table, pieces = stories
    try:
        deleted = _deleted_bytes(word, table)
    except (struct.error, ValueError, IndexError) as exc:
        log.debug("unreadable character properties: %s", exc)
        return None
    if not deleted:
        return None
    deleted.sort()
    starts = [first for first, _ in deleted]
    blanked = bytearray(word)
    for piece in pieces:
        width = 1 if piece.compressed else 2
        low, high = piece.offset, min(piece.offset + width * (piece.end - piece.start),
                                      len(blanked))
        # the ranges reaching into the piece: from the last one starting before it on
        for first, last in deleted[max(bisect.bisect_right(starts, low) - 1, 0):]:
            if first >= high:
                break
            start = max(first, low)
            start += (start - low) % width  # a character's first byte
            for at in range(start, min(last, high) - width + 1, width):
                code = blanked[at] if width == 1 else blanked[at] | blanked[at + 1] << 8
                if code not in _STRUCTURE:
                    blanked[at : at + width] = _OPTIONAL_HYPHEN[:width]
    if blanked == word:
        return None
    try:
        with olefile.OleFileIO(data, write_mode=True) as ole:
            ole.write_stream("WordDocument", bytes(blanked))
            copy: bytes = ole.fp.getvalue()
    except (OSError, ValueError, AttributeError, struct.error) as exc:
        log.debug("could not blank the tracked deletions: %s", exc)
        return None
    return copy


def _deleted_bytes(word: bytes, table: bytes) -> list[tuple[int, int]]:
    """The WordDocument byte ranges whose character properties mark a deletion."""
    found: list[tuple[int, int]] = []
    for page, runs, bounds in _property_pages(word, table, _PLCF_BTE_CHPX):
        for index in range(runs):
            at = page[4 * (runs + 1) + index] * 2
            if at and _marks_deleted(page[at + 1 : at + 1 + page[at]]):
                found.append((bounds[index], bounds[index + 1]))
    return found


def _property_pages(word: bytes, table: bytes,
                    entry: int) -> Iterator[tuple[bytes, int, tuple[int, ...]]]:
    """Each property page (FKP) of the WordDocument stream that the bin table the FIB's
    ``entry`` locates lists, once: its bytes, its count of runs and the runs' bounds."""
    offset, length = struct.unpack_from("<II", word, _FC_LCB + 8 * entry)
    count = (length - 4) // 8
    if count <= 0 or offset + length > len(table):
        return
    pages = struct.unpack_from(f"<{count}I", table, offset + 4 * (count + 1))
    for number in dict.fromkeys(pages):
        page = word[(number & 0x3FFFFF) * 512 : (number & 0x3FFFFF) * 512 + 512]
        if len(page) < 512:
            continue
        runs = page[511]
        yield page, runs, struct.unpack_from(f"<{runs + 1}I", page, 0)


def _marks_deleted(properties: bytes) -> bool:
    """Whether a CHPX's sprms set sprmCFRMarkDel."""
    return _sprm_operand(properties, _SPRM_DELETED)


def _sprm_operand(properties: bytes, sprm: int) -> bool:
    """Whether the sprms ``properties`` holds set the one-byte property ``sprm``."""
    at = 0
    while at + 2 <= len(properties):
        operation = struct.unpack_from("<H", properties, at)[0]
        at += 2
        size = _OPERAND_SIZES[operation >> 13]
        if not size:
            size = properties[at] + 1 if at < len(properties) else 1
        if operation == sprm and at < len(properties) and properties[at] & 1:
            return True
        at += size
    return False


def _stories(data: bytes) -> WordStreams | None:
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
        return WordStreams(word, table, piece_table(word, table))
    except (struct.error, ValueError) as exc:
        log.debug("unreadable FIB or piece table: %s", exc)
        return None


#: where the FIB of a Word 97 file gives the piece table's place in the table stream
CLX_FIELDS = 0x01A2


def piece_table(word: bytes, table: bytes) -> list[Piece]:
    """The pieces of the piece table the FIB in ``word`` places in ``table``; ValueError
    or struct.error when there is none there."""
    clx_offset, clx_length = struct.unpack_from("<II", word, CLX_FIELDS)
    return _pieces(table[clx_offset : clx_offset + clx_length])


def _pieces(clx: bytes) -> list[Piece]:
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
        pieces.append(Piece(positions[index], positions[index + 1], offset, compressed))
    return pieces


#: a table row's end, told from a cell's by its paragraph's properties (``_row_ends``):
#: a lone surrogate, which no decoding of a story's bytes gives (a NUL, say, may be one)
_ROW_END = "\udfff"
#: the starts and the ends of byte ranges, in order
_RowEnds = tuple[Sequence[int], Sequence[int]]


def _characters(word: bytes, pieces: list[Piece], start: int, end: int, limit: int,
                row_ends: _RowEnds = ((), ())) -> str:
    """The characters from position ``start`` to ``end``, at most ``limit`` of them; a
    cell mark (\x07) in one of the ``row_ends`` byte ranges, a row's end, as ``_ROW_END``."""
    out = []
    for piece in pieces:
        low, high = max(start, piece.start), min(end, piece.end)
        if low >= high:
            continue
        skip, count = low - piece.start, min(high - low, limit)
        if piece.compressed:
            at = piece.offset + skip
            raw = word[at : at + count]
            text = raw.decode("cp1252", "replace")
        else:
            at = piece.offset + 2 * skip
            raw = word[at : at + 2 * count]
            text = raw.decode("utf-16-le", "replace")
        if row_ends[0] and "\x07" in text:
            text = _marked_row_ends(text, at, 1 if piece.compressed else 2, row_ends)
        out.append(text)
        limit -= len(out[-1])
        if limit <= 0:
            break
    return "".join(out)


def _marked_row_ends(text: str, offset: int, width: int, row_ends: _RowEnds) -> str:
    """``text`` (stored from byte ``offset`` on, ``width`` bytes a character) with each
    cell mark that ends a row written ``_ROW_END``."""
    starts, ends = row_ends
    characters = list(text)
    at = text.find("\x07")
    while at >= 0:
        byte = offset + width * at
        index = bisect.bisect_right(starts, byte) - 1
        if index >= 0 and byte < ends[index]:
            characters[at] = _ROW_END
        at = text.find("\x07", at + 1)
    return "".join(characters)


#: FibRgFcLcb97 entry of PlcBtePapx, the paragraph property pages (by file offset)
_PLCF_BTE_PAPX = 13
#: sprmPFTtp: the paragraph is a table row's end mark (operand 1)
_SPRM_ROW_END = 0x2417
#: bytes of a BxPap: its PAPX's offset (in words), then a PHE
_BX_PAP = 13


def _row_ends(word: bytes, table: bytes) -> _RowEnds:
    """The WordDocument byte ranges of the paragraphs that end a table row (their mark is
    the row's, not a cell's): their starts and their ends, in order; none when the
    paragraph properties do not read.

    A row's end mark and an empty cell's are the same character (\x07): only the
    paragraph properties tell them apart."""
    found: list[tuple[int, int]] = []
    try:
        for page, runs, bounds in _property_pages(word, table, _PLCF_BTE_PAPX):
            for index in range(runs):
                at = page[4 * (runs + 1) + _BX_PAP * index] * 2
                if not at:
                    continue
                size = page[at] * 2 - 1
                if size < 0:  # a zero count: the real one, in words, follows
                    at += 1
                    size = page[at] * 2
                # the paragraph's style (2 bytes), then its properties
                if _sprm_operand(page[at + 3 : at + 1 + size], _SPRM_ROW_END):
                    found.append((bounds[index], bounds[index + 1]))
    except (struct.error, ValueError, IndexError) as exc:
        log.debug("unreadable paragraph properties: %s", exc)
        return (), ()
    found.sort()
    return tuple(low for low, _high in found), tuple(high for _low, high in found)


def _lines(story: str, distinct: bool = True) -> list[str]:
    """The story's paragraphs, blank ones left out; ``distinct``: each once (a header
    repeated in each section)."""
    previous = None
    while previous != story:  # nested fields resolve from the inside out
        previous = story
        story = _FIELD.sub(r"\1", story)
    if _ROW_END in story:
        # the rows' ends known: the last cell's mark before one ends the line
        story = story.replace("\x07" + _ROW_END, "\n").replace(_ROW_END, "\n")
    else:
        # a cell ends with \x07, and its row with one more (an empty cell's mark reads
        # so too): the row is a line of its own
        story = story.replace("\x07\x07", "\t\n")
    story = _CONTROL.sub("", story.replace("\x07", "\t"))
    lines: list[str] = []
    for line in re.split(r"[\r\n\x0c]", story):
        # a table row is one line, its cells ended by tabs (the row's own mark too)
        cleaned = "\t".join(" ".join(cell.split()) for cell in line.split("\t")).strip("\t")
        if distinct:
            cleaned = " ".join(cleaned.split())
        if cleaned and not (distinct and cleaned in lines):
            lines.append(cleaned)
    return lines
