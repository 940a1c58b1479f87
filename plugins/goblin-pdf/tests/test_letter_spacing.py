"""Letter-spaced type comes out as words: the spaces PDFium makes up between its letters
are taken back, its word gaps kept; single letters standing as words stay apart."""

from __future__ import annotations

import pytest
from pdf_builders import chromium_pdf, saved, square_glyph_font, standard_font_pages

import goblin_core

SIZE = 16.0
LAYOUTS = ["auto", "raw", "reading_order"]


def _width(text: str, size: float = SIZE) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, "Helvetica", size))


def _glyph(char: str, x: float, y: float, size: float = SIZE) -> str:
    escaped = char.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 {size:g} Tf {x:.3f} {y:.3f} Td ({escaped}) Tj ET\n"


def _tracked(text: str, x: float, y: float, tracking: float) -> tuple[str, float]:
    """``text`` drawn glyph by glyph, ``tracking`` (in em) after each, spaces drawn as
    nothing but their advance (as browsers print letter-spaced text): the content and the
    x after it."""
    out = ""
    for char in text:
        if char != " ":
            out += _glyph(char, x, y)
        x += _width(char) + tracking * SIZE
    return out, x


def _extract(content: str, layout: str) -> str:
    data = saved(standard_font_pages(content.encode("latin-1"), fonts={"F1": "Helvetica"},
                                     encoding=None))
    return goblin_core.extract(data, name="spaced.pdf", ocr="never", pdf={"layout": layout}).text


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("tracking", [0.15, 0.3])
def test_letter_spaced_words_are_read_whole(layout: str, tracking: float) -> None:
    content, _ = _tracked("Tracked heading words", 72, 700, tracking)
    text = _extract(content, layout)
    assert "Tracked heading words" in text, text


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_tracked_word_before_a_word_read_whole_is_read_whole(layout: str) -> None:
    """PDFium made up no space inside the second word (a kerned pair, a word drawn in
    one string): the first word's own gaps are all letter gaps, and its word gap shows
    only beside the second."""
    section, x = _tracked("SECTION", 72, 700, 0.25)
    content = section + f"BT /F1 {SIZE:g} Tf {x + _width(' '):.3f} 700 Td (OVERVIEW) Tj ET\n"
    text = _extract(content, layout)
    assert "SECTION OVERVIEW" in text, text


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_letter_spaced_span_between_drawn_spaces_is_read_whole(layout: str) -> None:
    """LibreOffice spaces the letters of a span, not the spaces drawn before and after it:
    those are word gaps however narrow beside the letter spacing."""
    before = "Water fills the tank. "
    content = f"BT /F1 {SIZE:g} Tf 72 700 Td ({before}) Tj ET\n"
    span, x = _tracked("Spaced heading words", 72 + _width(before), 700, 0.3)
    content += span + f"BT /F1 {SIZE:g} Tf {x:.3f} 700 Td ( follow here.) Tj ET\n"
    text = _extract(content, layout)
    assert "tank. Spaced heading words follow here." in text, text


def test_a_tracked_word_as_far_from_the_word_before_as_its_letters_stays_as_it_is() -> None:
    """A word set solid a space before a word tracked by about a space: nothing tells the
    word gap from the letter gaps, so PDFium's spaces stay."""
    content = f"BT /F1 {SIZE:g} Tf 72 700 Td (Annual) Tj ET\n"
    section, x = _tracked("SECTION", 72 + _width("Annual "), 700, 0.25)
    content += section
    content += f"BT /F1 {SIZE:g} Tf {x + _width(' '):.3f} 700 Td (OVERVIEW) Tj ET\n"
    text = _extract(content, "raw")
    assert "AnnualS" not in text, text


