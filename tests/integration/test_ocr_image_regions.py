"""Auto OCR of an image of text pasted into pages of text, built in the test: the image's
words land between the lines around it, the pages stay clean, and an image repeated on
every page is read once."""

from __future__ import annotations

import io

import pytest
from test_ocr_mixed_pdf import scanned_text

import goblin_core
from goblin_core.testing.corpus import normalize, require_binary

reportlab = pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.utils import ImageReader  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

PASTED = "Invoice number 4711 was paid in full"
LINES = [f"Line {n} of the typed report on the school budget." for n in range(1, 7)]


def pasted_pdf(pages: int = 1) -> bytes:
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4)
    width, height = A4
    image = ImageReader(scanned_text(PASTED))
    for _ in range(pages):
        for n, line in enumerate(LINES[:3]):
            pdf.drawString(72, height - 100 - 18 * n, line)
        pdf.drawImage(image, 72, height - 300, width=width - 144,
                      height=(width - 144) * 400 / 1700)
        for n, line in enumerate(LINES[3:]):
            pdf.drawString(72, height - 340 - 18 * n, line)
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def test_the_pasted_image_is_read_into_its_place() -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(pasted_pdf(), name="pasted.pdf", ocr_languages="eng")
    [page] = doc.pages
    text = normalize(page.text)
    assert PASTED in text
    assert text.index(LINES[2]) < text.index(PASTED) < text.index(LINES[3])
    assert (page.status, page.engine) == ("clean", "pdf.pypdfium2")
    assert doc.report.ocr_pages == ()  # no page was OCR'd whole
    assert "ocr.tesseract" in doc.parsed_by


def test_without_image_regions_the_page_is_its_text_layer() -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(pasted_pdf(), name="pasted.pdf", ocr_languages="eng",
                              ocr_image_regions=False)
    assert PASTED not in normalize(doc.text)
    assert normalize(doc.text).startswith(LINES[0])


def test_an_image_on_every_page_is_read_once() -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(pasted_pdf(pages=4), name="pasted.pdf", ocr_languages="eng")
    assert all(PASTED in normalize(p.text) for p in doc.pages)
    timings = [a.seconds for p in doc.pages for a in p.attempts if a.engine == "ocr.tesseract"]
    assert len(timings) == 4
    # the first page's read took Tesseract's time; the others took the digest's
    assert max(timings[1:]) < timings[0] / 3


def _scan_with_a_partial_text_layer() -> bytes:
    """A page that is one scanned image of four lines, with an invisible text layer (as
    OCR tools lay over a scan) holding only the first."""
    from PIL import Image, ImageDraw, ImageFont

    scan = Image.new("L", (1700, 1000), 255)
    draw = ImageDraw.Draw(scan)
    font = ImageFont.load_default(size=48)
    for n, line in enumerate(LINES[:4]):
        draw.text((80, 100 + 200 * n), line, font=font, fill=0)
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4)
    width, height = A4
    shown = width - 72
    pdf.drawImage(ImageReader(scan), 36, height - 36 - shown * 1000 / 1700, width=shown,
                  height=shown * 1000 / 1700)
    layer = pdf.beginText()
    layer.setTextRenderMode(3)  # invisible
    layer.setFont("Helvetica", 13)
    layer.setTextOrigin(36 + 80 * shown / 1700, height - 36 - 140 * shown / 1700)
    layer.textLine(LINES[0])
    pdf.drawText(layer)
    pdf.showPage()
    pdf.save()
    return out.getvalue()


def test_the_lines_a_partial_text_layer_holds_are_not_read_again() -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(_scan_with_a_partial_text_layer(), name="scan.pdf",
                              ocr_languages="eng")
    text = normalize(doc.text)
    assert text.count("Line 1 of the typed report") == 1, text
    for line in LINES[1:4]:
        assert line in text, text
