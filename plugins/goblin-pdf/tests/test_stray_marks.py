"""Soft hyphens PDFium reads from a page: the hyphen a line shows stays a hyphen."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pdf_builders import chromium_pdf, saved, standard_font_pages

import goblin_core

# A ToUnicode map as poppler-made PDFs write one for WinAnsi's 0xAD: the hyphen glyph
# mapped to U+00AD, every other code to itself.
_SOFT_HYPHEN_CMAP = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
    b"/CMapName /Goblin-Soft-Hyphen def /CMapType 2 def\n"
    b"1 begincodespacerange <00> <FF> endcodespacerange\n"
    b"2 beginbfrange\n<20> <2C> <0020>\n<2E> <7E> <002E>\nendbfrange\n"
    b"1 beginbfchar\n<2D> <00AD>\nendbfchar\n"
    b"endcmap CMapName currentdict /CIDInit defineresource pop end end\n"
)


def _soft_hyphen_pdf() -> bytes:
    pdf = standard_font_pages(
        b"BT /F1 10 Tf 72 700 Td (Phone 3844-8200, e-mail, page 2-3 of the long hyphen-) Tj "
        b"0 -12 Td (ated report.) Tj ET", fonts={"F1": "Helvetica"})
    font = pdf.pages[0].Resources.Font.F1
    font.ToUnicode = pdf.make_stream(_SOFT_HYPHEN_CMAP)
    return saved(pdf)


def test_a_hyphen_glyph_mapped_to_a_soft_hyphen_is_the_hyphen_it_shows() -> None:
    data = _soft_hyphen_pdf()
    pdf = pdfium.PdfDocument(data)
    try:
        assert "3844\u00ad8200" in pdf[0].get_textpage().get_text_range()  # what PDFium reads
    finally:
        pdf.close()
    text = " ".join(goblin_core.extract(data, name="phone.pdf", ocr="never").text.split())
    # at the line's end the word goes on, as for any soft hyphen
    assert text == "Phone 3844-8200, e-mail, page 2-3 of the long hyphenated report."



@pytest.mark.parametrize("layout", ["auto", "raw", "reading_order"])
def test_words_chrome_broke_at_a_soft_hyphen_are_whole(tmp_path: Path, layout: str) -> None:
    """Chrome draws the hyphen of a word it breaks at a soft hyphen as U+2010, which
    PDFium keeps before its line break (``international‐`` / ``ization``): with PDFium's
    text kept, the word stayed broken."""
    body = ('<p style="width: 150px">Extra&shy;ordinarily inter&shy;national&shy;ization '
            "respon&shy;sibilities of the harbour</p>")
    document = goblin_core.extract(chromium_pdf(body, tmp_path), name="soft.pdf", ocr="never",
                                   pdf={"layout": layout})
    assert " ".join(document.text.split()) == (
        "Extraordinarily internationalization responsibilities of the harbour")
