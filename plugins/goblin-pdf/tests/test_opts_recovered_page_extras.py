"""A page a recovery engine reads again keeps its comments, form values and the outline.

The parser gives them apart from what the page draws; pdfplumber, pdftotext and the glyph
rereadings read only what it draws, so when their text wins, the core must still write them
after it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pdf_builders import identity_font_pdf, mac_cmap_font_pdf, with_note_and_outline

from goblin_core import extract

COMMENT = "Reviewer remark about clause seven"
VALUE = "Maria Oliveira"
BOOKMARK = "Bookmark to the notice"


def _with_comment_field_and_outline(page_pdf: bytes) -> bytes:
    return with_note_and_outline(page_pdf, COMMENT, BOOKMARK, {"signer": VALUE})


@pytest.mark.parametrize("page_pdf", [identity_font_pdf, mac_cmap_font_pdf],
                         ids=["identity-font", "mac-code-page"])
def test_a_recovered_page_keeps_its_comment_field_value_and_outline(
        page_pdf: Callable[[], bytes]) -> None:
    document = extract(_with_comment_field_and_outline(page_pdf()), name="notice.pdf",
                       ocr="never")
    page = document.pages[0]
    assert page.status == "recovered", (page.status, page.engine)
    assert page.engine != "pdf.pypdfium2"
    assert "A Prefeitura Municipal torna" in page.text
    assert COMMENT in page.text
    assert f"signer: {VALUE}" in page.text
    assert BOOKMARK in page.text
    for added in (COMMENT, VALUE, BOOKMARK):
        assert page.text.count(added) == 1, page.text


@pytest.mark.parametrize("engine", ["pdf.pdfplumber", "pdf.poppler"])
def test_each_recovery_engine_brings_the_additions(engine: str) -> None:
    """With the other recovery engines off, the one left brings them too."""
    others = {name: {"enabled": False} for name in
              ("pdf.pdfplumber", "pdf.poppler", "pdf.glyph_order", "pdf.byte_order")
              if name != engine}
    document = extract(_with_comment_field_and_outline(mac_cmap_font_pdf()),
                       name="notice.pdf", ocr="never", engines=others)
    page = document.pages[0]
    assert page.engine == engine, (page.status, page.engine)
    assert COMMENT in page.text and f"signer: {VALUE}" in page.text and BOOKMARK in page.text
