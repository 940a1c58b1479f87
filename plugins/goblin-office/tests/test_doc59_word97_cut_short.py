"""Word 97-2003 files cut short (a download or a copy that stopped).

Word and LibreOffice write a compound file's allocation tables and directory after its
streams, so a .doc cut short has lost its directory: olefile, antiword, catdoc and
LibreOffice all refused it, and the document failed whole, its text still in the file.
A file whose directory survived but whose streams were cut failed the same way. Such a
file is now read by ``office.doc_salvage``: the WordDocument stream is found by its FIB
and the piece table by its own structure, the text before the cut is read, and the
document counts as read in part (a ``Truncated`` warning saying how much of the body
survived, exit status 1). A .doc cut short that has no name, or a name saying nothing,
is still known by its FIB.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from packages import compound_file
from test_doc59_cli import assert_read_in_part

from goblin_core import CorruptDocument, Document
from goblin_core.config import Config
from goblin_core.source import Source
from goblin_core.testing.corpus import corpus_dir, require_binary
from goblin_office.wordsalvage import Word97SalvageParser

Read = Callable[..., Document]

_TEXT_AT = 2048
_BODY = "".join(f"Parágrafo número {n} do relatório anual.\r" for n in range(200))


@pytest.fixture(autouse=True)
def antiword() -> str:
    # the whole files are read by antiword, as the salvage engine leaves them
    return require_binary("antiword", "antiword")


def _word97(body: str) -> bytes:
    """A Word 97 file of one story in UTF-16, one piece, its FIB as Word writes it (the
    count of its 16-bit fields, the text's bounds); the compound file holds its
    allocation table and directory first, so a cut leaves them and loses the stream."""
    word = bytearray(_TEXT_AT) + body.encode("utf-16-le")
    struct.pack_into("<HH", word, 0, 0xA5EC, 0xC1)  # wIdent, nFib of Word 97
    struct.pack_into("<H", word, 0x0A, 0x0200)  # the table stream is 1Table
    struct.pack_into("<II", word, 0x18, _TEXT_AT, _TEXT_AT + 2 * len(body))  # fcMin, fcMac
    struct.pack_into("<H", word, 0x20, 14)  # csw
    struct.pack_into("<8i", word, 0x4C, len(body), *[0] * 7)
    plc = struct.pack("<2i", 0, len(body)) + struct.pack("<HIH", 0, _TEXT_AT, 0)
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    struct.pack_into("<II", word, 0x1A2, 0, len(clx))  # fcClx, lcbClx
    return compound_file({"1Table": clx, "WordDocument": bytes(word)})


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_a_file_whose_stream_was_cut_keeps_the_text_before_the_cut(read: Read) -> None:
    whole = _word97(_BODY)
    document = read(whole[: len(whole) // 2], "relatorio.doc")
    assert document.parsed_by == ("office.doc_salvage",)
    lines = document.text.splitlines()
    assert lines[0] == "Parágrafo número 0 do relatório anual."
    assert len(lines) > 50
    assert _BODY.replace("\r", "\n").startswith(document.text.rsplit("\n", 1)[0])
    (message,) = _truncated(document)
    assert "cut short" in message and f"of the body's {len(_BODY):,} characters" in message


def test_the_whole_file_is_left_to_antiword(read: Read) -> None:
    whole = _word97(_BODY)
    document = read(whole, "relatorio.doc")
    assert document.parsed_by == ("office.antiword",)
    assert not document.report.warnings
    with pytest.raises(CorruptDocument, match="nothing to salvage"):
        Word97SalvageParser().open(Source.from_bytes(whole, "relatorio.doc"), Config({}))


def test_a_file_that_lost_its_text_stream_still_fails(read: Read) -> None:
    whole = _word97(_BODY)
    cut = whole[: whole.index(b"\xec\xa5")]  # before the WordDocument stream
    with pytest.raises(CorruptDocument, match="no Word 97 text stream"):
        Word97SalvageParser().open(Source.from_bytes(cut, "relatorio.doc"), Config({}))


def _corpus_doc(name: str) -> bytes:
    return (corpus_dir(__file__) / "office" / name).read_bytes()


def test_a_word_file_that_lost_its_directory_is_read_up_to_the_cut(read: Read) -> None:
    whole = _corpus_doc("tika-testWORD.doc")  # its directory and FAT come last
    document = read(whole[: len(whole) * 3 // 4], "testWORD.doc")
    assert document.parsed_by == ("office.doc_salvage",)
    assert "This is the footer for our document" in document.text
    assert "That’s it!" in document.text
    assert document.report.truncated


def test_a_word_file_that_lost_its_table_stream_keeps_its_body(read: Read) -> None:
    # cut before the table stream: the body is read from where the FIB says it starts
    whole = _corpus_doc("tika-testWORD.doc")
    document = read(whole[: len(whole) // 4], "testWORD.doc")
    assert document.parsed_by == ("office.doc_salvage",)
    assert "That’s it!" in document.text
    assert "\ufffd" not in document.text
    assert document.report.truncated


def test_a_cut_file_without_a_name_is_known_by_its_fib(read: Read) -> None:
    whole = _corpus_doc("tika-testWORD.doc")
    document = read(whole[: len(whole) * 3 // 4], "documento")
    assert document.mime == "application/msword"
    assert "That’s it!" in document.text


def test_the_command_line_exits_1_for_a_cut_file(tmp_path: Path) -> None:
    whole = _word97(_BODY)
    assert_read_in_part(tmp_path / "relatorio.doc", whole[: len(whole) // 2],
                        "Parágrafo número 0 do relatório anual.")
