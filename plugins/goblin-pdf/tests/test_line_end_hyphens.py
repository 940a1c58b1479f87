"""Words broken at a line end whose hyphen stands a little apart, or whose second half is
read after a column break: one word again, as the page shows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_runs import CORPUS, extracted
from pdf_builders import helvetica_pages, saved, wkhtmltopdf_pdf

import goblin_core
from goblin_core.testing.corpus import skip_or_fail

SIZE = 11.0
LEADING = 13.0
LEFT = 72.0


def _width(text: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth
    return float(stringWidth(text, "Helvetica", SIZE))


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _line(text: str, x: float, y: float, word_spacing: float = 0.0, size: float = SIZE) -> str:
    return f"BT /F1 {size:g} Tf {word_spacing:g} Tw {x:.2f} {y:.2f} Td ({_escaped(text)}) Tj ET\n"


def _hyphen_apart(text: str, y: float, gap: float, word_spacing: float) -> str:
    """``text`` justified by ``word_spacing``, and a hyphen drawn on its own ``gap`` points
    after it, as LibreOffice sets the hyphen of a word it breaks at the margin."""
    end = LEFT + _width(text) + word_spacing * text.count(" ")
    return _line(text, LEFT, y, word_spacing) + _line("-", end + gap, y)


def _read(content: str, layout: str) -> goblin_core.Document:
    pytest.importorskip("reportlab")
    return goblin_core.extract(saved(helvetica_pages(content)), name="hyphens.pdf",
                               ocr="never", pdf={"layout": layout})


LAYOUTS = pytest.mark.parametrize("layout", ["auto", "reading_order", "raw"])


@LAYOUTS
@pytest.mark.parametrize("gap", [1.4, 2.5])
def test_a_hyphen_set_apart_at_the_margin_stays_with_the_word_it_breaks(
        layout: str, gap: float) -> None:
    """LibreOffice draws the hyphen of a justified line's broken word on its own, at the
    margin. 1.4 points off, PDFium marks it as the hyphen of a broken word all the same,
    and a page rebuilt from its glyph boxes must keep it with the word; 2.5 points off,
    PDFium writes a space before it (``de -``)."""
    pytest.importorskip("reportlab")
    content = (_line("Our licences are meant to guarantee your freedom to share and", LEFT, 700)
               + _hyphen_apart("change all versions of a program, and they are de", 687, gap, 1.5)
               + _line("signed to make sure that it remains free software for all of", LEFT, 674)
               + _hyphen_apart("its users, whoever they are and wherever the ob", 661, gap, 1.2)
               + _line("ject code was first made, as the license says.", LEFT, 648))
    words = _read(content, layout).text.split()
    assert "designed" in words
    assert "object" in words
    assert "-" not in words


@LAYOUTS
def test_a_dash_a_word_gap_after_the_word_ending_a_line_stays_a_dash(layout: str) -> None:
    """A dash drawn on its own a whole word gap after the last word is no hyphen."""
    pytest.importorskip("reportlab")
    word_gap = _width(" ") + 1.5
    content = (_line("The results were checked twice by the committee and they", LEFT, 700)
               + _hyphen_apart("were found to be sound in every case", 687, word_gap, 1.5)
               + _line("believe the method was right for all of them.", LEFT, 674))
    text = _read(content, layout).text
    assert "casebelieve" not in text
    assert "case-" not in text
    assert "case -" in text


def _columns(left: list[str], right: list[str]) -> str:
    """Two columns of lines, the left one's read first."""
    content = ""
    for column, lines in ((LEFT, left), (LEFT + 250.0, right)):
        for row, text in enumerate(lines):
            content += _line(text, column, 740 - LEADING * row)
    return content


