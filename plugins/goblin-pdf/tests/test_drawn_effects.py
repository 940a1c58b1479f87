"""Text effects of web pages printed to PDF: a shadow drawn as a second copy of the text a
little off it, and text turned by a transform drawn glyph by glyph."""

from __future__ import annotations

import io

import pytest

from goblin_core import extract
from goblin_pdf.layout.page_layout import _drawn_a_little_apart

pytest.importorskip("reportlab")
from pdf_builders import chromium_pdf

SHADOWED = "This paragraph carries a soft shadow under every letter of every word it holds."
BODY = "An ordinary line of text under the shadowed one, drawn once."


def _shadowed_page(offset: float) -> bytes:
    """``SHADOWED`` drawn in grey ``offset`` points right of and below where it is then
    drawn in black, as Chrome prints a CSS text-shadow: each copy a text object that
    places every glyph with a move of its own (PDFium drops a copy of a text object
    shown as one string, not such a one, and interleaves the two copies' glyphs);
    ``BODY`` under it."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    for gray, shift in ((0.6, offset), (0.0, 0.0)):
        canvas.setFillGray(gray)
        text = canvas.beginText(50 + shift, 700 - shift)
        text.setFont("Helvetica", 11)
        for char in SHADOWED:
            text.textOut(char)
            text.moveCursor(pdfmetrics.stringWidth(char, "Helvetica", 11), 0)
        canvas.drawText(text)
    canvas.setFillGray(0)
    canvas.setFont("Helvetica", 11)
    canvas.drawString(50, 680, BODY)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
@pytest.mark.parametrize("offset", [0.8, 1.5])
def test_a_shadow_copy_of_a_line_is_read_once(offset: float, layout: str) -> None:
    """PDFium interleaves the two copies' glyphs (``TThhiiss ppaarraaggrraapphh``); copies
    a point and a half apart fell into two bands of the duplicate check and were both
    kept, and ``auto`` kept PDFium's text of a single-column page."""
    document = extract(_shadowed_page(offset), name="shadow.pdf", ocr="never",
                       pdf={"layout": layout})
    assert document.text.split("\n")[0] == SHADOWED, document.text
    assert BODY in document.text


def test_doubled_letters_in_words_alone_do_not_rebuild_a_page() -> None:
    """``bookkeeper`` and ``committee`` double letters too: a page is taken as drawn twice
    only when whole words of it are, so this one keeps PDFium's text as it is."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont("Helvetica", 11)
    lines = ["The bookkeeper of the committee agreed to see the free coffee needs.",
             "Three trees grew between the green fences near the sleepy creek.",
             "Keep the wheels of the jeep greased, the bookkeeper said, and feed the geese."]
    for row, line in enumerate(lines):
        canvas.drawString(50, 700 - 14 * row, line)
    canvas.showPage()
    canvas.save()
    document = extract(out.getvalue(), name="doubles.pdf", ocr="never")
    assert document.raw_metadata["layout"][0]["reading_order"] is False
    assert document.text.split() == " ".join(lines).split()


NOTE = "Sideways margin note"


def _turned_glyph_by_glyph(angle: int) -> bytes:
    """``NOTE`` turned ``angle`` degrees counter-clockwise, each glyph drawn as a text
    object of its own (as Skia prints text a CSS transform turns), beside a column of
    upright text."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont("Helvetica", 11)
    for row in range(12):
        canvas.drawString(120, 760 - 14 * row, f"Line {row} of the upright text beside the note.")
    advance = 0.0
    for char in NOTE:
        canvas.saveState()
        canvas.translate(60, 500)
        canvas.rotate(angle)
        canvas.drawString(advance, 0, char)
        canvas.restoreState()
        advance += pdfmetrics.stringWidth(char, "Helvetica", 11)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("angle", [90, 270])
def test_text_turned_glyph_by_glyph_reads_as_one_line(angle: int) -> None:
    """PDFium puts a line break after each such glyph; its angle samples fell on those
    breaks, which left part of the note laid out as upright text, one letter a line,
    and each glyph was a block of its own."""
    document = extract(_turned_glyph_by_glyph(angle), name="turned.pdf", ocr="never",
                       pdf={"layout": "reading_order"})
    assert NOTE in document.text.split("\n\n"), document.text
    assert "Line 11 of the upright text beside the note." in document.text


