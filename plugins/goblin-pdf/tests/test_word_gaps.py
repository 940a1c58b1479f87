"""Word gaps PDFium's text leaves out (two words read as one), put back, and only those."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from pdf_builders import saved, standard_font_pages

import goblin_core
from goblin_pdf import word_gaps
from goblin_pdf.layout.native import drawn_text_rects
from goblin_pdf.word_gaps import WordGaps, _PageGaps, abutting_objects, word_gap_edits

# Times-Roman at 10 points, as Ghostscript writes what PostScript positioned glyph by
# glyph: the pen crosses a word gap with character spacing (Tc) inside an object of two
# glyphs, the last of one word and the first of the next, and a later show moves back.
# "(gi) Tj -0.25 Tc -2.15 Tw (v e) Tj" is a kerned pair written as a space that the word
# spacing takes back: the space moves the pen 0.1 point.
GHOSTSCRIPT_LINE = (
    b"BT /F1 10 Tf 72 700 Td (Th) Tj 2.5 Tc (em) Tj 0 Tc [250 (anual reads th)] TJ "
    b"3.4 Tc (es) Tj 0 Tc [340 (tarting point of )] TJ 2.6 Tc (ag) Tj 0 Tc "
    b"[260 (iven tree: it )] TJ (gi) Tj -0.25 Tc -2.15 Tw (v e) Tj 0 Tc 0 Tw "
    b"(n names first.) Tj ET"
)
GHOSTSCRIPT_TEXT = "The manual reads the starting point of a given tree: it given names first."


def _pdf(*pages: bytes, font: str = "Times-Roman") -> bytes:
    return saved(standard_font_pages(*pages, size=(612, 792),
                                     fonts={"F1": font, "F2": "Times-Italic"}))


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The characters each call of ``word_gap_edits`` looks at, as extractions make them."""
    seen: list[int] = []
    original = word_gaps.word_gap_edits

    def counted(textpage: pdfium.PdfTextPage, text: str, end: int | None = None) -> dict[int, str]:
        seen.append(len(text) if end is None else end)
        return original(textpage, text, end)

    monkeypatch.setattr(word_gaps, "word_gap_edits", counted)
    return seen


def _pdfium_text(data: bytes, page: int = 0) -> str:
    pdf = pdfium.PdfDocument(data)
    try:
        return str(pdf[page].get_textpage().get_text_range())
    finally:
        pdf.close()


def _text(data: bytes, **options: object) -> str:
    document = goblin_core.extract(data, name="gaps.pdf", ocr="never", **options)
    return " ".join(document.text.split())


@pytest.mark.parametrize("layout", ["auto", "raw", "reading_order"])
def test_words_ghostscript_moves_apart_with_character_spacing_are_parted(layout: str) -> None:
    data = _pdf(GHOSTSCRIPT_LINE)
    # what PDFium makes of it
    raw = _pdfium_text(data)
    assert "Themanual" in raw and "thestarting" in raw and "agiven" in raw and "giv en" in raw
    assert _text(data, pdf={"layout": layout}) == GHOSTSCRIPT_TEXT


def test_a_space_taken_back_before_the_last_letter_of_a_word_goes() -> None:
    """The kerned pair may end its word: ``hav e``, ``Tw o``, one letter after the space."""
    line = (b"BT /F1 10 Tf 72 640 Td (they ha) Tj -0.25 Tc -2.15 Tw (v e) Tj 0 Tc 0 Tw "
            b"( been sent. T) Tj -0.25 Tc -2.15 Tw (w o) Tj 0 Tc 0 Tw ( ways, a b c.) Tj ET")
    data = _pdf(GHOSTSCRIPT_LINE + b"\n" + line)
    assert "hav e" in _pdfium_text(data)
    assert "they have been sent. Two ways, a b c." in _text(data)


@pytest.mark.parametrize("word_spacing", [b"-3.6", b"-3.9", b"-4.2"])
def test_a_space_taken_back_all_but_a_fifth_of_its_advance_goes(word_spacing: bytes) -> None:
    """groff's italic kerned pairs (``PA GE_SIZE``): the pen moves on past the space a
    little more than the glyphs' height allows, a fifth of the space's own advance."""
    line = (b"BT /F2 10 Tf 72 620 Td (the option takes P) Tj -0.9 Tc " + word_spacing +
            b" Tw (A G) Tj 0 Tc 0 Tw (E_SIZE, a number.) Tj ET")
    data = saved(standard_font_pages(GHOSTSCRIPT_LINE + b"\n" + line, size=(612, 792),
                                     fonts={"F1": "Times-Roman", "F2": "Courier-Oblique"}))
    assert "PA GE_SIZE" in _pdfium_text(data)
    assert "the option takes PAGE_SIZE, a number." in _text(data)


def test_a_space_that_moves_the_pen_a_word_gap_stays_though_its_boxes_touch() -> None:
    # The italic f's box reaches past its advance, over the space after it: the boxes of
    # "f" and "t" nearly meet, but the pen moves a whole space between them.
    italic = b"BT /F2 10 Tf 72 660 Td (a piece of the work, if the chef found it) Tj ET"
    data = _pdf(GHOSTSCRIPT_LINE + b"\n" + italic)
    assert "a piece of the work, if the chef found it" in _text(data)


def test_letter_spaced_words_stay_whole() -> None:
    heading = b"BT /F1 14 Tf 72 720 Td 4 Tc (CONTENTS) Tj ET "
    inline = b"BT /F1 10 Tf 72 690 Td (Read the) Tj 3 Tc ( NOTICE ) Tj 0 Tc (below.) Tj ET"
    data = _pdf(GHOSTSCRIPT_LINE + b"\n" + heading + inline)
    text = _text(data)
    assert "CONTENTS" in text and "NOTICE" in text


