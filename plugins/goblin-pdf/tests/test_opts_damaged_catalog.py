"""A catalog that is no dictionary at all keeps the pages around it.

When the catalog object's bytes are overwritten (null, a number, an array, bytes that do
not parse), PDFium and qpdf both refuse the file and pypdf finds no root: no reader gave
a word of it, though every page object is whole. The pages are gathered from the file's
objects, as for a catalog that names no page tree.
"""

from __future__ import annotations

import re

import pytest
from pdf_builders import reportlab_pdf

from goblin_core import extract

LINES = ("The harbour authority approved the dredging budget.",)


def _catalog_replaced(body: bytes) -> bytes:
    """The three-page reportlab PDF with its catalog's dictionary replaced by ``body``,
    padded to the same length so the cross-reference table stays right."""
    data = reportlab_pdf(LINES, pages=3)
    found = re.search(rb"(\d+ 0 obj\s*)(<<[^>]*/Type /Catalog[^>]*>>)", data)
    assert found is not None
    assert len(body) <= len(found[2])
    return data.replace(found[2], body.ljust(len(found[2])), 1)


@pytest.mark.parametrize("body", [b"null", b"42", b"[/Catalog 7 0 R]", b"\x01\x02 garbage"],
                         ids=["null", "a-number", "an-array", "bytes-that-do-not-parse"])
def test_pages_around_a_catalog_past_reading_are_all_read(body: bytes) -> None:
    document = extract(_catalog_replaced(body), name="report.pdf", ocr="never")
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert all("harbour authority" in page.text for page in document.pages)
    assert any(w.kind == "CorruptDocument" and "catalog cannot be read" in w.message
               and "3 page(s)" in w.message for w in document.report.warnings), \
        document.report.warnings


@pytest.mark.parametrize("body", [b"null", b"<< /Type /Catalog /Pages 1 0 R >>"],
                         ids=["catalog-past-reading", "catalog-naming-no-page-tree"])
def test_pages_gathered_keep_the_documents_own_information(body: bytes) -> None:
    """The gathered copy is written anew: the file's information dictionary goes with it,
    and the library that wrote the copy is not given as the document's producer."""
    document = extract(_catalog_replaced(body), name="report.pdf", ocr="never")
    assert [page.number for page in document.pages] == [1, 2, 3]
    metadata = document.raw_metadata
    assert metadata["producer"].startswith("ReportLab"), metadata
    assert metadata["title"] == "untitled" and metadata["author"] == "anonymous"
    assert metadata["created"] == metadata["modified"]
    assert metadata["Trapped"] == "False"


def _catalog_with_outline_and_annex() -> bytes:
    """Three pages, a bookmark to the third and an embedded ``annex.txt``, with the
    catalog's /Pages naming the font dictionary (same length, the cross-reference table
    stays right)."""
    import pikepdf
    from pdf_builders import helvetica_pages, saved
    from pikepdf import Array, Dictionary, Name, String

    pdf = helvetica_pages(*[f"BT /F1 12 Tf 72 700 Td (Body of page {n}) Tj ET" for n in (1, 2, 3)])
    bookmark = pdf.make_indirect(Dictionary(Title=String("Chapter three"),
                                            Dest=Array([pdf.pages[2].obj, Name.Fit])))
    outline = pdf.make_indirect(Dictionary(Type=Name.Outlines, First=bookmark, Last=bookmark))
    bookmark.Parent = outline
    pdf.Root.Outlines = outline
    annex = pikepdf.Stream(pdf, b"Annex: the price is 1,000 EUR.")
    annex.Type = Name.EmbeddedFile
    specification = pdf.make_indirect(Dictionary(Type=Name.Filespec, F=String("annex.txt"),
                                                 EF=Dictionary(F=annex)))
    pdf.Root.Names = Dictionary(EmbeddedFiles=Dictionary(Names=Array([String("annex.txt"),
                                                                      specification])))
    data = saved(pdf)
    font = re.search(rb"(\d+) 0 obj\s*<<[^>]*/BaseFont", data)
    pages = re.search(rb"/Pages \d+ 0 R", data)
    assert font is not None and pages is not None
    return data.replace(pages[0], f"/Pages {font[1].decode()} 0 R".encode().ljust(len(pages[0])))


def test_pages_gathered_keep_the_catalogs_outline_and_embedded_files() -> None:
    document = extract(_catalog_with_outline_and_annex(), name="report.pdf", ocr="never")
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert document.raw_metadata["outline"] == [
        {"level": 0, "title": "Chapter three", "page": 3}]
    assert document.text.endswith("Chapter three")
    assert [(child.name, child.text) for child in document.children] == [
        ("report.pdf/annex.txt", "Annex: the price is 1,000 EUR.")]
