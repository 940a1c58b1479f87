"""A hyphen ending a line is a broken word's or a compound's: ``hyphen-/ated`` is one
word again, ``well-/known`` keeps its hyphen."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_builders import chromium_pdf, reportlab_pdf

import goblin_core
from goblin_pdf.layout.hyphens import dehyphenate, mend_marked_hyphens

ENGLISH = ("The committee reviewed the results of the study and found that the {} method "
           "was better than the others, which surprised nobody working in the field.")
PORTUGUESE = ("A reunião da comissão foi marcada para a próxima {} pela manhã, na sede da "
              "prefeitura, com a presença dos secretários municipais.")
FRENCH = ("La réunion du conseil municipal aura lieu dans la salle des fêtes, et {} les "
          "habitants du quartier seront présents avec leurs familles.")
GERMAN = ("Der neue {} liegt im Norden der Stadt und wird seit dem letzten Jahr von der "
          "Gemeinde betrieben, die auch die Wartung übernommen hat.")

MENDS = pytest.mark.parametrize("mend", [
    lambda text: dehyphenate(text.replace("~", "-\n")),
    lambda text: mend_marked_hyphens(text.replace("~", "\ufffe\n")),
    lambda text: mend_marked_hyphens(text.replace("~", "\ufffe")),
], ids=["drawn hyphen", "PDFium's mark before the line break", "PDFium's mark, line joined"])


@MENDS
@pytest.mark.parametrize(("sentence", "broken", "read"), [
    (ENGLISH, "well~known", "well-known"),
    (ENGLISH, "fine~tuned", "fine-tuned"),
    (ENGLISH, "state-of-the~art", "state-of-the-art"),
    (ENGLISH, "self~publishing", "self-publishing"),
    (PORTUGUESE, "segunda~feira", "segunda-feira"),
    (FRENCH, "peut~être", "peut-être"),
    (FRENCH, "grand~mère", "grand-mère"),
])
def test_a_compound_broken_at_its_hyphen_keeps_the_hyphen(mend, sentence: str, broken: str,
                                                           read: str) -> None:
    assert read in mend(sentence.format(broken)).split()


@MENDS
@pytest.mark.parametrize(("sentence", "broken", "read"), [
    (ENGLISH, "hyphen~ated", "hyphenated"),
    (ENGLISH, "con~tinued", "continued"),
    (ENGLISH, "infor~mation", "information"),
    # both halves are words, and so is the whole
    (ENGLISH, "every~thing", "everything"),
    (PORTUGUESE, "licita~ção", "licitação"),
    (FRENCH, "dévelop~pement", "développement"),
    # halves that are English words, in a text that is not English: one German word
    (GERMAN, "Wind~park", "Windpark"),
    # the tail goes on past a combining accent
    (ENGLISH, "pro~te\u0301ge\u0301s", "prote\u0301ge\u0301s"),
])
def test_a_word_broken_at_a_line_end_is_joined(mend, sentence: str, broken: str,
                                               read: str) -> None:
    assert read in mend(sentence.format(broken)).split()


@MENDS
@pytest.mark.parametrize(("text", "read", "times"), [
    # a name no word list knows, run together elsewhere on the page
    ("Run the tests under fakeroot first; the files of fake~root are in /usr/share.",
     "fakeroot", 2),
    # a compound no word list judges, written whole elsewhere on the page
    ("Only FAA-approved parts were used, and the FAA~approved manual says where.",
     "FAA-approved", 2),
    # the word lists lack dataset; the page writes its plural
    ("We release two datasets today, and the larger data~set has ten parts.", "dataset", 1),
])
def test_the_pages_own_words_say_how_a_word_broken_at_its_hyphen_is_written(
        mend, text: str, read: str, times: int) -> None:
    assert mend(text).split().count(read) == times


@pytest.mark.parametrize("hyphen", ["\u00ad", "\u2010"])
def test_a_hyphen_a_layout_engine_draws_at_a_break_joins_whatever_the_halves(hyphen: str) -> None:
    """A soft hyphen or U+2010 ends a line only where a word was broken."""
    text = mend_marked_hyphens(ENGLISH.format(f"well{hyphen}\nknown"))
    assert "wellknown" in text.split()


def _read(lines: tuple[str, ...], layout: str) -> goblin_core.Document:
    """``lines`` drawn one under the other in Helvetica, read in ``layout`` mode."""
    pytest.importorskip("reportlab")
    return goblin_core.extract(reportlab_pdf(lines), name="compounds.pdf", ocr="never",
                               pdf={"layout": layout})


@pytest.mark.parametrize("layout", ["auto", "reading_order", "raw"])
def test_a_pdf_page_keeps_compounds_and_mends_broken_words(layout: str) -> None:
    document = _read((
        "The committee reviewed the results of the well-",
        "known study and found that the hyphen-",
        "ated spelling was rarer than the others, which",
        "surprised nobody working in the fine-",
        "tuned field of spelling research.",
    ), layout)
    words = document.text.split()
    assert "well-known" in words
    assert "hyphenated" in words
    assert "fine-tuned" in words
    assert document.pages[0].status == "clean"


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_a_compound_written_whole_in_another_paragraph_keeps_its_hyphen(layout: str) -> None:
    """The page's words judge a hyphen, not only those of the paragraph it ends a line of:
    ``noncompliance`` is an English word, but this page writes ``non-compliance``."""
    document = _read((
        "The rights granted under this License end if such Contributor fails to notify",
        "You of the non-",
        "compliance by some reasonable means within sixty days after it began.",
        "",
        "Your grants are reinstated on an ongoing basis if such Contributor notifies",
        "You of the non-compliance by some reasonable means before that day.",
    ), layout)
    assert document.text.split().count("non-compliance") == 2
    assert "noncompliance" not in document.text


@pytest.mark.parametrize("marked_content", ["tags", "none"])
def test_a_tagged_paragraphs_compound_is_judged_by_the_whole_page(marked_content: str,
                                                                  tmp_path: Path) -> None:
    """Read by the structure tree or rebuilt from glyphs, a paragraph's hyphen is judged by
    the words of the page: the next paragraph writes ``non-compliance`` whole."""
    data = chromium_pdf(
        "<p>The rights granted under this License end if such Contributor fails to notify "
        "You of the non-<br>compliance by some reasonable means within sixty days.</p>"
        "<p>Your grants are reinstated on an ongoing basis if such Contributor notifies You "
        "of the non-compliance by some reasonable means before that day.</p>", tmp_path)
    document = goblin_core.extract(data, name="licence.pdf", ocr="never",
                                   pdf={"layout": "reading_order",
                                        "marked_content": marked_content})
    assert document.text.split().count("non-compliance") == 2
