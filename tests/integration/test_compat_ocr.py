"""GoblinTools' OCRProcessor through goblin's OCR backends (Tesseract here)."""

from __future__ import annotations

import pytest

from goblin_core.compat import OCRConfig, OCRProcessor
from goblin_core.testing.corpus import contains_phrase, corpus_dir, require_binary

CORPUS = corpus_dir(__file__)
SCAN = str(CORPUS / "pdf/qd-diario-oficial-pratania-scan-p2-p7.pdf")
PAGE_IMAGE = CORPUS / "images/qd-diario-oficial-pratania-p7.png"

pytestmark = pytest.mark.slow


@pytest.fixture
def ocr() -> OCRProcessor:
    require_binary("tesseract", "tesseract-ocr")
    return OCRProcessor(OCRConfig(tesseract_lang="por"))


def test_pdf_pages_by_index(ocr: OCRProcessor) -> None:
    pages = ocr.extract_text_from_pdf_by_pages(SCAN)
    assert len(pages) == 2
    assert contains_phrase(pages[1], "EXTRATO DE CONTRATO")
    first = ocr.extract_text_from_pdf_page_indices(SCAN, [0])
    assert list(first) == [0]
    assert contains_phrase(first[0], "DECRETO Nº 56 DE 26 DE OUTUBRO DE")
    assert not ocr.use_aws  # Textract only when asked for, with credentials


def test_image_ocr_from_a_pil_image(ocr: OCRProcessor) -> None:
    from PIL import Image

    with Image.open(PAGE_IMAGE) as image:
        text = ocr.extract_text_from_image(image)
    assert contains_phrase(text, "EXTRATO DE ADITAMENTO DE CONTRATO")


def test_max_ocr_pages_caps_the_work() -> None:
    require_binary("tesseract", "tesseract-ocr")
    capped = OCRProcessor(OCRConfig(pdf_ocr_dpi=100, max_ocr_pages=1))
    assert len(capped.extract_text_from_pdf_by_pages(SCAN)) == 1
