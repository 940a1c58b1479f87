"""Real PDFs whose fonts are rewritten into per-glyph substitutions, through the whole pipeline."""

from __future__ import annotations

from pdf_builders import (
    PROSE_LINES,
    identity_font_pdf,
    readable_and_standard_cjk_pdf,
    standard_cjk_font_pdf,
    substituted_font_pdf,
)

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


FRENCH_LINES = (
    "Dès lors, les écrits littéraires seront omniprésents et nombre de textes serviront",
    "de terreau aux métamorphoses de son cinéma, qui ne cessera de puiser dans le théâtre",
    "et la littérature ses principales sources d inspiration pour une oeuvre singulière.",
) * 2


def test_codes_run_together_beside_readable_text_are_detected_and_recovered() -> None:
    # A paragraph in the identity font (its words run together as shifted codes, the space
    # glyph dropped) above readable Helvetica lines: the page as a whole reads like prose.
    document = extract(identity_font_pdf(FRENCH_LINES, PROSE_LINES[:8]), name="mixed.pdf",
                       ocr="never")
    page = document.pages[0]
    primary = next(a for a in page.attempts if a.engine == "pdf.pypdfium2")
    assert primary.verdict == "garbage" and "shifted_runs" in primary.reasons
    assert primary.score < 0.3  # under goblin.ocr_garbage_score: OCR'd when nothing reads it
    assert (page.status, page.engine) == ("recovered", "pdf.pdfplumber")
    assert "terreau aux" in page.text and "Prefeitura Municipal" in page.text


def test_the_readable_lines_alone_stay_clean() -> None:
    document = extract(identity_font_pdf((), PROSE_LINES[:8]), name="plain.pdf", ocr="never")
    assert document.status == "clean"


HIRAGANA_A_TO_O = (843, 845, 847, 849, 851)  # あいうえお as Adobe-Japan1 CIDs


def test_a_standard_japanese_font_pdfium_cannot_map_goes_to_the_engines_that_can() -> None:
    # PDFium leaves every glyph of the non-embedded Ryumin-Light out of its text: the page
    # would read as blank. Its unread text objects count as unmapped glyphs instead.
    document = extract(standard_cjk_font_pdf(HIRAGANA_A_TO_O), name="ryumin.pdf", ocr="never")
    page = document.pages[0]
    primary = next(a for a in page.attempts if a.engine == "pdf.pypdfium2")
    assert primary.chars == 0 and "unmapped" in primary.reasons
    assert page.status == "recovered" and page.engine != "pdf.pypdfium2"
    assert page.text.count("あいうえお") == 12


def test_unread_japanese_is_found_on_a_page_with_plenty_of_readable_japanese() -> None:
    """Objects are counted only on pages that read few glyphs (walking a busy page's
    objects costs as much as reading its text); a page whose 250 readable Japanese
    glyphs hid 60 that PDFium left out was judged without them: nothing said the
    page had unread text, so the OCR rule (more than unmapped_chars_per_page unmapped
    glyphs) could not pick it."""
    data = readable_and_standard_cjk_pdf(25, HIRAGANA_A_TO_O, 12)
    document = extract(data, name="mixed.pdf", ocr="never")
    page = document.pages[0]
    primary = next(a for a in page.attempts if a.engine == "pdf.pypdfium2")
    assert primary.chars >= 250
    assert (primary.verdict, primary.reasons) == ("suspect", ("unmapped",))
