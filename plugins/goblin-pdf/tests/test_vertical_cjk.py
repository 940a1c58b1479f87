"""Japanese set vertically in a standard font the PDF does not embed: PDFium reads none of
its columns, each column counts as the glyphs it spans, and pdfplumber reads the page
down each column, right to left."""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pypdfium2 as pdfium
from pdf_builders import readable_and_standard_cjk_pdf, saved, standard_cjk_font_pdf

from goblin_core import extract
from goblin_pdf.pdfium_page import ObjectCensus
from goblin_pdf.plumber_recovery import column_chars, runs_vertically

#: 縦書きの文章です, as Adobe-Japan1 CIDs
VERTICAL_SENTENCE = (2382, 2427, 854, 887, 3592, 2487, 880, 866)


def test_unread_columns_weigh_the_glyphs_they_draw() -> None:
    # 3 lines of 10 readable kana, 12 unread columns of 8 glyphs each: counted one glyph an
    # object, 12 of 42 kept the page clean and its columns were lost; counted as the 96
    # glyphs they span, the page goes to the engines with the Adobe-Japan1 maps
    data = readable_and_standard_cjk_pdf(3, VERTICAL_SENTENCE, 12, columns=True)
    document = extract(data, name="tategaki.pdf", ocr="never")
    page = document.pages[0]
    primary = next(a for a in page.attempts if a.engine == "pdf.pypdfium2")
    assert primary.verdict == "garbage" and "unmapped" in primary.reasons
    assert page.status == "recovered" and page.engine == "pdf.pdfplumber"
    assert page.text.count("縦") == page.text.count("章") == 12
    assert page.text.count("あ") == 6


def test_glyphs_spanned_are_counted_in_ems_the_text_matrix_scales() -> None:
    # the same columns drawn at 1 Tf in a text matrix of 12: counted at the font size
    # alone, each would weigh twelve times its glyphs
    columns = ("".join(f"{cid:04X}" for cid in VERTICAL_SENTENCE),) * 4
    for size, placement in ((12, "{x} 700 Td"), (1, "12 0 0 12 {x} 700 Tm")):
        pdf = pikepdf.open(io.BytesIO(standard_cjk_font_pdf(VERTICAL_SENTENCE, 1,
                                                            columns=True)))
        page = pdf.pages[0]
        page.Contents = pdf.make_stream("\n".join(
            f"BT /Ryumin {size} Tf {placement.format(x=500 - 20 * k)} <{column}> Tj ET"
            for k, column in enumerate(columns)).encode("ascii"))
        document = pdfium.PdfDocument(saved(pdf))
        try:
            native = document[0]
            textpage = native.get_textpage()
            counted = ObjectCensus.of(native, textpage).unread_text
            textpage.close()
            native.close()
        finally:
            document.close()
        assert counted == 4 * len(VERTICAL_SENTENCE), (size, counted)


def test_a_page_set_vertically_is_read_down_each_column_right_to_left() -> None:
    data = standard_cjk_font_pdf(VERTICAL_SENTENCE, 12, columns=True)
    text = extract(data, name="tategaki.pdf", ocr="never").text
    assert text.splitlines() == ["縦書きの文章です"] * 12


def _chars(text: str, step: tuple[float, float]) -> list[dict[str, Any]]:
    return [{"text": c, "x0": 500 + step[0] * i, "top": 60 + step[1] * i, "size": 10.0}
            for i, c in enumerate(text)]


def test_a_page_runs_vertically_only_when_most_steps_go_down_a_column() -> None:
    sentence = "縦書きの文章です" * 4
    assert runs_vertically(_chars(sentence, (0, 10)))
    assert not runs_vertically(_chars(sentence, (10, 0)))
    assert not runs_vertically(_chars("縦書き", (0, 10)))  # too few steps to tell
    # a table's column of numbers among rows of text does not turn the page
    rows = _chars("row of text " * 4, (6, 0))
    assert not runs_vertically(rows + _chars("1234567890", (0, 12)))


def test_a_few_unread_glyphs_among_much_readable_text_still_send_the_page_on() -> None:
    # 20 lines of readable kana and one line of 8 glyphs PDFium cannot read: too few to
    # make the page look broken (8 of 208), yet that line is missing from PDFium's text,
    # so the page goes to the engines with the Adobe-Japan1 maps
    data = readable_and_standard_cjk_pdf(20, VERTICAL_SENTENCE, 1)
    document = extract(data, name="nota.pdf", ocr="never")
    page = document.pages[0]
    primary = next(a for a in page.attempts if a.engine == "pdf.pypdfium2")
    assert primary.verdict == "ok"
    assert page.status == "recovered" and page.engine == "pdf.pdfplumber"
    assert "縦書きの文章です" in page.text
    assert page.text.count("あ") == 40


def test_a_page_pdfium_reads_whole_is_not_sent_on() -> None:
    data = readable_and_standard_cjk_pdf(20, VERTICAL_SENTENCE, 0)
    page = extract(data, name="nota.pdf", ocr="never").pages[0]
    assert page.status == "clean" and [a.engine for a in page.attempts] == ["pdf.pypdfium2"]


def test_columns_among_lines_are_read_down_and_the_lines_across() -> None:
    # 3 lines of readable kana across the top, 12 columns of Japanese set vertically
    # below: read all one way, either part came out one character per line
    data = readable_and_standard_cjk_pdf(3, VERTICAL_SENTENCE, 12, columns=True)
    lines = extract(data, name="tategaki.pdf", ocr="never").text.splitlines()
    assert lines == ["縦書きの文章です"] * 12 + ["あいうえおあいうえお"] * 3


def test_stacked_cells_of_a_table_are_no_column() -> None:
    # one ideograph per row, the rows twice the type size apart: a table, read as rows
    weekdays = [{"text": c, "x0": 40.0, "top": 100.0 + 20 * i, "size": 10.0}
                for i, c in enumerate("月火水木金")]
    assert column_chars(weekdays) == set()
    tight = [{**c, "top": 100.0 + 11 * i} for i, c in enumerate(weekdays)]
    assert len(column_chars(tight)) == 5
