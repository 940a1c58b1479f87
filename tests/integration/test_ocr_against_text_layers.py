"""Auto OCR of pages whose text layer is partly unread, with Tesseract for real: which
reading the page keeps, OCR's or its own."""

from __future__ import annotations

import pytest

import goblin_core
from goblin_core.testing.corpus import contains_phrase, corpus_dir, require_binary


@pytest.mark.corpus
def test_a_page_of_formulas_keeps_its_layer_over_an_unsure_ocr() -> None:
    """GeoTopo's page 84: a few bracket pieces without a map make the layer suspect; OCR,
    unsure of the formulas (``M6biustransformation``), must not replace it."""
    require_binary("tesseract", "tesseract-ocr")
    path = corpus_dir(__file__) / "pdf" / "GeoTopo-komprimiert.pdf"
    document = goblin_core.extract(path, page_range="84", ocr_languages="deu")
    page = document.pages[0]
    ocr = next(a for a in page.attempts if a.engine == "ocr.tesseract")
    assert (ocr.verdict, ocr.reasons) == ("suspect", ("low_ocr_confidence",))
    assert (page.status, page.engine, page.verdict) == ("clean", "pdf.pypdfium2", "suspect")
    assert page.confidence > ocr.score
    assert contains_phrase(page.text, "σ heißt Möbiustransformation")