def _sheared_line() -> bytes:
    """A line whose middle words are set in an oblique made by shearing the upright font
    12 degrees, as producers without an italic font do; PDFium gives their glyphs the
    shear's angle."""
    import math

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont("Helvetica", 11)
    x = 50.0
    for words, sheared in (("The plant", False), (" Lophophora williamsii", True),
                           (" grows here.", False)):
        canvas.saveState()
        canvas.transform(1, 0, math.tan(math.radians(12)) if sheared else 0, 1, x, 700)
        canvas.drawString(0, 0, words)
        canvas.restoreState()
        x += pdfmetrics.stringWidth(words, "Helvetica", 11)
    canvas.drawString(50, 680, "A second line, upright throughout.")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_words_of_a_sheared_oblique_stay_in_their_line() -> None:
    """Such glyphs lean 12 degrees, past the tolerance for upright text, and were laid out
    as turned text after the page; on their level baseline they are upright. The wide
    boxes shearing gives them are no copies of one another (``williamsii``)."""
    document = extract(_sheared_line(), name="oblique.pdf", ocr="never",
                       pdf={"layout": "reading_order"})
    assert document.text.split("\n")[0] == "The plant Lophophora williamsii grows here."


def test_a_shadow_chrome_prints_is_read_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Chrome draws a CSS text-shadow as a copy of the text under it; PDFium keeps pieces of
    the copy between the words (``wher eets where lanter e lanterns``). ``auto`` rebuilds
    a page whose text rectangles come in such pairs, and the rebuild drops the copy."""
    body = f'<p style="text-shadow: 1px 1px 0 #888">{WEB_LINES}</p><p>{BODY}</p>'
    document = extract(chromium_pdf(body, tmp_path), name="shadow.pdf", ocr="never")
    assert " ".join(document.text.split()) == f"{WEB_LINES} {BODY}"
    assert document.raw_metadata["layout"][0]["reading_order"] is True


WEB_LINES = ("Harbour stones carry the weight of old ships and the tide brings copper light "
             "into the narrow streets where lanterns glow at dusk")


def _copies(shift: float) -> list[tuple[float, float, float, float]]:
    """Rectangles of three pieces of a line, each followed by its copy ``shift`` points
    right and down, as PDFium gives a line and its shadow."""
    pieces = [(50.0, 700.0, 120.0, 711.0), (125.0, 700.0, 180.0, 711.0),
              (185.0, 700.0, 260.0, 711.0)]
    return [box for x0, y0, x1, y1 in pieces
            for box in ((x0, y0, x1, y1), (x0 + shift, y0 - shift, x1 + shift, y1 - shift))]


def test_rectangles_in_pairs_a_little_apart_are_text_drawn_twice() -> None:
    assert _drawn_a_little_apart(_copies(1.5))
    assert not _drawn_a_little_apart(_copies(1.5)[:3])  # one pair is not enough


@pytest.mark.parametrize("boxes", [
    # pieces of a line side by side, touching
    [(50.0, 700.0, 120.0, 711.0), (120.0, 700.0, 180.0, 711.0), (180.0, 700.0, 260.0, 711.0),
     (260.0, 700.0, 300.0, 711.0)],
    # the parts of Arabic letters, narrow and a little apart, each over the last
    [(490.5, 584.2, 493.9, 590.6), (487.7, 581.6, 491.0, 588.0), (443.3, 581.9, 446.6, 588.0),
     (440.4, 581.6, 443.7, 588.0), (407.7, 581.9, 411.1, 588.0), (404.9, 581.6, 408.2, 588.0)],
    # a superscript over the end of a word, and an accent over a letter
    [(50.0, 700.0, 120.0, 711.0), (116.0, 706.0, 121.0, 712.0), (60.0, 700.0, 66.0, 709.0),
     (60.5, 709.5, 65.5, 711.5)],
    # lines one under the other
    [(50.0, 700.0 - 12 * k, 300.0, 711.0 - 12 * k) for k in range(6)],
])
def test_rectangles_of_ordinary_text_are_not_copies(
        boxes: list[tuple[float, float, float, float]]) -> None:
    assert not _drawn_a_little_apart(boxes)
