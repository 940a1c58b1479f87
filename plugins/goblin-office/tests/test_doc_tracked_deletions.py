"""Tracked deletions in Word 97-2003 files read as accepted, as a .docx's are.

Word marks deleted text with a character property (sprmCFRMarkDel) and keeps it in the
text stream. antiword prints it as the document's text (it knows only the older
revision marks), and so did the piece-table reading of short files: "Kept text
DELETEDWORDS INSERTEDWORDS" for a sentence whose accepted form is "Kept text
INSERTEDWORDS". The deleted characters are now blanked in a copy the readers are given.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from packages import compound_file, libreoffice_saved

from goblin_core import Document
from goblin_core.testing.corpus import require_binary
from goblin_office.wordbinary import document_stories, without_deletions

Read = Callable[..., Document]

_TEXT_AT = 2048
_FKP_PAGE = 8  # the character property page, at byte 4096


def _word97_with_deletion(before: str, deleted: str, after: str) -> bytes:
    """A Word 97 file whose body is before + deleted + after in UTF-16, the middle run
    marked deleted in a character property page (CHPX FKP)."""
    text = before + deleted + after
    word = bytearray(_FKP_PAGE * 512 + 512)
    encoded = text.encode("utf-16-le")
    word[_TEXT_AT : _TEXT_AT + len(encoded)] = encoded
    struct.pack_into("<HH", word, 0, 0xA5EC, 0xC1)  # wIdent, nFib of Word 97
    struct.pack_into("<H", word, 0x0A, 0x0200)  # the table stream is 1Table
    struct.pack_into("<8i", word, 0x4C, len(text), 0, 0, 0, 0, 0, 0, 0)
    plc = struct.pack("<2i", 0, len(text)) + struct.pack("<HIH", 0, _TEXT_AT, 0)
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    struct.pack_into("<II", word, 0x1A2, 0, len(clx))  # fcClx, lcbClx
    start = _TEXT_AT + 2 * len(before)
    end = start + 2 * len(deleted)
    # three runs: plain, deleted (sprmCFRMarkDel 1), plain
    fkp = bytearray(512)
    bounds = (_TEXT_AT, start, end, _TEXT_AT + len(encoded))
    struct.pack_into("<4I", fkp, 0, *bounds)
    chpx_at = 400
    fkp[4 * 4 + 1] = chpx_at // 2
    fkp[chpx_at : chpx_at + 4] = bytes([3]) + struct.pack("<H", 0x0800) + b"\x01"
    fkp[511] = 3
    word[_FKP_PAGE * 512 :] = fkp
    bte = struct.pack("<2I", _TEXT_AT, _TEXT_AT + len(encoded)) + struct.pack("<I", _FKP_PAGE)
    struct.pack_into("<II", word, 0x9A + 12 * 8, len(clx), len(bte))  # fcPlcfBteChpx
    return compound_file({"WordDocument": bytes(word), "1Table": clx + bte})


def test_deleted_runs_are_left_out_of_the_piece_table_reading() -> None:
    data = _word97_with_deletion("Kept text ", "GONE WORDS ", "new words.\r")
    assert document_stories(data) == {"body": ["Kept text GONE WORDS new words."]}
    accepted = without_deletions(data)
    assert accepted is not None
    assert document_stories(accepted) == {"body": ["Kept text new words."]}


def test_a_deleted_paragraph_mark_joins_the_paragraphs_and_table_marks_stay() -> None:
    data = _word97_with_deletion("Um\x07Dois\x07\x07Primeiro", " trecho\r", "segundo.\r")
    accepted = without_deletions(data)
    assert accepted is not None
    assert document_stories(accepted) == {"body": ["Um\tDois", "Primeirosegundo."]}


def test_a_file_without_deletions_is_read_as_it_is() -> None:
    plain = _word97_with_deletion("Nada ", "", "apagado.\r")
    assert without_deletions(plain) is None
    assert without_deletions(b"not a compound file at all") is None


def _converted_doc(tmp_path: Path, filler: int) -> bytes:
    """A .doc LibreOffice saves from a .docx holding a tracked deletion and insertion,
    after ``filler`` paragraphs (antiword refuses a file of a few paragraphs)."""
    soffice = require_binary("soffice", "libreoffice-writer-nogui")
    from packages import docx

    change = 'w:id="{}" w:author="Ana" w:date="2024-01-01T00:00:00Z"'
    body = (
        '<w:p><w:r><w:t xml:space="preserve">Texto mantido </w:t></w:r>'
        f'<w:del {change.format(1)}><w:r><w:delText xml:space="preserve">TRECHO APAGADO '
        f'</w:delText></w:r></w:del><w:ins {change.format(2)}><w:r><w:t>trecho novo'
        "</w:t></w:r></w:ins></w:p>"
        + "".join(f"<w:p><w:r><w:t>Parágrafo {i} de enchimento com algumas palavras."
                  "</w:t></w:r></w:p>" for i in range(filler))
    )
    source = tmp_path / "revisado.docx"
    source.write_bytes(docx(body))
    return libreoffice_saved(soffice, source, "doc")


@pytest.mark.parametrize(("filler", "engine"), [
    (0, "office.antiword"),  # refused by antiword: read from the piece table
    (60, "office.antiword"),
    (60, "office.catdoc"),
])
def test_a_doc_with_tracked_changes_reads_them_accepted(
    read: Read, tmp_path: Path, filler: int, engine: str
) -> None:
    require_binary("antiword", "antiword")
    require_binary("catdoc", "catdoc")
    data = _converted_doc(tmp_path, filler)
    off = {"office.antiword": {"enabled": False}} if engine == "office.catdoc" else {}
    document = read(data, "revisado.doc", engines=off)
    assert document.parsed_by == (engine,)
    first = document.text.splitlines()[0]
    assert "Texto mantido" in first and "trecho novo" in first
    assert "APAGADO" not in document.text
    if filler:
        assert "Parágrafo 59 de enchimento" in document.text
