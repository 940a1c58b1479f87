"""pdf.mixed_scripts: words whose letters come from two scripts throughout are garbage."""

from __future__ import annotations

import io

import pytest
from pdf_builders import dejavu_sans

import goblin_core
from goblin_core.model import PageContext
from goblin_pdf.validators.mixed_scripts import MixedScriptsValidator, script_meetings

CONTEXT = PageContext(number=1, mime="application/pdf", glyphs=500, images=0, unmapped=0,
                      engine="pdf.pypdfium2")
# Arabic read partly through Latin-1 and Latin Extended-A, as PDFium reads an Arabic font
# Ghostscript rewrote as a simple font
MISREAD_ARABIC = ("هذا þ العال ÿ اĀرحÿ نص Āÿ þÿاĀÿاÿ اĀÿرÿ قق ĀĀĀÿ دĀÿ الأ þÿاĀÿاÿ قراءÿا "
                  "ÿاĀÿاþÿ اĀÿرÿ لĀتĀقق ĀÿرÿيĀ هذا ÿاĀÿاþÿ")
ARABIC = "البرمجة بلغة R وPython تعتبر من الأدوات القوية لتحليل البيانات ومعالجتها بكفاءة عالية"


def _page(lines: list[str]) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    font = dejavu_sans()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont(font, 12)
    for number, line in enumerate(lines):
        canvas.drawString(60, 780 - 16 * number, line)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_a_page_of_arabic_misread_as_latin_letters_is_garbage() -> None:
    page = goblin_core.extract(_page([MISREAD_ARABIC] * 6), name="rewritten.pdf",
                               ocr="never").pages[0]
    assert page.attempts[0].verdict == "garbage"
    assert "mixed_scripts" in page.attempts[0].reasons


def test_a_page_of_arabic_naming_latin_software_is_clean() -> None:
    page = goblin_core.extract(_page([ARABIC] * 6), name="article.pdf", ocr="never").pages[0]
    assert page.status == "clean", page.reasons


@pytest.mark.parametrize("text", [
    MISREAD_ARABIC,
    # Cyrillic through a Latin encoding: letters of both in every word
    " ".join(["Пpивeт миp, этo тeкcт нa pуccкoм языкe"] * 4),
])
def test_letters_of_two_scripts_throughout_are_garbage(text: str) -> None:
    verdict = MixedScriptsValidator().check(text, CONTEXT)
    assert verdict.status == "garbage"
    assert verdict.reasons[0] == "mixed_scripts"


@pytest.mark.parametrize("text", [
    # Arabic's "and" glued to a Latin name, and a run PDFium wrote without the space
    # before the next: a few per page
    " ".join([ARABIC, "كل من R و Pythonميزات فريدة تجعل كل منهما مناسبا"] * 3),
    # Greek letters in Latin names, as science writes them
    "TGFβ and NFκB signalling in αKlotho mice, 5 μm sections, IFNγ " * 5,
    "Привет мир, это текст на русском языке с английским словом Python " * 5,
    "שלום עולם זה מבחן של טקסט בעברית " * 5,
    "Plain English prose with no other script at all. " * 5,
    # a few meetings on a short page
    "Pythonمن و Rتعتبر",
])
def test_real_text_is_not_flagged(text: str) -> None:
    assert MixedScriptsValidator().check(text, CONTEXT).status == "ok"


def test_meetings_are_counted_between_letters_of_two_scripts() -> None:
    assert script_meetings("Pythonمن") == 1
    assert script_meetings("TGFβ") == 0
    assert script_meetings("Привет Python") == 0
