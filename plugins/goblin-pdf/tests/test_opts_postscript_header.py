"""A PostScript program's metadata is its own header's, never the conversion's.

DSC header values may be PostScript strings, escapes and all, as Adobe's printer driver
writes them (``%%Title: (Relat\\363rio)``); ``(atend)`` defers a value to the trailer.
A program that names no title must not take the one Ghostscript's XMP packet makes up
(``Untitled``), nor its producer and the time of the conversion.
"""

from __future__ import annotations

import pytest

from goblin_core import extract
from goblin_core.testing.corpus import require_binary

BODY = b"""%%EndComments
%%Page: 1 1
/Helvetica findfont 14 scalefont setfont
72 720 moveto (The program draws this sentence) show
showpage
%%Trailer
%%EOF
"""


@pytest.fixture(autouse=True)
def _ghostscript() -> None:
    require_binary("gs", "ghostscript")


def test_a_title_written_as_a_postscript_string_is_read_through_its_escapes() -> None:
    program = (b"%!PS-Adobe-3.0\n%%Title: (Relat\\363rio \\(vers\\343o final\\))\n"
               b"%%For: (Jo\\343o)\n%%Pages: (atend)\n" + BODY)
    document = extract(program, name="relatorio.ps", ocr="never")
    assert document.text == "The program draws this sentence"
    assert document.metadata["title"] == "Relatório (versão final)"
    assert document.metadata["author"] == "João"
    assert "Pages" not in document.raw_metadata


def test_a_program_naming_no_title_takes_none_from_the_conversion() -> None:
    program = b"%!PS-Adobe-3.0\n%%Creator: groff version 1.22.4\n" + BODY
    document = extract(program, name="manual.ps", ocr="never")
    assert document.text == "The program draws this sentence"
    assert "title" not in document.raw_metadata, document.raw_metadata
    assert "xmp" not in document.raw_metadata
    assert "producer" not in document.raw_metadata
    assert document.raw_metadata["creator"] == "groff version 1.22.4"
