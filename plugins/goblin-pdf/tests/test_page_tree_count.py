"""A page tree that claims more pages than it holds: the pages that exist are read,
and the document says once that the tree's count is wrong, without phantom pages."""

from __future__ import annotations

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved

from goblin_core import extract


def _one_page_claiming(count: int, looped: bool = False) -> bytes:
    """One page under a root whose /Count says ``count``; qpdf writes the true count on
    saving, so the claim is put in after."""
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (The only page of this letter) Tj ET")
    tree = pdf.Root.Pages
    if looped:
        tree.Kids = pikepdf.Array([*tree.Kids, tree])
    data = saved(pdf)
    assert data.count(b"/Count 1 ") == 1
    # the number's digits may outgrow the old one: PDFium rebuilds the offsets
    return data.replace(b"/Count 1 ", b"/Count %d " % count)


@pytest.mark.parametrize(("count", "looped"), [(5, False), (2, True), (1_000_000, False)])
def test_the_pages_the_tree_holds_are_read_and_the_count_is_reported(count: int,
                                                                     looped: bool) -> None:
    document = extract(_one_page_claiming(count, looped), name="letter.pdf")
    assert [(p.number, p.status) for p in document.pages] == [(1, "clean")]
    assert document.text == "The only page of this letter"
    assert document.metadata["page_count"] == 1
    assert document.status == "clean"
    claims = [w for w in document.report.warnings if "page tree claims" in w.message]
    assert len(claims) == 1 and f"{count:,} pages but holds 1" in claims[0].message
    assert not any(w.kind == "RenderFailed" for w in document.report.warnings)


def test_a_tree_whose_count_is_right_gives_no_warning() -> None:
    pdf = helvetica_pages(*(f"BT /F1 12 Tf 72 700 Td (Page {n}) Tj ET" for n in range(1, 8)))
    # OCR off: the short pages would otherwise ask for an OCR backend this session lacks
    document = extract(saved(pdf), name="seven.pdf", ocr="never")
    assert [p.status for p in document.pages] == ["clean"] * 7
    assert document.metadata["page_count"] == 7
    assert not document.report.warnings
