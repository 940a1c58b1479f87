"""pdf.code_page: Windows text PDFium reads as Mac Roman is flagged and read again."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pdf_builders import PROSE_LINES, mac_cmap_font_pdf

import goblin_core
from goblin_core.model import PageContext
from goblin_pdf.validators.code_page import CodePageValidator, swapped_letters

CONTEXT = PageContext(number=1, mime="application/pdf", glyphs=500, images=0, unmapped=0,
                      engine="pdf.pypdfium2")


def test_windows_text_read_as_mac_roman_is_read_again_by_the_recovery_chain() -> None:
    data = mac_cmap_font_pdf()
    pdf = pdfium.PdfDocument(data)
    try:
        raw = pdf[0].get_textpage().get_text_range()
    finally:
        pdf.close()
    assert "licitaÁ„o" in raw and "p˙blico" in raw  # what PDFium reads
    page = goblin_core.extract(data, name="edital.pdf", ocr="never").pages[0]
    assert page.status == "recovered"
    assert page.attempts[0].verdict == "garbage"
    assert "mac_roman_read" in page.attempts[0].reasons
    text = " ".join(page.text.split())
    assert " ".join(PROSE_LINES[:3]) in text


@pytest.mark.parametrize("text", [
    "A Prefeitura torna p˙blico que realizar· licitaÁ„o na modalidade preg„o presencial.",
    "Liste numÈrotÈe, en tÍte de page.",
    "MunicÌpio de Prat‚nia, atribuiÁıes do cargo.",
])
def test_swapped_letters_are_garbage(text: str) -> None:
    verdict = CodePageValidator().check(text, CONTEXT)
    assert verdict.status == "garbage"
    assert verdict.score < 0.3


@pytest.mark.parametrize("text", [
    "A Prefeitura torna público que realizará licitação na modalidade pregão presencial.",
    "AVISO DE LICITAÇÃO PÚBLICA, ÁGUA E ESGOTO: PRÊMIO ÚNICO",  # capitals after capitals
    "Ótimo. Érico e Ângela, Índice: Úrsula",  # capitals opening words
    "La col·lecció del museu i la intel·ligència artificial",  # Catalan's l·l
    "Kadın ve kızı, ılık bir akşam",  # Turkish dotless i
    "McÈwan wrote one odd name here and nothing more.",  # once is not enough
    "plain ASCII text",
])
def test_real_text_is_not_flagged(text: str) -> None:
    assert CodePageValidator().check(text, CONTEXT).status == "ok"


def test_a_few_swaps_in_a_long_page_are_not_enough() -> None:
    text = "Bürgerbüro im Rathaus " * 100 + "B˚rgerb˚ro"
    assert swapped_letters(text) == 2
    assert CodePageValidator().check(text, CONTEXT).status == "ok"
