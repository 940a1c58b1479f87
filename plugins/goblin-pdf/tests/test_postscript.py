"""PostScript and EPS read through the PDF Ghostscript writes of them, under the limits."""

from __future__ import annotations

import struct
import time
from pathlib import Path

import pytest

from goblin_core import extract
from goblin_core.errors import CorruptDocument, FileTooLarge
from goblin_core.testing.corpus import require_binary

REPORT = b"""%!PS-Adobe-3.0
%%Title: Relat\xc3\xb3rio anual
%%Creator: goblin tests
%%For: Ana Souza
%%CreationDate: Mon Mar 11 10:00:00 2024
%%Pages: 2
%%EndComments
%%Page: 1 1
/Helvetica findfont 14 scalefont setfont
72 720 moveto (First page of the PostScript report) show
showpage
%%Page: 2 2
/Times-Roman findfont 14 scalefont setfont
72 720 moveto (Second page says goodbye) show
showpage
%%EOF
"""

EPS = b"""%!PS-Adobe-3.0 EPSF-3.0
%%BoundingBox: 0 0 300 60
/Helvetica findfont 18 scalefont setfont
10 20 moveto (Figure label inside an EPS) show
"""


@pytest.fixture(autouse=True)
def _ghostscript() -> None:
    require_binary("gs", "ghostscript")


def test_a_postscript_program_is_read_page_by_page_with_its_own_header() -> None:
    document = extract(REPORT, name="relatorio.ps", ocr="never")
    assert document.mime == "application/postscript"
    assert [(p.number, p.engine, p.status, p.text) for p in document.pages] == [
        (1, "pdf.ghostscript", "clean", "First page of the PostScript report"),
        (2, "pdf.ghostscript", "clean", "Second page says goodbye")]
    # the header comments, not what the conversion wrote (its date, "GPL Ghostscript")
    assert document.metadata["title"] == "Relat\u00f3rio anual"
    assert document.metadata["author"] == "Ana Souza"
    assert document.metadata["created"] == "2024-03-11T10:00:00"
    assert "producer" not in document.raw_metadata
    assert document.raw_metadata["converted_by"] == "Ghostscript"


def test_the_program_s_text_is_what_it_draws_not_its_source() -> None:
    # named nothing: the content says PostScript, where it was read as plain text before
    document = extract(REPORT, name="report", ocr="never")
    assert "showpage" not in document.text and "findfont" not in document.text
    assert "Second page says goodbye" in document.text


def test_an_eps_figure_and_one_with_a_dos_header_are_read() -> None:
    assert extract(EPS, name="figura.eps", ocr="never").text == "Figure label inside an EPS"
    # the DOS EPS header: magic, PostScript offset and length, no previews, no checksum
    dos = struct.pack("<4sIIIIIIH", b"\xc5\xd0\xd3\xc6", 30, len(EPS), 0, 0, 0, 0, 0xFFFF)
    document = extract(dos + EPS, name="figura-dos.eps", ocr="never")
    assert document.mime == "application/postscript"
    assert document.text == "Figure label inside an EPS"


def test_a_program_that_never_ends_is_stopped_at_the_time_limit() -> None:
    started = time.monotonic()
    with pytest.raises(CorruptDocument, match=r"Ghostscript ran the PostScript program longer "
                                              r"than limits\.timeout"):
        extract(b"%!PS\n{ } loop\n", name="loop.ps", ocr="never", timeout=3)
    assert time.monotonic() - started < 20


def test_a_program_that_draws_without_end_is_stopped_at_the_file_size_limit() -> None:
    program = (b"%!PS\n/Helvetica findfont 10 scalefont setfont\n"
               b"1 1 100000 { 72 720 moveto 20 string cvs show showpage } for\n")
    started = time.monotonic()
    with pytest.raises(FileTooLarge, match=r"past limits\.max_file_size"):
        extract(program, name="endless.ps", ocr="never", max_file_size="256KB")
    assert time.monotonic() - started < 60


def test_a_broken_program_names_ghostscript_s_error() -> None:
    with pytest.raises(CorruptDocument, match=r"Ghostscript cannot run it as PostScript "
                                              r"\(exit 1: Error: /syntaxerror"):
        extract(b"%!PS\n72 720 moveto (never closed\n", name="broken.ps", ocr="never")


def test_ghostscript_missing_makes_the_engine_unavailable_with_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from goblin_pdf.postscript import PostScriptParser

    monkeypatch.setenv("PATH", "")
    ok, reason = PostScriptParser().available()
    assert not ok and "apt-get install ghostscript" in reason


def test_a_program_opens_no_file_outside_its_private_folder(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-LINE\n")
    escaped = tmp_path / "escaped.txt"
    reads = (b"%!PS\n/f (" + str(secret).encode() + b") (r) file def /b 64 string def\n"
             b"/Helvetica findfont 10 scalefont setfont 72 720 moveto f b readline pop show "
             b"showpage\n")
    with pytest.raises(CorruptDocument, match="invalidfileaccess"):
        extract(reads, name="reads.ps", ocr="never")
    # -dSAFER alone lets a program write in the system's temporary folder, this test's
    # folder included
    writes = (b"%!PS\n/o (" + str(escaped).encode() + b") (w) file def o (x) writestring "
              b"o closefile\n/Helvetica findfont 10 scalefont setfont 72 720 moveto (wrote) "
              b"show showpage\n")
    with pytest.raises(CorruptDocument, match="invalidfileaccess"):
        extract(writes, name="writes.ps", ocr="never")
    assert not escaped.exists()
