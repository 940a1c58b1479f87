"""Reading what is left of a Word 97-2003 file cut short (``office.doc_salvage``).

A compound file keeps its allocation tables and directory where its writer put them,
which Word and LibreOffice both put after the streams: a .doc cut short has lost its
directory, so no reader (olefile, antiword, catdoc, LibreOffice) finds its streams, and
the document failed whole. But the WordDocument stream, which Word writes first, still
begins with its FIB, and the table stream holding the piece table usually follows it.
A file whose directory survives, but not all of its streams' sectors, is refused by the
same readers. This engine finds the streams by their own structure, follows their sector
chains as far as the surviving allocation tables give them (sector after sector beyond
that, as both writers lay streams out), and reads the stories with the piece-table reader
the antiword engine uses for the files antiword refuses. The text before the cut is kept;
the document counts as read in part.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from itertools import islice

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.legacy import word97_page
from goblin_office.olesalvage import SurvivingSectors, stream_starts, surviving_sectors
from goblin_office.wordbinary import CLX_FIELDS, Piece, WordStreams, document_stories, piece_table

#: a Word 97 and later FIB: its identifier, then the count of 16-bit fields (14) at 32
_FIB_ID = b"\xec\xa5"
_WORD97_NFIB = 0x00C1
_FIB_FIELD_COUNT = struct.Struct("<H")
_ENCRYPTED = 0x0100
#: the FIB flag of a file saved fast (incrementally), whose text lies in pieces anywhere
_COMPLEX = 0x0004
#: where the FIB gives the first and last byte of the text (fcMin, fcMac)
_TEXT_BOUNDS = struct.Struct("<II")
_TEXT_BOUNDS_AT = 0x18
#: characters a story holds besides text: paragraph, cell, line and page marks, field
#: marks, optional and non-breaking hyphens, object anchors, tabs
_STORY_MARKS = frozenset("\r\x07\x0b\x0c\x13\x14\x15\x01\x08\x1e\x1f\x02\x05\t\n")
#: the FIB's story lengths (ccpText ... ccpHdrTxbx)
_STORY_LENGTHS = struct.Struct("<8i")
_STORY_LENGTHS_AT = 0x4C
#: FIBs, and places that look like their piece table, tried: each a read of a stream
_MAX_FIBS = 4
_MAX_CANDIDATES = 8


def word97_fibs(data: bytes) -> Iterator[int]:
    """Where a Word 97 or later FIB starts in ``data``, at a sector or mini sector."""
    return stream_starts(data, _starts_with_fib)


def _starts_with_fib(data: bytes, at: int) -> bool:
    return data.startswith(_FIB_ID, at) and at + 34 <= len(data) \
        and struct.unpack_from("<H", data, at + 2)[0] >= _WORD97_NFIB \
        and _FIB_FIELD_COUNT.unpack_from(data, at + 32)[0] == 14


def _table_stream(sectors: SurvivingSectors, word: bytes) -> WordStreams | None:
    """The table stream whose piece table the FIB in ``word`` describes, found by that
    piece table: its mark and length as the FIB gives them, then character position 0,
    mapping every story. Where the table stream begins is the piece table's place less the
    FIB's offset of it; a stream that cannot be followed back there (its chain lost with
    the cut) gives its piece table alone."""
    clx_at, clx_length = struct.unpack_from("<II", word, CLX_FIELDS)
    stories = sum(max(length, 0) for length in
                  _STORY_LENGTHS.unpack_from(word, _STORY_LENGTHS_AT))
    data = sectors.data
    if clx_length <= 9:
        return None
    # Word writes the piece table without property modifiers before it: the CLX is the
    # table's mark (2), its length, then the first character position, 0
    needle = b"\x02" + struct.pack("<I", clx_length - 5) + bytes(4)
    at = data.find(needle, sectors.size)
    for _attempt in range(_MAX_CANDIDATES):
        if at < 0:
            break
        clx = data[at : at + clx_length]
        start = at - clx_at
        # the whole stream, as far as the file holds it: the header and comment tables
        # may follow the piece table
        table = sectors.stream(start, len(data)) if start >= sectors.size else b""
        if table[clx_at : clx_at + clx_length] != clx:
            table = bytes(clx_at) + clx  # only the piece table is known
        try:
            pieces = piece_table(word, table)
        except (struct.error, ValueError):
            pieces = []
        if len(clx) == clx_length and pieces and pieces[0].start == 0 \
                and pieces[-1].end >= stories:
            return WordStreams(word, table, pieces)
        at = data.find(needle, at + 1)
    return None


def salvaged_streams(sectors: SurvivingSectors) -> tuple[WordStreams, int] | None:
    """The streams of a Word 97-2003 file cut short, as far as the file holds them, and
    how many characters its body has; None when no FIB and piece table are found."""
    data = sectors.data
    for at in islice(word97_fibs(data), _MAX_FIBS):
        word = sectors.stream(at, len(data))
        if len(word) < CLX_FIELDS + 8:
            continue
        flags = struct.unpack_from("<H", word, 0x0A)[0]
        if flags & _ENCRYPTED:
            continue  # its text is not readable without the password, nor its tables
        streams = _table_stream(sectors, word) or _text_run(word, flags)
        if streams is not None:
            return streams, max(_STORY_LENGTHS.unpack_from(word, _STORY_LENGTHS_AT)[0], 0)
    return None


def _text_run(word: bytes, flags: int) -> WordStreams | None:
    """The stories of a file whose table stream was lost too, read as one run of text
    from where the FIB says it starts: as Word lays a document out that was not saved
    fast, 8-bit when the bytes the FIB gives it are fewer than two a character, up to the
    first character no story holds (the bytes after the text). None for a file saved
    fast, whose pieces only the lost piece table places."""
    if flags & _COMPLEX:
        return None
    first, last = _TEXT_BOUNDS.unpack_from(word, _TEXT_BOUNDS_AT)
    length = sum(max(count, 0) for count in _STORY_LENGTHS.unpack_from(word, _STORY_LENGTHS_AT))
    if not 0 < first < last or not length:
        return None
    compressed = last - first < 2 * length
    text = word[first : first + (1 if compressed else 2) * length]
    characters = text.decode("cp1252" if compressed else "utf-16-le", "replace")
    readable = next((at for at, character in enumerate(characters)
                     if not _in_a_story(character)), len(characters))
    if not readable:
        return None
    return WordStreams(word, b"", [Piece(0, readable, first, compressed)])


def _in_a_story(character: str) -> bool:
    """Whether a story may hold ``character``: no other control character, no surrogate
    or private use character, none the decoding could not map."""
    code = ord(character)
    if code < 0x20:
        return character in _STORY_MARKS
    return not (0xD800 <= code < 0xF900 or code == 0xFFFD)


class Word97SalvageParser(BaseEngine):
    """The stories of a Word 97-2003 file cut short, which no reader of compound files
    opens: its directory lost, or its streams' sectors."""

    name = "office.doc_salvage"
    formats = (fmt.DOC,)
    priority = 10

    def open(self, source: Source, config: Config) -> TextDocument:
        found = salvaged_streams(surviving_sectors(source))
        if found is None:
            raise CorruptDocument("no Word 97 text stream and piece table survive in the "
                                  "damaged file", file=source.display_name)
        streams, body_length = found
        page = word97_page(self.name, streams, config, [], document_stories(streams) or {})
        if not page.text.strip():
            raise CorruptDocument("no text survives in the damaged file", file=source.display_name)
        document = TextDocument([page.build()], metadata={"salvaged": True})
        held = _held_characters(streams, body_length)
        document.left_out = (
            f"the compound file is cut short: {held:,} of the body's {body_length:,} "
            "characters survive in its WordDocument stream and were read; what followed "
            "the cut (text, notes, headers, properties, embedded objects) is lost")
        return document


def _held_characters(streams: WordStreams, body_length: int) -> int:
    """How many of the body's characters the surviving WordDocument bytes hold."""
    held = 0
    for piece in streams.pieces:
        if piece.start >= body_length:
            break
        wanted = min(piece.end, body_length) - piece.start
        width = 1 if piece.compressed else 2
        available = max(0, (len(streams.word) - piece.offset) // width)
        held += min(wanted, available)
    return held
