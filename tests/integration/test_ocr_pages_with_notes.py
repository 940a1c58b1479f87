"""Comments, form values and the outline a PDF parser adds to a page are not the page's
text: a scan carrying a sticky note is still OCR'd, and the note stays beside the OCR text.
"""

from __future__ import annotations

import io

import pytest
from test_ocr_mixed_pdf import SCANNED, TYPED, scanned_text

import goblin_core
from goblin_core.testing.corpus import normalize, require_binary

pikepdf = pytest.importorskip("pikepdf")
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.utils import ImageReader  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

NOTE = "Reviewer remark: the signature on this scan is missing"
BOOKMARK = "Minutes of the council"


def annotated(typed: bool) -> bytes:
    """One page, a scan (or typed text), with a sticky note and an outline entry."""
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4)
    width, height = A4
    if typed:
        pdf.drawString(72, height - 100, f"{TYPED}, page one of the dossier.")
    else:
        pdf.drawImage(ImageReader(scanned_text(SCANNED)), 36, height - 300, width=width - 72,
                      height=(width - 72) * 400 / 1700)
    pdf.showPage()
    pdf.save()
    document = pikepdf.open(io.BytesIO(out.getvalue()))
    page = document.pages[0]
    note = document.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Text, Rect=[300, 650, 320, 670],
        Contents=pikepdf.String(NOTE), T=pikepdf.String("Ann")))
    page.obj.Annots = pikepdf.Array([note])
    outlines = document.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Outlines))
    entry = document.make_indirect(pikepdf.Dictionary(
        Title=pikepdf.String(BOOKMARK), Parent=outlines, Dest=[page.obj, pikepdf.Name.Fit]))
    outlines.First = outlines.Last = entry
    outlines.Count = 1
    document.Root.Outlines = outlines
    saved = io.BytesIO()
    document.save(saved)
    return saved.getvalue()


def test_a_scan_with_a_note_is_ocr_d_and_keeps_the_note() -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(annotated(typed=False), name="scan.pdf", ocr="auto",
                              ocr_languages="eng")
    [page] = doc.pages
    assert (page.status, page.engine) == ("ocr", "ocr.tesseract")
    text = normalize(page.text)
    assert SCANNED in text and NOTE in text and BOOKMARK in text
    assert text.index(SCANNED) < text.index(NOTE)


def test_ocr_always_keeps_what_the_parser_added() -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(annotated(typed=True), name="typed.pdf", ocr="always",
                              ocr_languages="eng")
    [page] = doc.pages
    assert page.engine == "ocr.tesseract"
    text = normalize(page.text)
    assert "Typed annex" in text and NOTE in text and BOOKMARK in text
    assert text.count(NOTE) == 1
