"""A PDF whose page tree holds no page is whole: PDFium reads it, its page count is 0,
and the report says it has no pages rather than that PDFium could not open it."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from pdf_builders import saved

from goblin_core import extract


def _no_pages(password: str = "") -> bytes:
    pdf = pikepdf.new()
    pdf.docinfo["/Title"] = "An empty binder"
    if not password:
        return saved(pdf)
    out = io.BytesIO()
    pdf.save(out, encryption=pikepdf.Encryption(user=password, owner=password + "!"))
    return out.getvalue()


@pytest.mark.parametrize("from_file", [False, True])
def test_a_pdf_of_no_pages_is_read_by_pdfium_with_a_count_of_none(tmp_path: Path,
                                                                  from_file: bool) -> None:
    data = _no_pages()
    source: bytes | Path = data
    if from_file:
        source = tmp_path / "binder.pdf"
        source.write_bytes(data)
    document = extract(source, name="binder.pdf")
    assert document.parsed_by == ("pdf.pypdfium2",)
    assert document.pages == ()
    assert document.metadata["page_count"] == 0
    assert document.metadata["title"] == "An empty binder"
    assert document.status == "clean"
    assert [w.kind for w in document.report.warnings] == ["NoPages"]
    assert "no pages" in document.report.warnings[0].message
    assert not any("cannot open" in w.message for w in document.report.warnings)


def test_an_encrypted_pdf_of_no_pages_opens_with_its_password() -> None:
    document = extract(_no_pages("secret"), name="binder.pdf", password="secret")
    assert document.parsed_by == ("pdf.pypdfium2",)
    assert document.metadata["page_count"] == 0
    assert [w.kind for w in document.report.warnings] == ["NoPages"]
