"""Real PDFs whose fonts are rewritten into per-glyph substitutions, through the whole pipeline."""

from __future__ import annotations

from pdf_builders import identity_font_pdf, substituted_font_pdf

from goblin_core import extract

SWAPS = {"Ç": "g", "Ã": "a", "Õ": "o", "É": "e", "Á": "a", "Ó": "o", "Í": "i", "n": "u",
         "e": "o", "1": "í"}


def test_identity_font_read_as_codes_is_detected_and_recovered_by_pdfplumber() -> None:
    document = extract(identity_font_pdf(), name="identity.pdf", ocr="never")
    page = document.pages[0]
    primary = next(a for a in page.attempts if a.engine == "pdf.pypdfium2")
    assert primary.verdict == "garbage" and "cipher" in primary.reasons
    assert page.status == "recovered"
    assert page.engine == "pdf.pdfplumber"
    assert "Prefeitura Municipal" in page.text and "modalidade" in page.text
    assert document.status == "partially_recovered"


def test_wrong_tounicode_substitution_is_detected_and_stays_corrupt() -> None:
    document = extract(substituted_font_pdf(SWAPS), name="substituted.pdf", ocr="never")
    page = document.pages[0]
    assert "LICITAgaO" in page.text and "R$ í47.200,04" in page.text
    assert page.status == "corrupt" and page.reason == "garbage"
    assert "cipher" in page.reasons
    # Every text engine was tried and none was trusted.
    assert {a.engine for a in page.attempts} >= {"pdf.pypdfium2", "pdf.pdfplumber"}
    assert all(a.verdict == "garbage" for a in page.attempts if a.verdict)
    assert document.status == "corrupt_unrecoverable"


def test_same_pdf_with_a_right_tounicode_is_clean() -> None:
    document = extract(substituted_font_pdf({}), name="right.pdf", ocr="never")
    assert document.status == "clean"
    assert "AVISO DE LICITAÇÃO" in document.text
