"""Every corpus PDF: no crash, and the EXPECTED phrases are in the text (OCR off).

Allowed misses: rows EXPECTED_BASIS marks as needing OCR (strict xfail, so a
row we start finding fails loudly and gets promoted), and the few rows listed
in KNOWN_MISSES, each with its reason.
"""

from __future__ import annotations

import pytest
from corpus_runs import CORPUS, all_text, extracted, pdf_rows

from goblin_core.errors import CorruptDocument
from goblin_core.testing.corpus import contains_phrase, corpus_dir, expected

#: Needs-OCR rows that the text layer alone does not give (no OCR in this session).
OCR_ONLY = {
    "pdf/qd-diario-oficial-pratania-scan-p2-p7.pdf", "pdf/image_only_german_pdf.pdf",
    "pdf/ocr_test.pdf", "pdf/ocr_test_rotated_90.pdf", "pdf/tika-testOCR.pdf", "pdf/c02-22.pdf",
    "pdf/francais.pdf", "pdf/skew.pdf", "pdf/MEDRPT-2024-PAT-3847_medical_report_scan.pdf",
    "pdf/pdf_scanned_invoice.pdf", "pdf/loremipsum-flat.pdf",
    "pdf/table-multi-row-column-cells.pdf", "pdf/pdf_image_middle.pdf",
    "pdf/truetype_font_nomapping.pdf",
    "pdf/testPDF_JBIG2.pdf", "pdf/multipage-mixed.pdf",
}

#: At most three misses that OCR would not explain, each with its reason.
KNOWN_MISSES: dict[tuple[str, str], str] = {}


def _rows() -> list[object]:
    if CORPUS is None:
        return [pytest.param(None, None, id="corpus-missing")]
    params = []
    for row in expected(CORPUS):
        if not row.file.startswith("pdf/"):
            continue
        marks = []
        if row.needs_ocr and row.file in OCR_ONLY:
            marks.append(pytest.mark.xfail(strict=True, reason="needs OCR (EXPECTED_BASIS)"))
        if (row.file, row.phrase) in KNOWN_MISSES:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[row.file, row.phrase]))
        params.append(pytest.param(row.file, row.phrase, marks=marks,
                                   id=f"{row.file[4:]}:{row.phrase[:30]}"))
    return params


@pytest.mark.corpus
@pytest.mark.parametrize(("file", "phrase"), _rows())
def test_expected_phrase_is_extracted(file: str | None, phrase: str | None) -> None:
    corpus_dir(__file__)
    assert file is not None and phrase is not None
    assert contains_phrase(all_text(extracted(file)), phrase)


def test_known_misses_are_few_and_not_ocr_rows() -> None:
    assert len(KNOWN_MISSES) <= 3
    root = corpus_dir(__file__)
    needs_ocr = {r.file for r in expected(root) if r.needs_ocr}
    assert needs_ocr >= OCR_ONLY, "every OCR-only file must be marked so in EXPECTED_BASIS"


@pytest.mark.corpus
@pytest.mark.parametrize("file", [r.file for r in pdf_rows()] or ["corpus-missing"])
def test_every_corpus_pdf_extracts_or_fails_clearly(file: str) -> None:
    corpus_dir(__file__)
    row = next(r for r in pdf_rows() if r.file == file)
    if "corrupt" in row.features and "pages=" not in ";".join(row.features):
        with pytest.raises(CorruptDocument, match="no installed parser could read it"):
            extracted(file)
        return
    document = extracted(file)
    assert document.pages, f"{file}: no pages"
    assert document.metadata["page_count"] >= 1
