r"""RTF footnotes and endnotes written as starred destinations (``{\*\footnote ...}``, as
LibreOffice writes them) read where and as Word's ``{\footnote ...}`` ones are: in place,
set off by spaces, endnotes (``\ftnalt``) too, and left out together when notes are."""

from __future__ import annotations

from pathlib import Path

from packages import libreoffice_saved

from goblin_core.testing.corpus import require_binary

_FLAT_ODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"
 office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>
<text:p>Corpo um<text:note text:id="n1" text:note-class="footnote">
<text:note-citation>1</text:note-citation><text:note-body><text:p>Texto do rodapé</text:p>
</text:note-body></text:note> depois.</text:p>
<text:p>Corpo dois<text:note text:id="n2" text:note-class="endnote">
<text:note-citation>i</text:note-citation><text:note-body><text:p>Nota final</text:p>
</text:note-body></text:note> fim.</text:p>
</office:text></office:body></office:document>
"""


def _rtf(note: bytes) -> bytes:
    return rb"{\rtf1\ansi\deff0{\fonttbl{\f0 Arial;}}\pard Corpo" + note + rb" depois\par}"


def test_a_footnote_in_a_starred_group_is_read_where_an_unstarred_one_is(read) -> None:  # type: ignore[no-untyped-def]
    starred = read(_rtf(rb"{\*\footnote\chftn\pard\plain Rodape}"), "nota.rtf").text
    plain = read(_rtf(rb"{\footnote\chftn\pard\plain Rodape}"), "nota.rtf").text
    assert starred == plain
    assert starred.split() == ["Corpo", "Rodape", "depois"]


def test_a_starred_footnote_in_a_superscript_group_is_read(read) -> None:  # type: ignore[no-untyped-def]
    note = rb"{\super\chftn{\*\footnote\chftn\pard\plain Rodape}}"
    assert read(_rtf(note), "sobrescrito.rtf").text.split() == ["Corpo", "Rodape", "depois"]


def test_a_starred_endnote_is_read_in_place(read) -> None:  # type: ignore[no-untyped-def]
    note = rb"{\super\chftn{\*\footnote\ftnalt\chftn\pard\plain Final}}"
    assert read(_rtf(note), "final.rtf").text.split() == ["Corpo", "Final", "depois"]


def test_starred_notes_are_left_out_with_notes_off(read) -> None:  # type: ignore[no-untyped-def]
    note = rb"{\*\footnote\chftn Rodape}{\*\footnote\ftnalt\chftn Final}"
    text = read(_rtf(note), "sem-notas.rtf", office={"notes": False}).text
    assert text.split() == ["Corpo", "depois"]


def test_libreoffice_footnotes_and_endnotes_are_read(read, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    soffice = require_binary("soffice", "libreoffice-writer-nogui")
    source = tmp_path / "notas.fodt"
    source.write_text(_FLAT_ODT, encoding="utf-8")
    data = libreoffice_saved(soffice, source, "rtf")
    assert rb"{\*\footnote" in data  # LibreOffice writes its notes starred
    lines = [line.split() for line in read(data, "notas.rtf").text.splitlines()]
    assert lines == [["Corpo", "um", "Texto", "do", "rodapé", "depois."],
                     ["Corpo", "dois", "Nota", "final", "fim."]]
