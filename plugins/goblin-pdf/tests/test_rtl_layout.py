"""Right-to-left lines on pages rebuilt from glyph boxes: words whole and in reading order,
right-to-left columns read right column first, Latin and figures inside them in place."""

from __future__ import annotations

import io
import re

import pytest
from pdf_builders import dejavu_sans

from goblin_core import extract

pytest.importorskip("reportlab")

SIZE = 9
LEADING = 12
# Hebrew needs no shaping, so each letter can be drawn as its own glyph
HEBREW = ["צוותי הסקר ביקרו בשנים עשר כפרים במהלך עונת האביב",
          "ותיעדו את מצבם של כל באר ובית ספר לאורך הדרך",
          "רוב הבארות היו תקינות אך שלוש מהן נזקקו למשאבות",
          "חדשות לפני שחום הקיץ הגיע אל העמק הירוק",
          "בתי הספר דיווחו על יותר תלמידים מאשר בשנה שעברה",
          "ושניים מהם ביקשו מורים וספרים נוספים לשנה החדשה"]
ENGLISH = ["The survey teams visited twelve",
           "villages during the spring and",
           "recorded the state of every well",
           "and school along the northern road.",
           "Most wells were in working order",
           "but three needed new pumps before",
           "the summer heat reached the valley,",
           "and the schools asked for teachers."]
# what a right-to-left paragraph shows left to right: a Latin word with the figures after
# it, or figures alone
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9.]*(?: [0-9][0-9.]*)*|[0-9][0-9.]*")


def _draw_right_to_left(canvas: object, font: str, right: float, y: float, line: str) -> None:
    """``line`` (in reading order) set right to left from ``right``: each right-to-left
    letter drawn on its own, left of the one before, a Latin word with the figures after
    it, or a number, drawn whole and left to right, as a right-to-left paragraph shows
    them."""
    from reportlab.pdfbase import pdfmetrics

    x = right
    position = 0
    while position < len(line):
        latin = _LATIN_RUN.match(line, position)
        piece = latin.group() if latin else line[position]
        x -= pdfmetrics.stringWidth(piece, font, SIZE)
        if not piece.isspace():
            canvas.drawString(x, y, piece)  # type: ignore[attr-defined]
        position += len(piece)


