"""An RTF cut short: text lost when the cut fell inside the text, nothing when only its
closing braces are missing.

A file that ends inside open groups keeps its ``CorruptDocument`` warning either way. When
it ends in the middle of a word, at a control word that ends no paragraph, just after a
group opened, or inside a group apart from the body (a note, the font table, a picture),
the text after the cut is lost: a ``Truncated`` warning, the document read in part (exit
status 1). Ending after a paragraph's end with its braces missing, or inside the data
store Word writes after the body, loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from goblin_core import Document
from goblin_core.cli import cli

Read = Callable[..., Document]

_WHOLE = (rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 Primeiro par\'e1grafo.\par "
          rb"{\b Segundo par\'e1grafo} em negrito.\par {\footnote Nota.\par}Fim do texto.\par}")


def _before(marker: bytes, extra: int = 0) -> bytes:
    return _WHOLE[: _WHOLE.index(marker) + extra]


_LOST = {
    "mid-word": _before(b"negrito", 3),
    "after-a-run-group-mid-sentence": _before(b" em negrito"),
    "mid-control-word": _before(b"negrito.\\par", len(b"negrito.\\pa")),
    "group-just-opened": _before(b"{\\b", 1),
    "inside-a-footnote": _before(b"Nota.\\par", len(b"Nota.\\par")),
    "inside-the-font-table": _before(b"Arial;}", len(b"Arial;}")),
    "inside-a-picture": _WHOLE[:-1] + rb"{\pict\pngblip 89504e470d0a",
    "lone-backslash": _before(b"Fim") + b"\\",
}
_KEPT = {
    "final-brace-missing": _WHOLE[:-1],
    "after-a-paragraph-end": _before(b"negrito.\\par", len(b"negrito.\\par")),
    "after-an-escaped-line-end": _before(b"negrito.", len(b"negrito.")) + b"\\\r\n",
    "inside-the-data-store": _WHOLE[:-1] + rb"{\*\datastore 010500000200000018000000",
}


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def _cut_warned(document: Document) -> bool:
    return any(w.kind == "CorruptDocument" and "open group" in w.message
               for w in document.report.warnings)


@pytest.mark.parametrize("data", _LOST.values(), ids=_LOST.keys())
def test_an_rtf_cut_inside_its_content_is_read_in_part(read: Read, data: bytes) -> None:
    document = read(data, "cortado.rtf")
    assert _cut_warned(document)
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "cut short" in message


@pytest.mark.parametrize("data", _KEPT.values(), ids=_KEPT.keys())
def test_an_rtf_missing_only_its_closing_braces_loses_nothing(read: Read, data: bytes) -> None:
    document = read(data, "cortado.rtf")
    assert "Segundo parágrafo em negrito." in document.text
    assert _cut_warned(document)
    assert not document.report.truncated


def test_the_whole_rtf_is_clean(read: Read) -> None:
    document = read(_WHOLE, "inteiro.rtf")
    assert "Fim do texto." in document.text
    assert not _cut_warned(document) and not document.report.truncated


def test_an_rtf_cut_mid_word_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "cortado.rtf"
    path.write_bytes(_LOST["mid-word"])
    result = CliRunner().invoke(cli, ["extract", str(path), "--ocr", "never"])
    assert "Segundo parágrafo em neg" in result.stdout
    assert result.exit_code == 1
    assert "Truncated" in result.stderr


def test_a_line_end_before_an_ignorable_destination_keeps_it_out_of_the_text(
    read: Read,
) -> None:
    # Word wraps its lines anywhere, between a group's brace and its \* too; the style
    # names of \latentstyles and the generator's name were read as text
    data = (b"{\\rtf1\\ansi Antes.\\par {\r\n\\*\\latentstyles\\lsdstimax267 Normal;heading 1;}"
            b"{\n\\*\\generator Writer 7;}Depois.\\par}")
    document = read(data, "quebrado.rtf")
    assert document.text.split() == ["Antes.", "Depois."]


def test_nul_padding_after_the_document_is_no_part_of_it(read: Read) -> None:
    # a decompressed RTF body or a zero-filled copy: the NULs after the closing brace
    # were read as body text, and the file refused as binary
    document = read(_WHOLE + b"\x00" * 64, "preenchido.rtf")
    assert document.text.split() == read(_WHOLE, "inteiro.rtf").text.split()
    assert not document.report.warnings


def test_nul_padding_with_line_ends_after_the_document_is_no_part_of_it(read: Read) -> None:
    document = read(_WHOLE + b"\r\n" + b"\x00" * 64 + b"\r\n", "preenchido.rtf")
    assert "Fim do texto." in document.text
    assert not document.report.warnings


def test_nul_padding_after_a_cut_keeps_the_text_before(read: Read) -> None:
    document = read(_before(b"Fim") + b"\x00" * 64, "zerado.rtf")
    assert "Segundo parágrafo em negrito." in document.text
    assert _cut_warned(document)
