"""A catalog whose /Pages names something other than a page tree keeps its pages.

PDFium reads the object a damaged catalog names as its one page: a font dictionary reads
as a blank page, the first page as the only one. The pages the file still holds are
gathered instead, as for a catalog that names no tree at all.
"""

from __future__ import annotations

import re

import pytest
from pdf_builders import reportlab_pdf

from goblin_core import extract

LINES = ("The quarterly report of the harbour authority.",)


def _catalog_pages_pointing_at(target: int) -> bytes:
    """The three-page reportlab PDF with its catalog's /Pages naming object ``target``
    (same length, so the cross-reference table stays right)."""
    data = reportlab_pdf(LINES, pages=3)
    found = re.search(rb"/Pages (\d+) 0 R", data)
    assert found is not None
    replacement = f"/Pages {target} 0 R".encode().ljust(len(found[0]))
    return data.replace(found[0], replacement, 1)


def _object_holding(data: bytes, marker: bytes) -> int:
    found = re.search(rb"(\d+) 0 obj\s*<<[^>]*?" + re.escape(marker), data)
    assert found is not None, marker
    return int(found[1])


@pytest.mark.parametrize("marker", [b"/F1 2 0 R", b"/Contents"],
                         ids=["a-resource-dictionary", "the-first-page"])
def test_pages_named_by_a_damaged_catalog_are_all_read(marker: bytes) -> None:
    target = _object_holding(reportlab_pdf(LINES, pages=3), marker)
    document = extract(_catalog_pages_pointing_at(target), name="report.pdf", ocr="never")
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert all(page.status == "clean" for page in document.pages)
    assert all("harbour authority" in page.text for page in document.pages)
    assert document.raw_metadata["page_count"] == 3
    assert any(w.kind == "CorruptDocument" and "3 page(s)" in w.message
               for w in document.report.warnings), document.report.warnings


def test_a_sound_one_page_pdf_attaching_a_pdf_stays_one_page() -> None:
    """A PDF attached uncompressed spells out its own page objects in the file's bytes:
    the page tree holds one page, and that is what is read, with no word of damage."""
    import io

    import pikepdf
    from pikepdf import Array, Dictionary, Name, Stream, String

    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(LINES, pages=1)))
    attached = Stream(pdf, reportlab_pdf(("An attached two-page memo.",), pages=2))
    attached.Type = Name.EmbeddedFile
    specification = pdf.make_indirect(Dictionary(
        Type=Name.Filespec, F=String("memo.pdf"), EF=Dictionary(F=attached)))
    pdf.Root.Names = Dictionary(EmbeddedFiles=Dictionary(
        Names=Array([String("memo.pdf"), specification])))
    out = io.BytesIO()
    pdf.save(out, compress_streams=False)
    document = extract(out.getvalue(), name="cover.pdf", ocr="never")
    assert len(document.pages) == 1
    assert "harbour authority" in document.pages[0].text
    assert not [w for w in document.report.warnings if w.kind == "CorruptDocument"]
    assert [len(child.pages) for child in document.children] == [2]
