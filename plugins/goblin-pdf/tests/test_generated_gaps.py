"""Spaces and line breaks PDFium makes up inside words: taken back, and only those."""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

import goblin_core
from goblin_pdf.generated_gaps import _short_line_breaks, judge_gap, mend_generated_gaps

ADDRESS = ("North Buona Vista Drive Singapore American President Lines Scottsdale Road "
           "Suite United States Metropolis Tower Ocean Shipping Container")


def _page_pdf(content: bytes, font: str = "Courier", encoding: Any = Name.WinAnsiEncoding) -> bytes:
    pdf = pikepdf.new()
    fonts = Dictionary(F1=Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name("/" + font),
                                     Encoding=encoding))
    pdf.pages.append(pikepdf.Page(Dictionary(
        Type=Name.Page, MediaBox=[0, 0, 612, 792], Resources=Dictionary(Font=fonts),
        Contents=pdf.make_stream(content))))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def ocr_layer_pdf(text: str = ADDRESS) -> bytes:
    """An invisible OCR text layer as scanner software writes it: each word's letters
    spread with character spacing to match the scan, its last letter drawn apart."""
    commands = [b"BT 3 Tr /F1 11 Tf 1 0 0 1 60 700 Tm"]
    for word in text.split():
        commands.append(b"2 Tc (%s) Tj 0 Tc (%s) Tj ( ) Tj"
                        % (word[:-1].encode(), word[-1].encode()))
    commands.append(b"ET")
    return _page_pdf(b"\n".join(commands))