def _two_columns(left: list[tuple[str, str]], right: list[tuple[str, str]]) -> bytes:
    """A page of two columns, drawn line by line across the page so PDFium's order mixes
    them and the page is rebuilt: each line (text, "ltr" or "rtl"), set flush left or
    flush right in its column; a line of no text leaves its place blank."""
    from reportlab.pdfgen.canvas import Canvas

    font = dejavu_sans()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont(font, SIZE)
    columns = ((50.0, 280.0, left), (315.0, 545.0, right))
    for row in range(max(len(left), len(right))):
        y = 760 - row * LEADING
        for x0, x1, lines in columns:
            if row < len(lines) and lines[row][0]:
                text, direction = lines[row]
                if direction == "rtl":
                    _draw_right_to_left(canvas, font, x1, y, text)
                else:
                    canvas.drawString(x0, y, text)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def _words(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_a_hebrew_paragraph_in_a_column_of_english_reads_whole(layout: str) -> None:
    """The rebuild follows a right-to-left line leftward, glyph after glyph: it used to cut
    every letter into a run of its own, and the letters came out scattered across the
    line; the flush-right lines also reached past the gutter's middle, which made them
    full-width lines that cut the columns apart."""
    # no line of one column shares its baseline with a line of the other in another script:
    # PDFium reads such a baseline as one line and turns the Latin one's words round
    left = ([(line, "ltr") for line in ENGLISH[:3]] + [(line, "rtl") for line in HEBREW[:2]]
            + [(line, "ltr") for line in ENGLISH[3:]])
    right = ([(line, "ltr") for line in ENGLISH[:3]] + [("", "ltr")] * 2
             + [(line, "ltr") for line in ENGLISH[3:]] + [(line, "rtl") for line in HEBREW[2:4]])
    document = extract(_two_columns(left, right), name="columns.pdf", ocr="never",
                       pdf={"layout": layout})
    assert document.raw_metadata["layout"][0]["reading_order"] is True
    words = document.text.split()
    expected = _words([line for line, _ in left + right])
    assert words == expected


def test_right_to_left_columns_are_read_right_column_first() -> None:
    """In the rebuilt order; the quick column check of ``auto`` reads PDFium's text
    rectangles, which split lines of glyphs drawn one at a time right to left into
    pieces too short for prose, and misses these columns."""
    right_column = HEBREW[:3]
    left_column = [*HEBREW[3:], "הגשר נסגר לארבעה שבועות אחרי השיטפונות של 2024"]
    document = extract(_two_columns([(line, "rtl") for line in left_column],
                                    [(line, "rtl") for line in right_column]),
                       name="hebrew.pdf", ocr="never", pdf={"layout": "reading_order"})
    assert document.raw_metadata["layout"][0]["columns"] == 2
    assert document.text.split() == _words(right_column + left_column)


def test_latin_words_and_figures_inside_a_right_to_left_line_keep_their_place() -> None:
    line = "הצוותים יבדקו את Python 3.12 בשנת 2025 עם כל המורים"
    rows = [(line, "rtl")] + [(text, "rtl") for text in HEBREW[:4]]
    document = extract(_two_columns(rows, [(text, "rtl") for text in HEBREW[2:]]),
                       name="mixed.pdf", ocr="never", pdf={"layout": "reading_order"})
    assert line in document.text.replace("\n", " ")


def _heading_page(draw: str) -> bytes:
    """A Latin heading ending in a Hebrew phrase, and a line of English under it. The
    phrase is drawn as most producers draw it: ``string``, its letters in the order they
    show, in one string; ``glyphs`` the same, a glyph at a time; ``words`` a word at a
    time, right to left, each word's letters in the order they show."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    font = dejavu_sans()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont(font, 12)
    canvas.drawString(60, 760, HEADING)
    x = 60 + pdfmetrics.stringWidth(HEADING, font, 12)
    if draw == "string":
        canvas.drawString(x, 760, PHRASE[::-1])
    elif draw == "glyphs":
        for char in PHRASE[::-1]:
            canvas.drawString(x, 760, char)
            x += pdfmetrics.stringWidth(char, font, 12)
    else:
        right = x + pdfmetrics.stringWidth(PHRASE, font, 12)
        for word in PHRASE.split(" "):
            right -= pdfmetrics.stringWidth(word, font, 12)
            canvas.drawString(right, 760, word[::-1])
            right -= pdfmetrics.stringWidth(" ", font, 12)
    canvas.drawString(60, 740, "The terms of the agreement follow below.")
    canvas.showPage()
    canvas.save()
    return out.getvalue()


HEADING = "Service Agreement / "
PHRASE = "הסכם שירות חדש"


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
@pytest.mark.parametrize("draw", ["string", "glyphs", "words"])
def test_a_line_of_latin_and_hebrew_keeps_its_latin_words_in_order(draw: str,
                                                                   layout: str) -> None:
    """PDFium reads such a line as right to left and gives ``הסכם שירות חדש / Agreement
    Service``: a page with a line of both is rebuilt from its glyph boxes, which read each
    word where it stands."""
    document = extract(_heading_page(draw), name=f"{draw}.pdf", ocr="never",
                       pdf={"layout": layout})
    assert document.text.split("\n")[0] == HEADING + PHRASE
    assert "The terms of the agreement follow below." in document.text


def test_parallel_columns_of_english_and_hebrew_read_each_in_order() -> None:
    """Lines of the two columns share their baselines, which PDFium reads as one line
    each, right to left: it gave every English line's words in reverse order, and the
    columns were not found."""
    document = extract(_two_columns([(line, "ltr") for line in ENGLISH],
                                    [(line, "rtl") for line in HEBREW]),
                       name="parallel.pdf", ocr="never")
    assert document.raw_metadata["layout"][0]["columns"] == 2
    text = " ".join(document.text.split())
    assert " ".join(_words(ENGLISH)) in text
    assert " ".join(_words(HEBREW)) in text
