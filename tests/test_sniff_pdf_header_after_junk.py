"""A PDF header after junk makes a PDF only when the PDF follows it.

PDFium finds a header anywhere in a file's first 1024 bytes, so a PDF saved behind a
few lines of junk (a download's HTTP headers, a banner) is a PDF. Any file that merely
mentions "%PDF-1.7" near its start was taken for one too, and failed whole: notes on
file formats, a mail asking about a header, source code writing one.
"""

from __future__ import annotations

import pytest

from goblin_core import Source, extract, load_registry
from goblin_core.builtin.sniffer import MagicSniffer
from goblin_core.detect import detect

CORE_ONLY = load_registry(load=[])

PDF_START = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("formats.txt", b"Notes on formats\n\nEvery PDF starts with a line such as %PDF-1.7 "
                        b"and ends with %%EOF; the objects sit between them.\n"),
        ("formats.md", b"# PDF\n\nThe header:\n\n```\n%PDF-1.4\n```\n\nthen the body.\n"),
        ("question.eml", b"From: ana@example.org\nTo: it@example.org\nSubject: header\n"
                         b"Date: Mon, 1 Jan 2024 10:00:00 +0000\n\n"
                         b"Why does my file start with %PDF-1.5 and not open?\n"),
        ("make_pdf.py", b'"""Writes a tiny PDF."""\n\nHEADER = b"%PDF-1.4\\n"\nprint(HEADER)\n'),
    ],
    ids=["notes", "markdown", "mail", "python"],
)
def test_text_that_mentions_a_pdf_header_is_not_a_pdf(name: str, data: bytes) -> None:
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, name))
    assert found.mime != "application/pdf"


def test_a_note_mentioning_the_header_is_read_as_text() -> None:
    note = b"Every PDF starts with a line such as %PDF-1.7 and ends with %%EOF.\n"
    assert extract(note, name="note.txt", registry=CORE_ONLY).text.strip() == note.decode().strip()


@pytest.mark.parametrize(
    "junk",
    [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n",
        b"x" * 1000,
        b"\x01\x02\x03\x04" * 200 + b"\n",
    ],
    ids=["http-headers", "1000-bytes", "binary"],
)
def test_a_pdf_behind_junk_is_still_a_pdf(junk: bytes) -> None:
    data = junk + PDF_START
    found = MagicSniffer().sniff(data, Source.from_bytes(data, "download"))
    assert found is not None and found.mime == "application/pdf"
