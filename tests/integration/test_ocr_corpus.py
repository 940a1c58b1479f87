"""Every corpus phrase that only OCR can find, found with Tesseract for real.

EXPECTED_BASIS.tsv marks the rows whose text a plain extraction cannot see
(scans, image files, garbage text layers). Each file is extracted once, with
the OCR languages its MANIFEST language tags name (as a user who knows the
document's language would set ``ocr_languages``); files whose text sits in an
image on a page that also has text are read with ``ocr="always"``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import goblin_core
from goblin_core import Document
from goblin_core.testing.corpus import (
    contains_phrase,
    corpus_dir,
    expected,
    find_corpus,
    manifest,
    require_binary,
)

#: MANIFEST language tags -> Tesseract languages.
TAG_LANGUAGES = {
    "pt-br": "por",
    "de": "deu",
    "fr": "fra",
    "cs": "ces",
    "nl": "nld",
    "ko": "kor",
    "zh": "chi_sim",
    "ja": "jpn",
}

#: Rows Tesseract cannot read with the models CI installs, each with its evidence (strict).
MODEL_MISSES: dict[tuple[str, str], str] = {}


def _rows() -> list[tuple[str, str]]:
    root = find_corpus(__file__)
    if root is None:
        return [("<corpus missing>", "")]
    return sorted({(r.file, r.phrase) for r in expected(root) if r.needs_ocr})


def _languages(features: frozenset[str]) -> str:
    codes = [TAG_LANGUAGES[tag] for tag in sorted(features) if tag in TAG_LANGUAGES]
    if "ja" in features and "vertical-text" in features:
        codes = ["jpn_vert"]
    if "ko" in features:
        codes.append("eng")  # the Korean sample mixes English headings in
    return "+".join(codes) or "por+eng"


@functools.cache
def _extract(file: str) -> Document:
    root = corpus_dir(__file__)
    features = next(r.features for r in manifest(root) if r.file == file)
    # the default strategy for every file: a page of text with an image of text in it
    # has that image read by auto OCR (ocr_image_regions), not by OCR of every page
    return goblin_core.extract(root / file, ocr_languages=_languages(features))


def _params() -> list[object]:
    params: list[object] = []
    for file, phrase in _rows():
        marks = []
        if (file, phrase) in MODEL_MISSES:
            marks.append(pytest.mark.xfail(reason=MODEL_MISSES[file, phrase], strict=True))
        params.append(pytest.param(file, phrase, marks=marks, id=f"{file}:{phrase[:30]}"))
    return params


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize(("file", "phrase"), _params())
def test_ocr_phrase_is_found(file: str, phrase: str) -> None:
    require_binary("tesseract", "tesseract-ocr")
    if file == "<corpus missing>":
        corpus_dir(__file__)
    doc = _extract(file)
    pages = [p for p in doc.pages if contains_phrase(p.text, phrase)]
    assert pages, f"{phrase!r} not in {file}: {[(p.number, p.status, p.engine) for p in doc.pages]}"
    if _tags(file) == "image-in-text":
        # read from the image alone, into the page's own text
        assert pages[0].status == "clean"
        assert any(a.engine == "ocr.tesseract" and "put into the page's text" in " ".join(a.reasons)
                   for a in pages[0].attempts)
    elif file.startswith("images/") or "garbage" not in _tags(file):
        # Scans and image files: only OCR can have read it.
        assert pages[0].engine == "ocr.tesseract"
        assert pages[0].status == "ocr"
        assert pages[0].number in doc.report.ocr_pages


def _tags(file: str) -> str:
    root = corpus_dir(__file__)
    features = next(r.features for r in manifest(root) if r.file == file)
    if "text-plus-image-of-text" in features:
        return "image-in-text"
    return "garbage" if "garbage-text-layer" in features else ""


@pytest.mark.corpus
def test_severe_cipher_page_is_ocr_d() -> None:
    """A page whose text layer is a font cipher goes to OCR after recovery fails."""
    require_binary("tesseract", "tesseract-ocr")
    path: Path = corpus_dir(__file__) / "pdf/truetype_font_nomapping.pdf"
    doc = goblin_core.extract(path)
    page = doc.pages[0]
    assert [(a.engine, a.verdict) for a in page.attempts[:2]] == [
        ("pdf.pypdfium2", "garbage"), ("pdf.pdfplumber", "garbage")]
    assert (page.status, page.engine) == ("ocr", "ocr.tesseract")
    assert doc.report.ocr_pages == (1,)
    assert contains_phrase(page.text, "Phone")


@pytest.mark.corpus
def test_glyph_numbers_read_in_the_standard_order_spare_the_page_ocr() -> None:
    """Fonts naming none of their glyphs: pdf.glyph_order gets the words back, so OCR,
    though installed, is not run on the page."""
    require_binary("tesseract", "tesseract-ocr")
    path: Path = corpus_dir(__file__) / "pdf/non_ascii_text.pdf"
    doc = goblin_core.extract(path, max_pages=1, ocr_languages="deu")
    page = doc.pages[0]
    assert page.attempts[0].verdict == "garbage"
    assert (page.status, page.engine) == ("recovered", "pdf.glyph_order")
    assert doc.report.ocr_pages == ()
    assert contains_phrase(page.text, "Spatenstich für neue Hackschnitzelheizung")


#: MANIFEST tags of languages written in Latin script other than the default ones (por+eng).
OTHER_LATIN_TAGS = frozenset({"de", "fr", "cs", "nl"})


def _other_latin_rows() -> list[tuple[str, str]]:
    root = find_corpus(__file__)
    if root is None:
        return [("<corpus missing>", "")]
    features = {r.file: r.features for r in manifest(root)}
    return sorted({(r.file, r.phrase) for r in expected(root)
                   if r.needs_ocr and features[r.file] & OTHER_LATIN_TAGS})


@functools.cache
def _extract_with_defaults(file: str) -> Document:
    return goblin_core.extract(corpus_dir(__file__) / file)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize(("file", "phrase"), _other_latin_rows())
def test_a_scan_in_another_language_is_found_without_naming_it(file: str, phrase: str) -> None:
    """Default ocr_languages (por+eng): the page's own language is found from its words and
    the page read again in it, so the accents a Portuguese or English model drops are there."""
    require_binary("tesseract", "tesseract-ocr")
    if file == "<corpus missing>":
        corpus_dir(__file__)
    doc = _extract_with_defaults(file)
    assert contains_phrase(doc.text, phrase), (
        f"{phrase!r} not in {file}: {[(p.number, p.status, p.engine) for p in doc.pages]}")
