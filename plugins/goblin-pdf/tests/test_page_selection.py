"""The pages a PDF parser reads when a range and a page count are both asked for."""

from __future__ import annotations

import pytest
from pdf_builders import helvetica_pages, saved

import goblin_core

FIVE_PAGES = saved(helvetica_pages(*(f"BT /F1 12 Tf 72 700 Td (Text of page {n}) Tj ET"
                                     for n in range(1, 6))))


@pytest.mark.parametrize("engine", ["pdf.pypdfium2", "pdf.pypdf"])
def test_pdf_max_pages_counts_from_the_first_page_of_the_range(engine: str) -> None:
    other = "pdf.pypdf" if engine == "pdf.pypdfium2" else "pdf.pypdfium2"
    document = goblin_core.extract(FIVE_PAGES, name="five.pdf", ocr="never",
                                   goblin={"page_range": "3-5"}, pdf={"max_pages": 2},
                                   engines={other: {"enabled": False}})
    assert [page.number for page in document.pages] == [3, 4]
    assert [page.engine for page in document.pages] == [engine, engine]
    assert "Text of page 3" in document.pages[0].text
    assert not [w for w in document.report.warnings if w.kind == "PageRange"]
