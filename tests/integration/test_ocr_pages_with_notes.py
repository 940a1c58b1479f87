"""Comments, form values and the outline a PDF parser adds to a page are not the page's
text: a scan carrying a sticky note is still OCR'd, and the note stays beside the OCR text.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from test_ocr_mixed_pdf import SCANNED, TYPED, scanned_text

import goblin_core
from goblin_core.testing.corpus import normalize, require_binary

# goblin-pdf's own test builders: the same annotated PDF its session reads without OCR
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins" / "goblin-pdf" / "tests"))

from pdf_builders import with_note_and_outline
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

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
    return with_note_and_outline(out.getvalue(), NOTE, BOOKMARK)


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
