"""pdf.glyph_order: fonts that name none of their glyphs, read through the standard
TrueType glyph order."""

from __future__ import annotations

import pytest
from pdf_builders import PROSE_LINES, _vera, identity_font_pdf

from goblin_core import extract
from goblin_core.testing.corpus import corpus_dir
from goblin_pdf.glyph_order import glyph_text, unnamed_truetype

ENGLISH_LINES = (
    "The committee met on Tuesday to review the annual budget and the plans for",
    "the new library building. Members agreed that the reading rooms should open",
    "in the spring, and asked the director to report on the cost of the heating",
    "system before the next meeting. The minutes were approved without changes.",
) * 3


def _page(data: bytes, name: str) -> object:
    document = extract(data, name=name, ocr="never")
    assert len(document.pages) == 1
    return document.pages[0]


def test_a_font_without_any_character_map_is_read_through_the_standard_order() -> None:
    page = _page(identity_font_pdf(ENGLISH_LINES, font_cmap=False), "unnamed.pdf")
    assert page.status == "recovered"
    assert page.engine == "pdf.glyph_order"
    assert "The committee met on Tuesday to review the annual budget" in page.text
    # PDFium's own reading was glyph numbers: garbage, not a text to keep
    assert page.attempts[0].engine == "pdf.pypdfium2"
    assert page.attempts[0].verdict == "garbage"


def test_accented_letters_come_back_too() -> None:
    page = _page(identity_font_pdf(PROSE_LINES, font_cmap=False), "accents.pdf")
    assert page.engine == "pdf.glyph_order"
    assert "rede municipal de ensino, conforme especificações" in page.text
    assert "aquisição de materiais de limpeza" in page.text


@pytest.mark.parametrize("shift", [1, -1])
def test_a_font_whose_letters_sit_one_glyph_off_is_read_in_step(shift: int) -> None:
    page = _page(identity_font_pdf(ENGLISH_LINES, font_cmap=False, glyph_shift=shift),
                 "shifted.pdf")
    assert page.engine == "pdf.glyph_order"
    assert "the new library building" in page.text


LIGATURE_LINES = (
    "The ﬁlm club met on Tuesday to review the annual budget and the plans for the",
    "new library building. Members agreed that the ﬁrst ﬂoor should open in spring",
    "and asked the director to report on the cost of the heating system before the",
    "next meeting; the ﬁnal ﬁgures were approved, and the ﬂyers were reprinted.",
) * 2


def _vera_glyphs(**ligatures: int) -> dict[int, int]:
    from reportlab.pdfbase.ttfonts import TTFontFile

    glyphs = dict(TTFontFile(str(_vera())).charToGlyph)
    glyphs.update({ord("\ufb01"): ligatures["fi"], ord("\ufb02"): ligatures["fl"]})
    return glyphs


@pytest.mark.parametrize(("fi", "fl"), [(192, 193), (191, 192)])
def test_ligatures_read_as_their_letters_where_the_font_keeps_them(fi: int, fl: int) -> None:
    # (191, 192): a font with one rare glyph fewer before its ligatures than the standard
    # order, which read "›lm" and "ﬁoor" for "film" and "floor"
    page = _page(identity_font_pdf(LIGATURE_LINES, font_cmap=False,
                                   glyph_of=_vera_glyphs(fi=fi, fl=fl)), "ligatures.pdf")
    assert page.engine == "pdf.glyph_order"
    text = " ".join(page.text.split())
    assert "The film club met" in text
    assert "the first floor should open" in text
    assert "the final figures were approved, and the flyers were reprinted" in text


def test_a_closing_guillemet_stays_one() -> None:
    lines = tuple(line.replace("annual budget", "\u2039annual\u203a budget")
                  for line in LIGATURE_LINES)
    glyphs = _vera_glyphs(fi=192, fl=193)
    glyphs.update({0x2039: 190, 0x203A: 191})
    page = _page(identity_font_pdf(lines, font_cmap=False, glyph_of=glyphs), "quoted.pdf")
    text = " ".join(page.text.split())
    assert "review the \u2039annual\u203a budget" in text
    assert "The film club met" in text


def test_a_renumbered_subset_is_not_passed_off_as_text() -> None:
    # glyphs numbered in order of first use: the standard order reads nonsense, which the
    # validators reject, so the page keeps its garbage verdict (OCR is its remedy)
    numbering: dict[int, int] = {}
    for char in "".join(ENGLISH_LINES):
        numbering.setdefault(ord(char), len(numbering) + 1)
    page = _page(identity_font_pdf(ENGLISH_LINES, font_cmap=False, glyph_of=numbering),
                 "renumbered.pdf")
    assert page.status == "corrupt"
    assert page.engine != "pdf.glyph_order"
    tried = {a.engine: a.verdict for a in page.attempts}
    assert tried["pdf.glyph_order"] == "garbage"


def test_a_font_with_its_own_cmap_is_left_to_the_engines_that_read_it() -> None:
    page = _page(identity_font_pdf(ENGLISH_LINES), "named.pdf")
    assert page.engine == "pdf.pdfplumber"
    assert "pdf.glyph_order" not in {a.engine for a in page.attempts if a.verdict}


def test_only_truetype_programs_without_a_cmap_count_as_unnamed() -> None:
    from pdf_builders import _without_cmap

    assert not unnamed_truetype(_vera().read_bytes())
    assert unnamed_truetype(_without_cmap(_vera()))
    assert not unnamed_truetype(b"OTTO" + bytes(40))  # CFF outlines carry glyph names
    assert not unnamed_truetype(b"\x00\x01\x00\x00\xff\xff")  # truncated directory
    assert not unnamed_truetype(b"")


def test_glyph_numbers_past_the_standard_table_are_marked_unknown() -> None:
    assert glyph_text([3, 36, 300]) == " A\ufffd"


@pytest.mark.corpus
def test_the_corpus_file_set_in_such_fonts_reads_without_ocr() -> None:
    document = extract(corpus_dir(__file__) / "pdf" / "non_ascii_text.pdf", ocr="never")
    assert "Spatenstich für neue Hackschnitzelheizung" in document.text
    assert "Nachhaltige Wärmeversorgung in der Ortsmitte" in document.text
    assert {p.engine for p in document.pages[:15]} == {"pdf.glyph_order"}
