"""Broken text layers are never reported clean; good ones always are (OCR off)."""

from __future__ import annotations

from collections import Counter

import pytest
from corpus_runs import CORPUS, NOT_CLEAN_FEATURES, extracted, has_unreadable_pages, pdf_rows

from goblin_core import Document, extract
from goblin_core.testing.corpus import contains_phrase, corpus_dir, phrases_for

#: Garbage text layers the validators cannot see without OCR, with the reason.
UNDETECTED: dict[str, str] = {}


def _garbage_files() -> list[object]:
    return [
        pytest.param(r.file, marks=[pytest.mark.xfail(strict=True, reason=UNDETECTED[r.file])]
                     if r.file in UNDETECTED else [])
        for r in pdf_rows() if "garbage-text-layer" in r.features
    ] or ["corpus-missing"]


def _clean_files() -> list[str]:
    return [r.file for r in pdf_rows() if not has_unreadable_pages(r)]


#: Every engine but the first, so what PDFium alone reads can be looked at.
_PDFIUM_ONLY = {name: {"enabled": False} for name in (
    "pdf.pypdf", "pdf.pdfplumber", "pdf.poppler", "pdf.glyph_order", "pdf.byte_order")}


def _flag_was_right(file: str, document: Document) -> bool:
    """Whether a PDF the validators flagged is one whose text PDFium does not read right:
    PDFium alone misses an EXPECTED phrase that the flagged reading has, or the flagged
    reading keeps every character PDFium alone gives and adds letters PDFium never gives
    (words it left out). Its fonts may be fine (Japanese in a standard font the PDF does
    not embed, which PDFium has no character map for); a page that reads wrong is not a
    false positive for that."""
    assert CORPUS is not None
    phrases = [row.phrase for row in phrases_for(CORPUS, file)]
    alone = extract(CORPUS / file, ocr="never", engines=_PDFIUM_ONLY).text
    if any(contains_phrase(document.text, phrase) and not contains_phrase(alone, phrase)
           for phrase in phrases):
        return True
    flagged, pdfium = (Counter(c for c in text if not c.isspace())
                       for text in (document.text, alone))
    return not pdfium - flagged and any(c.isalpha() for c in set(flagged) - set(pdfium))


@pytest.mark.corpus
@pytest.mark.parametrize("file", _garbage_files())
def test_garbage_text_layer_is_not_clean(file: str) -> None:
    corpus_dir(__file__)
    document = extracted(file)
    assert document.status != "clean", [(p.number, p.status, p.text[:60]) for p in document.pages]


@pytest.mark.corpus
def test_no_false_positives_on_good_text_layers() -> None:
    corpus_dir(__file__)
    files = _clean_files()
    assert len(files) > 50
    false_positives = []
    for file in files:
        document = extracted(file)
        if document.status != "clean" and not _flag_was_right(file, document):
            bad = [(p.number, p.status, p.reasons) for p in document.pages
                   if p.status not in ("clean", "empty")]
            false_positives.append((file, bad[:3]))
    assert false_positives == []


@pytest.mark.corpus
def test_font_tags_without_corruption_stay_clean() -> None:
    corpus_dir(__file__)
    font_tagged = [r.file for r in pdf_rows()
                   if r.features & {"no-tounicode", "differences"}
                   and not r.features & NOT_CLEAN_FEATURES]
    assert len(font_tagged) >= 10
    flagged = [(f, extracted(f)) for f in font_tagged]
    assert [f for f, document in flagged
            if document.status != "clean" and not _flag_was_right(f, document)] == []


@pytest.mark.corpus
def test_garbage_page_keeps_its_reason_and_engine() -> None:
    corpus_dir(__file__)
    document = extracted("pdf/type3_font_nomapping.pdf")
    page = document.pages[0]
    assert page.status == "corrupt"
    engines = {a.engine for a in page.attempts}
    assert {"pdf.pypdfium2", "pdf.pdfplumber"} <= engines


@pytest.mark.corpus
def test_font_pdfium_cannot_map_is_recovered_by_pdfplumber() -> None:
    corpus_dir(__file__)
    page = extracted("pdf/issue-791-non-unicode-cmap.pdf").pages[0]
    assert page.status == "recovered"
    assert page.engine == "pdf.pdfplumber"
    assert "Peněžní prostředky" in page.text
