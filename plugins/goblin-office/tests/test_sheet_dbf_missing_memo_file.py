"""A dBASE table whose memo file is not beside it is read in part, not clean.

A memo field holds only the number of a block in the memo file (.dbt, .fpt) kept beside
the table; without that file (copied alone, sent as bytes, pulled from an archive one
member at a time) dbfread reads every memo as empty, and the table read as clean with
the text of its notes gone.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from goblin_core import Document, extract

Read = Callable[..., Document]

_DBASE_III_WITH_MEMO = 0x83
_BLOCK = 512
_NOTES = [b"Vistoria feita em 3 de maio", b"", b"Pagamento em atraso"]


def _table(notes: list[bytes]) -> tuple[bytes, bytes]:
    """A table of a name and a memo field per record, and its dBASE III memo file: each
    note in a block of its own, a blank note pointing at none."""
    fields = [("NOME", b"C"), ("NOTA", b"M")]
    header_length = 32 + 32 * len(fields) + 1
    header = struct.pack("<BBBBIHH", _DBASE_III_WITH_MEMO, 124, 3, 15, len(notes),
                         header_length, 21) + bytes(17) + b"\x03" + bytes(2)
    descriptors = b"".join(name.encode().ljust(11, b"\0") + kind + bytes(4) + bytes([10, 0])
                           + bytes(14) for name, kind in fields)
    memo = bytearray(_BLOCK)
    records = b""
    for number, note in enumerate(notes, start=1):
        block = b""
        if note:
            block = str(len(memo) // _BLOCK).encode()
            memo += (note + b"\x1a\x1a").ljust(_BLOCK, b"\0")
        records += b" " + f"Cliente {number}".encode().ljust(10) + block.rjust(10)
    return header + descriptors + b"\r" + records + b"\x1a", bytes(memo)


def _notes(document: Document) -> list[str]:
    return [row[1] if len(row) > 1 else "" for row in document.tables[0].rows[1:]]


def test_a_table_beside_its_memo_file_reads_its_notes(tmp_path: Path) -> None:
    table, memo = _table(_NOTES)
    (tmp_path / "clientes.dbf").write_bytes(table)
    (tmp_path / "clientes.dbt").write_bytes(memo)
    document = extract(tmp_path / "clientes.dbf", ocr="never")
    assert _notes(document) == [note.decode() for note in _NOTES]
    assert not document.report.warnings and not document.report.truncated


def test_a_table_without_its_memo_file_says_its_notes_are_lost(tmp_path: Path) -> None:
    table, _ = _table(_NOTES)
    (tmp_path / "clientes.dbf").write_bytes(table)
    document = extract(tmp_path / "clientes.dbf", ocr="never")
    assert _notes(document) == ["", "", ""]
    assert [(w.kind, w.message) for w in document.report.warnings] == [
        ("CorruptDocument",
         "the table's memo file (.dbt or .fpt) is not beside it: its memo fields read as empty"),
        ("Truncated", "the text of 2 memos (field NOTA) is lost")]
    assert document.report.truncated


def test_a_table_read_from_bytes_says_its_notes_are_lost(read: Read) -> None:
    table, _ = _table(_NOTES)
    document = read(table, "clientes.dbf")
    assert document.report.truncated
    assert "the text of 2 memos (field NOTA) is lost" in [
        w.message for w in document.report.warnings]


def test_a_table_whose_memos_are_all_blank_needs_no_memo_file(read: Read) -> None:
    table, _ = _table([b"", b""])
    document = read(table, "clientes.dbf")
    assert _notes(document) == ["", ""]
    assert [row[0] for row in document.tables[0].rows[1:]] == ["Cliente 1", "Cliente 2"]
    assert not document.report.warnings and not document.report.truncated
