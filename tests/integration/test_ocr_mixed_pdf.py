"""A PDF mixing text pages, an image-only page and a blank page, built in the test."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

import goblin_core
from goblin_core.testing.corpus import normalize, require_binary

reportlab = pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.utils import ImageReader  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

SCANNED = "Scanned minutes of the council meeting"
TYPED = "Typed annex with the budget of the school"


def scanned_text(text: str) -> Image.Image:
    font = ImageFont.load_default(size=48)
    page = Image.new("L", (1700, 400), 255)
    ImageDraw.Draw(page).text((80, 150), text, font=font, fill=0)
    return page


def mixed_pdf() -> bytes:
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4)
    width, height = A4
    pdf.drawString(72, height - 100, f"{TYPED}, page one of the dossier.")
    pdf.showPage()
    pdf.drawImage(ImageReader(scanned_text(SCANNED)), 36, height - 300, width=width - 72,
                  height=(width - 72) * 400 / 1700)
    pdf.showPage()
    pdf.showPage()  # blank
    pdf.drawString(72, height - 100, f"{TYPED}, the last page of the dossier.")
    pdf.showPage()
    pdf.save()
    return out.getvalue()


@pytest.mark.parametrize("strategy", ["auto", "extract_and_ocr"])
def test_only_image_pages_are_ocr_d(strategy: str) -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(mixed_pdf(), name="mixed.pdf", ocr=strategy, ocr_languages="eng")
    statuses = [p.status for p in doc.pages]
    if strategy == "auto":
        assert doc.report.ocr_pages == (2,)
        assert statuses == ["clean", "ocr", "empty", "clean"]
    else:
        # extract_and_ocr reads every page that draws something, never the blank one.
        assert 3 not in doc.report.ocr_pages
        assert statuses[2] == "empty"
    assert doc.pages[1].engine == "ocr.tesseract"
    assert SCANNED in normalize(doc.pages[1].text)
    assert 0.5 < doc.pages[1].confidence <= 1.0
    assert doc.pages[2].text == ""
    assert TYPED in doc.pages[0].text and TYPED in doc.pages[3].text


def test_never_leaves_the_image_page_unread() -> None:
    doc = goblin_core.extract(mixed_pdf(), name="mixed.pdf", ocr="never")
    assert doc.report.ocr_pages == ()
    assert doc.pages[1].status == "corrupt"
    assert doc.pages[1].reason == "needs_ocr"


def test_always_uses_ocr_text_on_every_drawn_page() -> None:
    require_binary("tesseract", "tesseract-ocr")
    doc = goblin_core.extract(mixed_pdf(), name="mixed.pdf", ocr="always", ocr_languages="eng")
    assert doc.report.ocr_pages == (1, 2, 4)
    assert [p.engine for p in doc.pages if p.number != 3] == ["ocr.tesseract"] * 3
    assert doc.pages[2].status == "empty"
