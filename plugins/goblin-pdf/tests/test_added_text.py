"""What the parser adds to a page (comments, the outline) is apart from what the page draws:
it is neither judged nor counted as the page's text, and it stays after whichever text wins.
"""

from __future__ import annotations

import io

from pdf_builders import with_note_and_outline
from PIL import Image, ImageDraw
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

import goblin_core
from goblin_core import Source, default_registry
from goblin_core.testing.corpus import normalize
from goblin_pdf.pdfium_parser import PdfiumParser

NOTE = "Reviewer remark: the signature on this scan is missing"
BOOKMARK = "Minutes of the council"


def scan_with_a_note() -> bytes:
    """One page that draws only an image of text, with a sticky note and an outline entry."""
    scan = Image.new("L", (1700, 400), 255)
    ImageDraw.Draw(scan).text((80, 150), "Scanned minutes of the council meeting", fill=0)
    out = io.BytesIO()
    drawing = canvas.Canvas(out, pagesize=A4)
    width, height = A4
    drawing.drawImage(ImageReader(scan), 36, height - 300, width=width - 72,
                      height=(width - 72) * 400 / 1700)
    drawing.showPage()
    drawing.save()
    return with_note_and_outline(out.getvalue(), NOTE, BOOKMARK)


def test_the_parser_gives_the_note_apart_from_the_drawn_text() -> None:
    source = Source.from_bytes(scan_with_a_note(), "scan.pdf")
    parsed = PdfiumParser().open(source, default_registry().config())
    try:
        [content] = list(parsed.pages())
    finally:
        parsed.close()
    assert content.text.strip() == ""
    assert NOTE in content.added_text and BOOKMARK in content.added_text


def test_a_scan_with_a_note_still_needs_ocr_and_keeps_the_note() -> None:
    # the note's characters once made the scan a clean page of text, never OCR'd
    doc = goblin_core.extract(scan_with_a_note(), name="scan.pdf", ocr="never")
    [page] = doc.pages
    assert (page.status, page.reason) == ("corrupt", "needs_ocr")
    assert NOTE in normalize(page.text) and BOOKMARK in normalize(page.text)