def test_two_cells_of_a_table_row_read_as_one_number_are_parted() -> None:
    # the row's figures drawn by one object with character spacing: the 3 and the 0 stand
    # in two columns
    row = (b"BT /F1 10 Tf 72 640 Td (Texas 12) Tj 60 0 Td 34 Tc (30) Tj 0 Tc 80 0 Td (7) Tj ET")
    data = _pdf(GHOSTSCRIPT_LINE + b"\n" + row)
    assert "30" in _pdfium_text(data)
    assert "Texas 12 3 0 7" in _text(data)


def test_scripts_written_without_word_spaces_are_left_alone() -> None:
    # a justified line of ideographs: every glyph stands apart, none of them a word gap
    text = "\u6f22\u5b57\u6f22\u5b57 ab"
    box = [0.0, 10.0, 8.0, 0.0, 11.0, 10.0, 19.0, 0.0, 22.0, 10.0, 30.0, 0.0,
           33.0, 10.0, 41.0, 0.0, 0.0, 0.0, 0.0, 0.0, 45.0, 10.0, 50.0, 0.0,
           56.0, 10.0, 61.0, 0.0]
    page = _PageGaps(text, box, [(0, 4), (5, 7)])
    assert page.pair(0, 1) is None
    assert page.pair(5, 6) == (6.0, 10.0)
    assert page.wide_gaps() == [0, 1, 2, 5]


def test_ordinary_pdfs_are_only_probed(checks: list[int]) -> None:
    line = b"BT /F1 10 Tf 72 %d Td (Plain words of an ordinary page, set as usual.) Tj ET"
    page = b"\n".join(line % (760 - 12 * k) for k in range(60))
    goblin_core.extract(_pdf(*[page] * 4), name="plain.pdf", ocr="never")
    assert sum(checks) == word_gaps.PROBE_CHARS


def test_a_document_whose_probe_finds_word_gaps_has_every_page_checked() -> None:
    filler = b"BT /F1 10 Tf 72 %d Td (Plain words, set as a word processor sets them.) Tj ET"
    plain = b"\n".join(filler % (740 - 12 * k) for k in range(52))
    row = b"BT /F1 10 Tf 72 100 Td (Ohio 12) Tj 60 0 Td 34 Tc (30) Tj 0 Tc 80 0 Td (7) Tj ET"
    first = (b"BT /F1 10 Tf 72 760 Td (Iowa 4) Tj 60 0 Td 34 Tc (51) Tj 0 Tc 80 0 Td "
             b"34 Tc (26) Tj ET")
    document = goblin_core.extract(_pdf(first + b"\n" + plain, plain + b"\n" + row),
                                   name="rows.pdf", ocr="never")
    assert "Iowa 4 5 1 2 6" in document.pages[0].text
    assert "Ohio 12 3 0 7" in document.pages[1].text


def test_word_gaps_found_a_page_at_a_time_add_up_to_every_page_checked() -> None:
    """One word gap missed on each of the first pages, after a comma on one: none finds
    enough alone, together they send the document's later pages to be checked."""
    filler = b"BT /F1 10 Tf 72 %d Td (Plain words, set as a word processor sets them.) Tj ET"
    plain = b"\n".join(filler % (740 - 12 * k) for k in range(52))
    short = b"\n".join(filler % (740 - 12 * k) for k in range(8))  # the probe reads on
    # the gaps Ghostscript opens with character spacing inside one string
    first = b"BT /F1 10 Tf 72 760 Td (Iowa) Tj 6 Tc (4A) Tj ET"
    second = b"BT /F1 10 Tf 72 760 Td (Dakota) Tj 6 Tc (,N) Tj ET"
    row = b"BT /F1 10 Tf 72 100 Td (Ohio 12) Tj 60 0 Td 34 Tc (30) Tj 0 Tc 80 0 Td (7) Tj ET"
    document = goblin_core.extract(
        _pdf(first + b"\n" + short, second + b"\n" + short, plain + b"\n" + row),
        name="rows.pdf", ocr="never")
    assert "Iowa4 A" in document.pages[0].text
    assert "Dakota, N" in document.pages[1].text
    assert "Ohio 12 3 0 7" in document.pages[2].text


def test_a_producer_whose_abutting_objects_hide_no_word_gap_is_checked_no_further(
        checks: list[int]) -> None:
    # every word in two objects, italic start and plain end, abutting: no gap missed
    words = b" ".join(b"/F2 10 Tf (wor) Tj /F1 10 Tf (ds ) Tj" for _ in range(8))
    page = b"\n".join(b"BT 72 %d Td %s ET" % (760 - 12 * k, words) for k in range(40))
    data = _pdf(*[page] * 6)
    pdf = pdfium.PdfDocument(data)
    try:
        assert abutting_objects(drawn_text_rects(pdf[0].get_textpage()))
    finally:
        pdf.close()
    document = goblin_core.extract(data, name="italic.pdf", ocr="never")
    assert len(checks) == word_gaps.MAX_IDLE
    assert "words words" in document.text


def test_text_pdfium_gives_out_of_step_with_its_characters_is_left_alone() -> None:
    gaps = WordGaps()
    pdf = pdfium.PdfDocument(_pdf(GHOSTSCRIPT_LINE))
    try:
        textpage = pdf[0].get_textpage()
        text = textpage.get_text_range()
        assert gaps.edits(textpage, text + "x", []) == {}
        assert word_gap_edits(textpage, text)
    finally:
        pdf.close()
