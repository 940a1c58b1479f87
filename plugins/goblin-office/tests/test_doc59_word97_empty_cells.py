"""Word 97-2003 table rows with an empty cell, read from the piece table.

The piece-table reader (for the files antiword refuses, and for what survives of a file
cut short) took two cell marks in a row for a cell's end and its row's end: a row's end
mark and an empty cell's are the same character (\\x07). A row with an empty cell was
split there into two lines (``A2`` / ``C2``) and its cells lost their columns. The row
ends are now told by their paragraphs' properties (sprmPFTtp), so the empty cell keeps
its place (``A2\\t\\tC2``).
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from packages import compound_file

from goblin_core import Document
from goblin_office.wordbinary import document_stories

Read = Callable[..., Document]

_TEXT_AT = 2048
_PAPX_PAGE = 2  # the paragraph property page, at byte 1024 of the WordDocument stream
# a row of three cells, the middle one empty, between two paragraphs: each paragraph
# (a cell's too) ends with its mark; the row's own mark ends the last
_PARAGRAPHS = ["Antes\r", "A2\x07", "\x07", "C2\x07", "\x07", "Depois\r"]
_ROW_END = 4  # the paragraph whose properties say it ends the row


def _word97_table() -> bytes:
    text = "".join(_PARAGRAPHS)
    word = bytearray(_TEXT_AT) + text.encode("utf-16-le")
    struct.pack_into("<HH", word, 0, 0xA5EC, 0xC1)  # wIdent, nFib of Word 97
    struct.pack_into("<H", word, 0x0A, 0x0200)  # the table stream is 1Table
    struct.pack_into("<H", word, 0x20, 14)  # csw
    struct.pack_into("<8i", word, 0x4C, len(text), *[0] * 7)
    # the paragraph property page: each paragraph's first byte, then one BxPap a
    # paragraph (its PAPX's offset in words; 0: none), the row end's PAPX at byte 400
    bounds = [_TEXT_AT]
    for paragraph in _PARAGRAPHS:
        bounds.append(bounds[-1] + 2 * len(paragraph))
    page = bytearray(512)
    struct.pack_into(f"<{len(bounds)}I", page, 0, *bounds)
    for index in range(len(_PARAGRAPHS)):
        page[4 * len(bounds) + 13 * index] = 200 if index == _ROW_END else 0
    # cb (the properties are 2 x cb - 1 bytes), the style, sprmPFInTable, sprmPFTtp
    page[400:409] = bytes([5]) + struct.pack("<HHBHB", 0, 0x2416, 1, 0x2417, 1)
    page[511] = len(_PARAGRAPHS)
    word[512 * _PAPX_PAGE : 512 * _PAPX_PAGE + 512] = page
    plc = struct.pack("<2i", 0, len(text)) + struct.pack("<HIH", 0, _TEXT_AT, 0)
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    papx_plc = struct.pack("<3I", bounds[0], bounds[-1], _PAPX_PAGE)
    struct.pack_into("<II", word, 0x1A2, 0, len(clx))  # fcClx, lcbClx
    struct.pack_into("<II", word, 0x9A + 8 * 13, len(clx), len(papx_plc))  # PlcBtePapx
    return compound_file({"WordDocument": bytes(word), "1Table": clx + papx_plc})


def test_an_empty_cell_keeps_its_column_in_the_piece_table_reading() -> None:
    assert document_stories(_word97_table()) == {"body": ["Antes", "A2\t\tC2", "Depois"]}


def test_a_file_cut_short_reads_its_row_whole(read: Read) -> None:
    # what survives of a file cut short is read from the piece table too
    whole = _word97_table()
    document = read(whole[: len(whole) - 1024], "tabela.doc")  # inside the table stream
    assert document.parsed_by == ("office.doc_salvage",)
    assert document.text.splitlines() == ["Antes", "A2\t\tC2", "Depois"]
