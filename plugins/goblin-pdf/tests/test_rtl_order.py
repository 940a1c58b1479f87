"""Right-to-left text comes out in reading order however it was drawn, the letters of a
glyph that stands for several included."""

from __future__ import annotations

import io

import pytest
from pdf_builders import dejavu_sans

from goblin_core import extract

PHRASE = "مرحبا بالعالم الجميل"  # "hello, beautiful world", as it is read


def _page(draw: str) -> bytes:
    """One line of ``PHRASE``: ``visual`` draws its letters in one string, left to right in
    the order they appear on the page (the phrase backwards); ``visual_glyphs`` the same, one
    text object per letter; ``reading`` draws each letter left of the one before;
    ``mirrored_words`` draws each word as ``visual`` does, one text object per word, on a
    page whose y axis is turned down and text matrix turned back up, as Skia (Chrome's
    "Save as PDF") does: PDFium turns such words round twice."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    font = dejavu_sans()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont(font, 14)
    canvas.drawString(60, 760, "Greeting: 2024")
    if draw == "visual":
        canvas.drawString(200, 700, PHRASE[::-1])
    elif draw == "visual_glyphs":
        x = 200.0
        for char in PHRASE[::-1]:
            canvas.drawString(x, 700, char)
            x += pdfmetrics.stringWidth(char, font, 14)
    elif draw == "mirrored_words":
        canvas.transform(1, 0, 0, -1, 0, 842)
        x = 400.0
        for number, word in enumerate(PHRASE.split(" ")):
            x -= pdfmetrics.stringWidth(word, font, 14)
            text = canvas.beginText()
            text.setFont(font, 14)
            text.setTextTransform(1, 0, 0, -1, x, 142)
            if number:
                text.textOut(word[::-1])
            else:
                # a letter spelled by an /ActualText span, as Skia spells the glyphs its
                # shaping joined: the other words of the line come out backwards then
                text._code.append(f"/Span <</ActualText <FEFF{ord(word[-1]):04X}>>> BDC")
                text.textOut(word[-1])
                text._code.append("EMC")
                text.textOut(word[-2::-1])
            canvas.drawText(text)
            x -= pdfmetrics.stringWidth(" ", font, 14)
    else:
        x = 500.0
        for char in PHRASE:
            x -= pdfmetrics.stringWidth(char, font, 14)
            canvas.drawString(x, 700, char)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
@pytest.mark.parametrize("draw", ["visual", "visual_glyphs", "reading", "mirrored_words"])
def test_arabic_comes_out_in_reading_order(draw: str, layout: str) -> None:
    """PDFium's order, and the order rebuilt from glyph boxes, which follows right-to-left
    glyphs leftward."""
    document = extract(_page(draw), name=f"{draw}.pdf", ocr="never", pdf={"layout": layout})
    assert PHRASE in document.text, document.text
    assert "Greeting: 2024" in document.text


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_the_corpus_word_drawn_as_one_glyph_per_word_reads_right(layout: str) -> None:
    """Pages turned by /Rotate are rebuilt from their glyph boxes, which must spell the
    word as the text does: letters of one glyph in reading order, none taken for a copy
    of another because they share its box."""
    from goblin_core.testing.corpus import corpus_dir

    document = extract(corpus_dir(__file__) / "pdf/habibi-rotated.pdf", ocr="never",
                       pdf={"layout": layout})
    assert [page.text.count("حَبيبي") for page in document.pages] == [2, 2, 2, 2]
    assert "يبيبَح" not in document.text and "يبَح" not in document.text


def test_lam_alef_ligatures_spelled_alef_first_are_put_in_reading_order() -> None:
    from goblin_core.testing.corpus import corpus_dir

    text = extract(corpus_dir(__file__) / "pdf/right_to_left_01.pdf", ocr="never").text
    for word in ("الإنتاجية", "المشكلات", "خلال", "الأدوات"):
        assert word in text
    assert "اإلنتاجية" not in text and "المشكالت" not in text


def test_a_latin_word_touching_an_arabic_word_stands_apart() -> None:
    """The file draws ``Python`` against the Arabic word after it, with no space between;
    PDFium's text glued them (``Pythonمن``). The page's lines hold Latin and Arabic
    letters, so it is rebuilt from its glyph boxes, where letters of the two directions
    meeting are of two words."""
    from goblin_core.testing.corpus import corpus_dir

    text = extract(corpus_dir(__file__) / "pdf/right_to_left_01.pdf", ocr="never").text
    assert "Python من" in text and "Python مع" in text
    assert "Pythonمن" not in text


def _skia_line(phrase: str) -> bytes:
    """``phrase`` as Skia (Chrome's "Save as PDF") draws a line of Arabic: one text object
    marked ``/ReversedChars``, its glyphs left to right in the order they show, each
    spelled by an ``/ActualText`` span, under a text matrix that turns the page's
    downward y axis back up."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    font = dejavu_sans()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont(font, 14)
    canvas.drawString(60, 780, "Greeting: 2024")
    canvas.transform(1, 0, 0, -1, 0, 842)
    text = canvas.beginText()
    text.setFont(font, 14)
    shown = phrase[::-1]
    text.setTextTransform(1, 0, 0, -1, 500 - pdfmetrics.stringWidth(shown, font, 14), 142)
    text._code.append("/ReversedChars BMC")
    for char in shown:
        if char != " ":
            text._code.append(f"/Span <</ActualText <FEFF{ord(char):04X}>>> BDC")
        text.textOut(char)
        if char != " ":
            text._code.append("EMC")
    text._code.append("EMC")
    canvas.drawText(text)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_a_word_before_an_arabic_comma_is_turned_round_too(layout: str) -> None:
    """PDFium gives such a line's words in the order they show, the comma after its word:
    the comma is no letter of the word, which used to keep the word from being turned
    round (``لمعلل،`` for ``للعمل،``)."""
    phrase = "كانت الآبار صالحة للعمل، لكن ثلاثة منها"
    document = extract(_skia_line(phrase), name="skia.pdf", ocr="never",
                       pdf={"layout": layout})
    assert phrase in document.text, document.text
