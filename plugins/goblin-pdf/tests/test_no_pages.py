"""A PDF whose page tree holds no page is whole: PDFium reads it, its page count is 0,
and the report says it has no pages rather than that PDFium could not open it."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved

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


def _catalog_without_page_tree(pdf: pikepdf.Pdf) -> bytes:
    """``pdf`` saved with its catalog's /Pages key damaged (same length: every offset
    holds): the page tree and its pages are still in the file, named by no catalog."""
    data = saved(pdf)
    damaged, count = re.subn(rb"/Pages (\d+ \d+ R)", rb"/Pagez \1", data, count=1)
    assert count == 1
    return damaged


def test_pages_whose_catalog_lost_its_page_tree_are_read_in_their_trees_order() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (First page of the report) Tj ET",
                          "BT /F1 12 Tf 72 700 Td (Second page of the report) Tj ET")
    pdf.Root.Pages.Kids = pikepdf.Array(reversed(list(pdf.Root.Pages.Kids)))
    document = extract(_catalog_without_page_tree(pdf), name="report.pdf", ocr="never")
    assert [page.text for page in document.pages] == ["Second page of the report",
                                                      "First page of the report"]
    warnings = [(w.kind, w.message) for w in document.report.warnings]
    assert len(warnings) == 1 and warnings[0][0] == "CorruptDocument"
    assert "catalog names no page tree; 2 page(s) found" in warnings[0][1]


def test_orphan_pages_keep_what_they_inherited() -> None:
    # the pages draw with a font only their tree's node names; the tree node is gone too
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Inherited font text) Tj ET")
    page = pdf.pages[0].obj
    pdf.Root.Pages.Resources = page.Resources
    del page["/Resources"]
    data = _catalog_without_page_tree(pdf)
    tree = re.search(rb"/Type /Pages", data)
    assert tree is not None
    data = data[:tree.start()] + b"/Type /Pagex" + data[tree.end():]  # no longer a tree
    document = extract(data, name="orphan.pdf", ocr="never")
    assert [page.text for page in document.pages] == ["Inherited font text"]


def test_a_file_of_no_page_objects_at_all_is_no_pdf_to_read() -> None:
    data = _catalog_without_page_tree(pikepdf.new())
    document = extract(data, name="husk.pdf", ocr="never")
    assert document.pages == ()
    assert [w.kind for w in document.report.warnings] == ["NoPages"]