def _pdfium_text(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    try:
        return str(pdf[0].get_textpage().get_text_range())
    finally:
        pdf.close()


def test_an_ocr_layers_split_last_letters_are_joined_back() -> None:
    data = ocr_layer_pdf()
    assert "Nort h Buon a" in _pdfium_text(data)  # what PDFium makes of it
    document = goblin_core.extract(data, name="scan.pdf", ocr="never")
    text = " ".join(document.text.split())
    assert ADDRESS in text
    assert document.pages[0].status == "clean"


def test_the_reading_order_layout_joins_them_too() -> None:
    document = goblin_core.extract(ocr_layer_pdf(), name="scan.pdf", ocr="never",
                                   pdf={"layout": "reading_order"})
    assert ADDRESS in " ".join(document.text.split())


def ligature_space_pdf() -> bytes:
    """Helvetica's fi and fl glyphs (codes 0xAE and 0xAF here), each followed by a space
    drawn 222 units back inside the ligature and the next letter where the ligature's
    advance ends, as some magazine producers write them; then one real space after."""
    encoding = Dictionary(Type=Name.Encoding, BaseEncoding=Name.WinAnsiEncoding,
                          Differences=Array([0xAE, Name("/fi"), Name("/fl")]))
    content = (b"BT /F1 11 Tf 60 700 Td [(Der Er\\256) 222 ( ) 56 (nder ist ein Pro\\256) 222 ( ) "
               b"56 (t, der Ei\\257) 222 ( ) 56 (uss, das Sta\\256 ) (und mehr)] TJ ET")
    return _page_pdf(content, font="Helvetica", encoding=encoding)


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_a_space_drawn_inside_a_ligature_is_taken_back(layout: str) -> None:
    data = ligature_space_pdf()
    assert "Erfi nder ist ein Profi t, der Eifl uss" in _pdfium_text(data)
    document = goblin_core.extract(data, name="magazin.pdf", ocr="never", pdf={"layout": layout})
    # the space after "Stafi" is the font's own advance on from the ligature: it stays
    assert " ".join(document.text.split()) == (
        "Der Erfinder ist ein Profit, der Eifluss, das Stafi und mehr")


def test_ordinary_text_with_a_few_one_letter_words_is_left_as_pdfium_gave_it() -> None:
    line = "I saw a cat and a dog in a park near a lake on a hill by a road in the north"
    data = _page_pdf(b"BT /F1 11 Tf 60 700 Td (%s) Tj ET" % line.encode(), font="Helvetica")
    raw = _pdfium_text(data)
    pdf = pdfium.PdfDocument(data)
    try:
        assert mend_generated_gaps(pdf[0].get_textpage(), raw).text == raw
    finally:
        pdf.close()


def test_a_superscript_alone_on_its_line_stays_a_separate_token() -> None:
    content = (b"BT /F1 10 Tf 72 700 Td (Zejiang Shen) Tj ET "
               b"BT /F1 6 Tf 134.5 704 Td (1) Tj ET "
               b"BT /F1 10 Tf 138 700 Td (\\(a\\), Ruochen Zhang) Tj ET")
    document = goblin_core.extract(_page_pdf(content, font="Helvetica"), name="authors.pdf",
                                   ocr="never")
    assert "Shen 1" in " ".join(document.text.split())


HEIGHT = 10.0


@pytest.mark.parametrize(("kind", "a", "b", "letter", "expected"), [
    # a line break between glyphs that touch on one line: pieces of one word
    ("\r\n", (0, 0, 5, HEIGHT), (5.1, 0, 10, HEIGHT), 0.0, ""),
    # ... or a word gap between them: a space, and the line goes on
    ("\r\n", (0, 0, 5, HEIGHT), (8, 0, 13, HEIGHT), 0.0, " "),
    # a superscript touching the glyph before it belongs to it (m2, CO2, x2, a note's
    # number), as pdftotext and the page show it
    ("\r\n", (0, 0, 5, HEIGHT), (5, 3, 8, 3 + 0.6 * HEIGHT), 0.0, ""),
    # ... and one set apart from it is a word of its own
    ("\r\n", (0, 0, 5, HEIGHT), (7, 3, 10, 3 + 0.6 * HEIGHT), 0.0, " "),
    # a full-size glyph touching the end of a superscript: the word goes on (CO2.)
    ("\r\n", (5, 3, 8, 3 + 0.6 * HEIGHT), (8, 0, 10, HEIGHT), 0.0, ""),
    # the next line, a glyph back to the left, a column gap: kept
    ("\r\n", (0, 0, 5, HEIGHT), (0, -12, 5, -12 + HEIGHT), 0.0, None),
    ("\r\n", (50, 0, 55, HEIGHT), (10, 1, 15, 1 + HEIGHT), 0.0, None),
    ("\r\n", (0, 0, 5, HEIGHT), (20, 0, 25, HEIGHT), 0.0, None),
    # letter-spaced text: a space no wider than the letter gaps goes
    ("\r\n", (0, 0, 5, HEIGHT), (7, 0, 12, HEIGHT), 2.0, ""),
    (" ", (0, 0, 5, HEIGHT), (7, 0, 12, HEIGHT), 2.0, ""),
    # ... a real word gap in it stays
    (" ", (0, 0, 5, HEIGHT), (11, 0, 16, HEIGHT), 2.0, None),
    # tight justified prose: a narrow word gap between glyphs that touch inside
    # their words is PDFium's right call ("mentorship in")
    (" ", (0, 0, 5, HEIGHT), (5.65, 0, 10, HEIGHT), -0.15, None),
    # a space before a superscript is never taken out
    (" ", (0, 0, 5, HEIGHT), (5, 3, 8, 3 + 0.6 * HEIGHT), 2.0, None),
])
def test_judge_gap(kind: str, a: tuple[float, float, float, float],
                   b: tuple[float, float, float, float], letter: float,
                   expected: str | None) -> None:
    assert judge_gap(kind, a, b, lambda: letter) == expected


def test_the_line_breaks_around_short_lines_are_the_suspects() -> None:
    text = "c\r\nolu\r\nm\r\nn\r\nA long line of text\r\nx"
    # the breaks after c, olu, m and n, and the one before the last line
    assert [index for index, _ in _short_line_breaks(text)] == [1, 6, 9, 12, 33]
    assert _short_line_breaks("one ordinary line\r\nand another one") == []


def test_a_tight_pair_in_letter_spaced_type_does_not_split_its_words() -> None:
    # "M" and "a" set tight; every other letter 2 pt apart, as in an OCR layer, and
    # each word's last letter drawn apart
    words = [b"0 Tc (M) Tj 2 Tc (arin) Tj 0 Tc (e) Tj ( ) Tj"] + [
        b"2 Tc (%s) Tj 0 Tc (%s) Tj ( ) Tj" % (word[:-1].encode(), word[-1].encode())
        for word in ("Transport", "Corp", "Ocean", "Plaza", "Keelung")]
    content = b"BT 3 Tr /F1 11 Tf 60 700 Td " + b" ".join(words) + b" ET"
    document = goblin_core.extract(_page_pdf(content), name="kerned.pdf", ocr="never",
                                   pdf={"layout": "reading_order"})
    assert " ".join(document.text.split()) == "Marine Transport Corp Ocean Plaza Keelung"


def _raised(*parts: tuple[str, int]) -> bytes:
    """One line of 12-point text whose parts are raised (or lowered) by a text rise,
    in 8-point type: superscripts and subscripts as word processors draw them."""
    shown = []
    for text, rise in parts:
        size = 8 if rise else 12
        shown.append(f"/F1 {size} Tf {rise} Ts ({text}) Tj")
    return saved(helvetica_pages("BT 72 700 Td " + " ".join(shown) + " ET"))


@pytest.mark.parametrize("layout", ["auto", "raw"])
@pytest.mark.parametrize(("parts", "expected"), [
    ((("The area is 5 m", 0), ("2", 5), (" in total, see note", 0), ("3", 5), (".", 0)),
     "The area is 5 m2 in total, see note3."),
    ((("Water is H", 0), ("2", -3), ("O and carbon dioxide is CO", 0), ("2", -3),
      (". Next", 0)),
     "Water is H2O and carbon dioxide is CO2. Next"),
    ((("Einstein wrote E = mc", 0), ("2", 5), (" in 1905 and x", 0), ("i", -3),
      (" is an index.", 0)),
     "Einstein wrote E = mc2 in 1905 and xi is an index."),
])
def test_a_superscript_or_subscript_does_not_break_its_line(
        parts: tuple[tuple[str, int], ...], expected: str, layout: str) -> None:
    # PDFium breaks the line after a raised or lowered glyph when the next one (a
    # space, a full stop) has a box that does not meet it
    document = goblin_core.extract(_raised(*parts), name="formula.pdf", ocr="never",
                                   pdf={"layout": layout})
    assert document.text == expected


DROP_CAPITAL = ("BT /F1 40 Tf 72 672 Td (W) Tj ET BT /F1 12 Tf 112 700 Td "
                "(hen the rain stopped, the village came) Tj 0 -14 Td "
                "(out to count the damage done to the) Tj 0 -14 Td "
                "(fields and the old stone bridge.) Tj -40 -14 Td (Nobody had seen it.) Tj ET")
# "A" is a word: the first line starts a word space further in than the lines below it,
# which start where the text beside the capital does
DROP_CAPITAL_WORD = ("BT /F1 40 Tf 72 672 Td (A) Tj ET BT /F1 12 Tf 103.3 700 Td "
                     "(long time ago the village came) Tj -3.3 -14 Td "
                     "(out to count the damage done to the) Tj 0 -14 Td "
                     "(fields and the old stone bridge.) Tj -28 -14 Td (Nobody had seen it.) Tj ET")


@pytest.mark.parametrize("layout", ["auto", "raw", "reading_order"])
@pytest.mark.parametrize(("content", "start"), [
    (DROP_CAPITAL, "When the rain stopped, the village came\n"),
    (DROP_CAPITAL_WORD, "A long time ago the village came\n"),
])
def test_a_drop_capital_joins_the_word_it_starts(content: str, start: str, layout: str) -> None:
    # rebuilt from glyph boxes (reading_order), the capital's height spanning three
    # lines must not merge the lines beside it into one
    document = goblin_core.extract(saved(helvetica_pages(content)), name="chapter.pdf",
                                   ocr="never", pdf={"layout": layout})
    assert document.text.startswith(start + "out to count the damage done to the\n"
                                     "fields and the old stone bridge.\n")


@pytest.mark.parametrize("content", [
    # a capital as tall as the text after it is a word of its own
    "BT /F1 12 Tf 72 700 Td (A) Tj ET BT /F1 12 Tf 84 700 Td (house stands here.) Tj ET",
    # a big letter level with the text's top but a word's width away from it is a word
    # of its own (a grade, a label)
    "BT /F1 40 Tf 72 672 Td (A) Tj ET BT /F1 12 Tf 130 700 Td (grade was given.) Tj 0 -14 Td "
    "(second line of it.) Tj ET",
    # and so is one a letter's height away, though the lines below line up with the first
    "BT /F1 40 Tf 72 672 Td (A) Tj ET BT /F1 12 Tf 112 700 Td (long row of trees.) Tj 0 -14 Td "
    "(second line of it.) Tj ET",
])
def test_a_capital_that_is_no_drop_capital_keeps_its_gap(content: str) -> None:
    document = goblin_core.extract(saved(helvetica_pages(content)), name="page.pdf",
                                   ocr="never")
    assert " " in document.text.split("\n")[0][:3]


# footnotes whose raised numbers touch their first word, which PDFium glues on
FOOTNOTES = ("BT /F1 10 Tf 72 700 Td (Body text of the page ends here with a note.) Tj ET "
             "BT /F1 7 Tf 72 106 Td (4) Tj ET BT /F1 10 Tf 75.9 102 Td "
             "(Exceptions include this and that.) Tj ET "
             "BT /F1 7 Tf 72 92 Td (12) Tj ET BT /F1 10 Tf 79.8 88 Td "
             "(Another note follows.) Tj ET "
             "BT /F1 10 Tf 72 74 Td (2nd line is no note.) Tj ET")


@pytest.mark.parametrize("layout", ["auto", "raw", "reading_order"])
def test_a_footnote_number_is_a_token_before_its_first_word(layout: str) -> None:
    document = goblin_core.extract(saved(helvetica_pages(FOOTNOTES)), name="notes.pdf",
                                   ocr="never", pdf={"layout": layout})
    assert document.text.endswith("4 Exceptions include this and that.\n"
                                  "12 Another note follows.\n2nd line is no note.")