PROSE = [
    "The licence covers every copy of the",
    "work that you make, and every copy",
    "that you give to others, whether the",
    "copies are sold or given away for no",
    "charge at all, and whether they are",
    "changed or kept as they were when",
    "you received them from the people",
    "who made them for you to use freely",
    "and share with your friends, as long",
    "as the notices stay where they are and",
]


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_a_word_broken_at_the_foot_of_a_column_goes_on_at_the_head_of_the_next(
        layout: str) -> None:
    left = [*PROSE, "the source code is made available un-"]
    right = ["der the terms of the licence, as the",
             "notice in the source files says, and",
             *PROSE[:9]]
    document = _read(_columns(left, right), layout)
    words = document.text.split()
    assert "under" in words
    assert "un-" not in words and "der" not in words
    assert document.text.index("available") < document.text.index("terms")


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_a_word_broken_above_the_notes_at_the_foot_of_a_column_goes_on_past_them(
        layout: str) -> None:
    """TeX sets a two-column page's footnotes at the foot of the column that calls them,
    in smaller type: a word broken on the column's last line goes on at the head of the
    next column, and the notes are read after its paragraph."""
    left = [*PROSE, "the source code is made available un-"]
    right = ["der the terms of the licence, as the",
             "notice in the source files says, and",
             *PROSE[:9]]
    notes = ["1 The notice names the holders of the copyright.",
             "2 Each file carries its own notice as well."]
    content = _columns(left, right) + "".join(
        _line(note, LEFT, 740 - LEADING * (len(left) + 1) - 10.0 * row, size=8.0)
        for row, note in enumerate(notes))
    text = _read(content, layout).text
    words = text.split()
    assert "under" in words, text
    assert "un-" not in words and "der" not in words
    assert text.index("available") < text.index("terms") < text.index("holders")


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_halves_across_a_column_break_that_make_no_word_stay_apart(layout: str) -> None:
    """Lines read one after the other by mistake (a line of another column, a figure's
    label) run no word together: ``sen-`` and ``be`` make nothing the page knows."""
    left = [*PROSE, "calibration to the global sen-"]
    right = ["be instances of the same attribute",
             "that the notices in the files name,",
             *PROSE[:9]]
    words = _read(_columns(left, right), layout).text.split()
    assert "sen-" in words and "be" in words
    assert "senbe" not in words and "sen-be" not in words


@LAYOUTS
def test_a_word_broken_where_pdfium_ran_the_lines_together_reads_whole(
        layout: str, tmp_path: Path) -> None:
    """wkhtmltopdf draws the hyphen of a word it breaks as U+2010, which PDFium does not
    take for a hyphen: past some line ends it writes a space, not a line break, after it
    (``infringe\u2010 ment``)."""
    sentence = ("Every in&shy;fringe&shy;ment of the licence ends the per&shy;mis&shy;sions "
                "it grants, and the pro&shy;pa&shy;ga&shy;tion of a covered work with&shy;out "
                "per&shy;mis&shy;sion makes you liable for in&shy;fringe&shy;ment under "
                "ap&shy;pli&shy;ca&shy;ble copy&shy;right law. ")
    document = goblin_core.extract(wkhtmltopdf_pdf(sentence * 4, tmp_path), name="report.pdf",
                                   ocr="never", pdf={"layout": layout})
    words = document.text.split()
    assert words.count("infringement") == 8, document.text
    assert words.count("permission") == 4 and words.count("applicable") == 4
    assert not any(word.endswith(("\u2010", "-")) for word in words), document.text


def test_a_hyphen_pdfium_ran_into_the_next_line_is_mended_as_it_would_have_marked_it() -> None:
    """A page of the Federal Register where PDFium wrote a space, not a line break, after
    ``precur-``: the hyphen is the broken word's, as PDFium marks such a hyphen at a line
    end it sees."""
    if CORPUS is None:
        skip_or_fail("the shared corpus is not present")
    page = extracted("pdf/testPDF_bad_page_303226.pdf").pages[17]
    assert "Control of immediate precursors." in " ".join(page.text.split())
