"""Text drawn invisible (render mode 3 or 7): kept in the page text, counted in
``Page.hidden_chars``, which tells an OCR layer over a scan and words a reader never sees."""

from __future__ import annotations

import pytest
from corpus_runs import CORPUS, extracted, has_unreadable_pages, pdf_rows
from pdf_builders import helvetica_pages, saved

from goblin_core import extract

PROSE = "The committee approved the budget for the coming year after a long debate"


def _lines(text: str, count: int, mode: int = 0) -> str:
    shown = " ".join(f"({text} {n}) Tj 0 -14 Td" for n in range(count))
    return f"BT {mode} Tr /F1 11 Tf 40 800 Td {shown} ET"


def _non_space(text: str) -> int:
    return sum(not c.isspace() for c in text)


def test_invisible_text_is_read_and_counted_on_its_own_page() -> None:
    pdf = helvetica_pages(
        "BT /F1 12 Tf 72 720 Td (Visible words on the page) Tj ET "
        "BT 3 Tr /F1 12 Tf 72 700 Td (Hidden words) Tj ET",
        "BT 7 Tr /F1 12 Tf 72 720 Td (Clipping text) Tj ET",
        "BT 2 Tr /F1 12 Tf 72 720 Td (Filled and stroked) Tj ET",
    )
    document = extract(saved(pdf), name="hidden.pdf", ocr="never")
    assert "Hidden words" in document.pages[0].text
    assert "Clipping text" in document.pages[1].text
    assert [p.hidden_chars for p in document.pages] == [
        _non_space("Hidden words"), _non_space("Clipping text"), 0]
    assert [p.status for p in document.pages] == ["clean"] * 3


def test_a_whole_page_drawn_invisible_is_counted_in_full() -> None:
    """An OCR layer is all of its page: the sample finds it and every character counts."""
    layer, visible = _lines(PROSE, 40, mode=3), _lines(PROSE, 40)
    document = extract(saved(helvetica_pages(layer, visible)), name="layer.pdf", ocr="never")
    layer_page, visible_page = document.pages
    assert layer_page.hidden_chars == _non_space(layer_page.text) > 2000
    assert visible_page.hidden_chars == 0


def test_hidden_chars_survive_the_json_round_trip() -> None:
    pdf = helvetica_pages("BT 3 Tr /F1 12 Tf 72 720 Td (Hidden words) Tj ET")
    document = extract(saved(pdf), name="hidden.pdf", ocr="never")
    data = document.to_dict()
    assert data["pages"][0]["hidden_chars"] == 11
    assert type(document).from_dict(data).pages[0].hidden_chars == 11


@pytest.mark.skipif(CORPUS is None, reason="the shared corpus is not present")
def test_every_ocr_text_layer_pdf_shows_its_layer_and_no_born_digital_pdf_has_one() -> None:
    """MANIFEST's ocr-text-layer PDFs carry an OCR drawn invisible on most of each page's
    text; a PDF of ordinary pages (no OCR layer, no scanned pages) has no invisible text."""
    layered = [r for r in pdf_rows() if "ocr-text-layer" in r.features]
    assert layered
    for row in layered:
        pages = extracted(row.file).pages
        assert any(p.hidden_chars >= 0.5 * _non_space(p.text) > 0 for p in pages), row.file
    plain = [r for r in pdf_rows()
             if "ocr-text-layer" not in r.features and not has_unreadable_pages(r)]
    assert len(plain) > 50
    shown = {r.file: [p.number for p in extracted(r.file).pages if p.hidden_chars]
             for r in plain}
    assert {f: n for f, n in shown.items() if n} == {}