@pytest.mark.parametrize(("tokens", "gaps"), [
    # single letters standing as words, spaced alike
    (["x", "y", "z", "w", "v"], [0.28] * 4),
    # a formula: letters, relations and figures at the widths a typesetter puts there
    (["X", "=", "[0,", "1),", "Y", "=", "S"], [0.28, 0.28, 0.17, 0.5, 0.28, 0.28]),
    # cells of a table row, unevenly far apart
    (["Y", "N", "Y", "N", "Y"], [0.9, 2.5, 0.9, 4.0]),
    # a dot leader
    (["Contents", ".", ".", ".", ".", ".", ".", "7"], [0.5] + [0.35] * 5 + [0.5]),
])
def test_single_letters_standing_as_words_stay_apart(tokens: list[str], gaps: list[float]) -> None:
    content, x = "", 72.0
    for token, gap in zip(tokens, [*gaps, 0.0], strict=True):
        content += _glyph(token, x, 700)
        x += _width(token) + gap * SIZE
    text = _extract(content, "auto")
    assert " ".join(tokens) in " ".join(text.split()), text


def _actual_text(char: str) -> str:
    return f"/Span <</ActualText <FEFF{ord(char):04X}>>> BDC\n"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_small_capitals_spelled_by_actual_text_are_not_parted(layout: str) -> None:
    """Small capitals drawn as smaller capitals, each spelled lowercase by an /ActualText
    span, as browsers print them: PDFium boxes such a letter by its ink, and the side
    bearings between two inks are no word gap."""
    small = SIZE * 0.7
    content, x = "", 72.0
    for word in ("Small", "Caps", "Text", "Here"):
        content += _glyph(word[0], x, 700)
        x += _width(word[0])
        for char in word[1:]:
            capital = char.upper()
            content += _actual_text(char) + _glyph(capital, x, 700, small) + "EMC\n"
            x += _width(capital, small)
        x += _width(" ")
    text = _extract(content, layout)
    assert "Small Caps Text Here" in text, text


def _spaced_chinese(text: str, tracking: float) -> bytes:
    """``text`` each character drawn on its own, ``tracking`` em after it, in an embedded
    font of square glyphs an em wide."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    font = square_glyph_font(text)
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    x = 72.0
    for char in text:
        canvas.setFont(font, 14)
        canvas.drawString(x, 700, char)
        x += 14 * (1 + tracking)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_spread_out_chinese_reads_without_spaces(layout: str) -> None:
    """Chinese and Japanese put no spaces between words: a line spread out evenly, with a
    space made up between every two characters, shows no word gap and reads solid."""
    data = _spaced_chinese("这是一个测试文档用于检查", 0.3)
    text = goblin_core.extract(data, name="spread.pdf", ocr="never", pdf={"layout": layout}).text
    assert "这是一个测试文档用于检查" in text, text


def test_chinese_characters_in_table_cells_stay_apart() -> None:
    """One character to a cell, the cells a character or more apart: no letter spacing."""
    data = _spaced_chinese("是否是否是", 1.2)
    text = goblin_core.extract(data, name="cells.pdf", ocr="never").text
    assert "是 否 是 否 是" in text, text


PARAGRAPH = ("Harbour stones carry the weight of old ships and the tide brings copper light "
             "into the narrow streets where lanterns glow at dusk")


@pytest.fixture(scope="module")
def chrome_letter_spaced(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return chromium_pdf(f'<p style="letter-spacing: 0.35em">{PARAGRAPH}</p>',
                        tmp_path_factory.mktemp("chrome"))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_letter_spaced_text_chrome_printed_is_read_whole(chrome_letter_spaced: bytes,
                                                         layout: str) -> None:
    """PDFium breaks the line after nearly every letter of Chrome's letter-spaced text
    (``H`` / ``a`` / ``r``...): such a stretch of one line is judged as a run of letters,
    its line breaks taken back or made word gaps. It read as fragments, and poppler's
    recovery put a word out of place."""
    document = goblin_core.extract(chrome_letter_spaced, name="spaced.pdf", ocr="never",
                                   pdf={"layout": layout})
    assert " ".join(document.text.split()) == PARAGRAPH
    assert document.pages[0].engine == "pdf.pypdfium2"
    assert document.pages[0].status == "clean"
