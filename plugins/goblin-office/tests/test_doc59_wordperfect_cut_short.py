"""WordPerfect files cut short (a download or a copy that stopped).

wpd2text prints what it read before the cut and exits 0, as for a whole file, so a cut
document read as clean (exit status 0), and one cut inside a function code (an accented
letter) ended with a stray character libwpd made of the code's first bytes. The cut is
now found where the file says it: a WordPerfect 6.1 or later header gives the file's
size, and a 5.x file cut inside a function code ends before the code's size does. The
text before the cut is kept, without the broken code, and the document counts as read in
part (a ``Truncated`` warning, exit status 1).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from test_doc59_cli import assert_read_in_part

from goblin_core import Document
from goblin_core.testing.corpus import require_binary
from samples import wordperfect51

Read = Callable[..., Document]

_PARAGRAPHS = ("Primeiro parágrafo do edital.", "Segundo parágrafo com acentuação.",
               "Terceiro e último.")
# a variable-length function (code, subgroup, size, data, size, subgroup, code) of a
# group libwpd skips, between the first two paragraphs
_GROUP = bytes([0xD5, 0x00, 0x04, 0x00, 0x04, 0x00, 0x00, 0xD5])


@pytest.fixture(autouse=True)
def wpd2text() -> str:
    return require_binary("wpd2text", "libwpd-tools")


def _wordperfect61(*paragraphs: str) -> bytes:
    """A WordPerfect 6.1 document: the prefix (product 1, file type 10, version 2.1), its
    index header pointer and file size, an index header of no indexes, then the text: a
    soft space 0x80 between words, a hard end of line 0xCC after each paragraph."""
    text = b"".join(p.encode("ascii").replace(b" ", b"\x80") + b"\xcc" for p in paragraphs)
    index = bytes([2, 0, 0, 0]) + bytes(10)
    start = 32 + len(index)
    prefix = b"\xffWPC" + struct.pack("<I", start) + bytes([1, 10, 2, 1, 0, 0])
    prefix += struct.pack("<H", 32) + bytes(4) + struct.pack("<I", start + len(text)) + bytes(8)
    return prefix + index + text


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_whole_documents_read_clean(read: Read) -> None:
    for data in (wordperfect51(*_PARAGRAPHS),
                 wordperfect51(*_PARAGRAPHS).replace(b"Segundo", _GROUP + b"Segundo"),
                 _wordperfect61("First paragraph here.", "Second one.")):
        document = read(data, "edital.wpd")
        assert document.status == "clean", document.report.warnings
        assert not document.report.warnings


def test_a_51_file_cut_inside_an_accented_letter_keeps_the_text_before_it(read: Read) -> None:
    whole = wordperfect51(*_PARAGRAPHS)
    accent = whole.index(b"\xc0", whole.index(b"acentua"))
    document = read(whole[: accent + 2], "edital.wpd")
    assert document.text.splitlines() == ["Primeiro parágrafo do edital.",
                                          "Segundo parágrafo com acentua"]
    (message,) = _truncated(document)
    assert "function code" in message and "cut short" in message


def test_a_51_file_cut_inside_a_variable_length_function_is_read_in_part(read: Read) -> None:
    whole = wordperfect51(*_PARAGRAPHS).replace(b"Segundo", _GROUP + b"Segundo")
    for size in (2, 5):  # inside the code's size, and inside its data
        document = read(whole[: whole.index(_GROUP) + size], "edital.wpd")
        assert document.text.strip() == "Primeiro parágrafo do edital."
        assert document.report.truncated


def test_a_61_file_shorter_than_its_header_says_is_read_in_part(read: Read) -> None:
    whole = _wordperfect61("First paragraph here.", "Second one.", "Third and last.")
    document = read(whole[: whole.index(b"Second") + 3], "edital.wpd")
    assert document.text.splitlines()[0] == "First paragraph here."
    (message,) = _truncated(document)
    assert f"{len(whole):,} bytes" in message


def test_the_command_line_exits_1_for_a_cut_file(tmp_path: Path) -> None:
    whole = wordperfect51(*_PARAGRAPHS)
    assert_read_in_part(tmp_path / "edital.wpd",
                        whole[: whole.index(b"\xc0", whole.index(b"acentua")) + 1],
                        "Primeiro parágrafo do edital.")
