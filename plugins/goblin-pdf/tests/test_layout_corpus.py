"""The layout reader on the corpus's multi-column papers and tagged PDFs."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pypdfium2 as pdfium
import pytest

from goblin_core.testing.corpus import contains_phrase, corpus_dir, manifest, phrases_for
from goblin_pdf.layout import LayoutSettings, PageLayout, read_page_layout
from goblin_pdf.layout.accents import SPACING_TO_COMBINING

CORPUS = corpus_dir(__file__)
LAYOUT_FILES = sorted(r.file for r in manifest(CORPUS) if r.file.startswith("pdf/")
                      and r.features & {"two-column", "tagged"})
PASSWORDS = {r.file: r.password for r in manifest(CORPUS)}


def _pages(file: str, settings: LayoutSettings) -> list[PageLayout]:
    pdf = pdfium.PdfDocument(str(CORPUS / file), password=PASSWORDS.get(file))
    try:
        layouts = []
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            layouts.append(read_page_layout(page, textpage, textpage.get_text_range(), settings,
                                            tagged=bool(pdf.is_tagged())))
            textpage.close()
            page.close()
        return layouts
    finally:
        pdf.close()


@pytest.mark.parametrize("mode", ["auto", "reading_order"])
@pytest.mark.parametrize("file", LAYOUT_FILES)
def test_expected_phrases_survive_the_layout_reader(file: str, mode: str) -> None:
    text = "\n".join(p.text for p in _pages(file, LayoutSettings(layout=mode)))
    phrases = [r.phrase for r in phrases_for(CORPUS, file) if not r.needs_ocr]
    missing = [p for p in phrases if not contains_phrase(text, p)]
    assert not missing, f"{file} ({mode}) lost {missing}"


@pytest.mark.parametrize("file", ["pdf/latex-multicolumn.pdf", "pdf/multi-column-2p.pdf",
                                  "pdf/two_column.pdf"])
def test_multi_column_papers_are_found_to_have_columns(file: str) -> None:
    pages = _pages(file, LayoutSettings())
    assert pages[0].columns >= 2 and pages[0].reordered


def test_tex_accent_in_an_author_name_is_composed() -> None:
    text = "\n".join(p.text for p in _pages("pdf/multi-column-2p.pdf", LayoutSettings()))
    assert "Barlas Oğuz" in text and "O˘guz" not in text


@pytest.mark.parametrize(("file", "heading"), [("pdf/pdf_structure.pdf", "Titre 1"),
                                               ("pdf/word365_structure.pdf", "Titre"),
                                               ("pdf/tagged.pdf", "Heading")])
def test_headings_come_from_the_structure_tree(file: str, heading: str) -> None:
    pages = _pages(file, LayoutSettings())
    assert pages[0].tags.used, pages[0].tags.describe()
    headings = [b.text for p in pages for b in p.blocks if b.kind == "heading"]
    assert heading in headings


def test_structure_tree_lists_become_list_items() -> None:
    blocks = _pages("pdf/word365_structure.pdf", LayoutSettings())[0].blocks
    items = [b.text for b in blocks if b.kind == "list_item"]
    assert any("Liste numérotée" in t for t in items) and len(items) >= 4


def test_untagged_pages_say_why_tags_were_not_used() -> None:
    page = _pages("pdf/latex-multicolumn.pdf", LayoutSettings())[0]
    assert not page.tags.used and page.tags.describe() == "tags not used: untagged"


def test_corpus_is_where_the_manifest_says() -> None:
    assert LAYOUT_FILES and all((CORPUS / f).is_file() for f in LAYOUT_FILES)


def _letters(text: str) -> Counter[str]:
    # accents are compared once decomposed; spacing accents become combining marks and
    # line-end hyphens are mended, so neither counts
    skip = {"-", "\ufffe", *SPACING_TO_COMBINING}
    return Counter(c for c in unicodedata.normalize("NFD", text)
                   if not c.isspace() and c not in skip and not unicodedata.combining(c))


@pytest.mark.parametrize("file", LAYOUT_FILES)
def test_reading_order_keeps_every_character_pdfium_reads(file: str) -> None:
    settings = LayoutSettings(layout="reading_order", marked_content="none",
                              suppress_duplicate_text=False)
    pdf = pdfium.PdfDocument(str(CORPUS / file), password=PASSWORDS.get(file))
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            raw = textpage.get_text_range()
            text = read_page_layout(page, textpage, raw, settings).text
            lost = _letters(raw) - _letters(text)
            assert sum(lost.values()) <= 2, f"{file} page {index + 1} lost {dict(lost)}"
    finally:
        pdf.close()


@pytest.mark.parametrize(("file", "word"), [
    ("pdf/testPDF_bad_page_303226.pdf", "periodic reports"),
    ("pdf/minimal-document.pdf", "takimata"),
    ("pdf/issue-1061-colour-space-stack.pdf", "Differential Privacy"),
])
def test_line_end_hyphens_and_ligatures_come_out_as_words(file: str, word: str) -> None:
    """PDFium marks a hyphen it found at a line end as U+FFFE, a noncharacter no word
    search matches; the layout reader took the second "f" of an "ffi" ligature (same
    box, next index) for a bold copy of the first. Both paths give the whole word."""
    import goblin_core

    for layout in ("raw", "auto", "reading_order"):
        document = goblin_core.extract(CORPUS / file, ocr="never", pdf={"layout": layout})
        assert "\ufffe" not in document.text, layout
        if layout != "reading_order":  # forced on every page, it may part a word's lines
            assert word in " ".join(document.text.split()), layout


def test_glyph_boxes_stay_with_their_characters_when_pdfium_leaves_some_out() -> None:
    """PDFium leaves characters out of the page text it gives (here a TeX font's hyphen
    and epsilon, mapped to U+0002), so that text is shorter than the character count.
    Read as if it were one unit per index, every later box went to the wrong
    character: spaces inside words, words run together."""
    import pypdfium2.raw as pdfium_c

    from goblin_pdf.layout.glyphs import read_glyphs

    pdf = pdfium.PdfDocument(str(CORPUS / "pdf/issue-1061-colour-space-stack.pdf"))
    try:
        page = pdf[1]
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        assert len(text) < textpage.count_chars()  # the case this test is about
        glyphs = read_glyphs(page, textpage)
        for index in range(textpage.count_chars()):
            at = pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, index)
            want = text[at] if at >= 0 else "\x00"
            assert glyphs.text[index] == want, index
    finally:
        pdf.close()
    layout = goblin_core_text("pdf/issue-1061-colour-space-stack.pdf", "reading_order")
    assert "\x02" not in layout and "Section II provides background" in layout


def goblin_core_text(file: str, layout: str) -> str:
    import goblin_core

    document = goblin_core.extract(CORPUS / file, ocr="never", pdf={"layout": layout})
    return " ".join(document.text.split())


def test_unmapped_glyphs_are_counted_where_pdfium_left_characters_out() -> None:
    """On issue-1061's seventh page PDFium leaves 42 characters out of its text, so
    positions in the text are not character indices: the four U+0006 and three U+0004
    glyphs PDFium flags as unmapped were looked up at the wrong characters and none
    counted."""
    from goblin_pdf.pdfium_page import _unmapped

    pdf = pdfium.PdfDocument(str(CORPUS / "pdf/issue-1061-colour-space-stack.pdf"))
    try:
        textpage = pdf[6].get_textpage()
        text = textpage.get_text_range()
        assert textpage.count_chars() - len(text) == 42
        assert _unmapped(textpage, text) == 7
    finally:
        pdf.close()
