"""Reading order and tagged-PDF structure through the whole pipeline and the renderers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from goblin_core import default_registry, extract
from goblin_core.renderers import HTMLRenderer, MarkdownRenderer
from goblin_core.testing.corpus import contains_phrase, corpus_dir, manifest, phrases_for

CORPUS = corpus_dir(__file__)
LAYOUT_FILES = sorted(r.file for r in manifest(CORPUS) if r.file.startswith("pdf/")
                      and r.features & {"two-column", "tagged"} and r.password is None)


@pytest.mark.parametrize("file", LAYOUT_FILES)
def test_expected_phrases_in_plain_text_and_markdown(file: str) -> None:
    doc = extract(CORPUS / file, ocr="never")
    markdown = MarkdownRenderer().render([doc], default_registry().config())
    phrases = [r.phrase for r in phrases_for(CORPUS, file) if not r.needs_ocr]
    assert not [p for p in phrases if not contains_phrase(doc.text, p)]
    assert not [p for p in phrases if not contains_phrase(markdown, p)]


@pytest.mark.parametrize(("file", "heading"), [("pdf/pdf_structure.pdf", "# Titre 1"),
                                               ("pdf/word365_structure.pdf", "# Titre"),
                                               ("pdf/tagged.pdf", "# Heading")])
def test_headings_from_tags_are_markdown_headings(file: str, heading: str) -> None:
    doc = extract(CORPUS / file, ocr="never")
    markdown = MarkdownRenderer().render([doc], default_registry().config())
    assert heading in markdown.splitlines()
    layout = doc.raw_metadata["layout"]
    assert layout[0]["tags"].startswith("tags used")


def test_html_of_a_tagged_pdf_is_well_formed() -> None:
    doc = extract(CORPUS / "pdf/word365_structure.pdf", ocr="never")
    page = HTMLRenderer().render([doc], default_registry().config())
    body = page.split("<body>", 1)[1].rsplit("</body>", 1)[0]
    root = ET.fromstring(f"<body>{body}</body>")
    assert root.find(".//h1") is not None and root.find(".//li") is not None


def test_two_column_paper_is_reordered_and_says_so() -> None:
    doc = extract(CORPUS / "pdf/latex-multicolumn.pdf", ocr="never")
    first = doc.raw_metadata["layout"][0]
    assert first["columns"] == 2 and first["reading_order"]
    assert doc.pages[0].blocks and doc.pages[0].blocks[0].kind == "heading"


def test_raw_layout_option_keeps_pdfium_order() -> None:
    doc = extract(CORPUS / "pdf/latex-multicolumn.pdf", ocr="never", pdf={"layout": "raw"})
    assert not doc.pages[0].blocks
