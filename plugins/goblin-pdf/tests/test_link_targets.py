"""Where a link goes is text a reader would otherwise lose: web links whose address the
page does not print come after the page's text, as Tika lists them."""

from __future__ import annotations

from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

from goblin_core import extract


def _linked_page(shown: str, actions: list[Dictionary]) -> bytes:
    """One page printing ``shown``, with one link annotation per action over it."""
    pdf = helvetica_pages(f"BT /F1 12 Tf 60 760 Td ({shown}) Tj ET")
    pdf.pages[0].Annots = Array([pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Link, Rect=Array([60, 755, 300, 775]), A=action))
        for action in actions])
    return saved(pdf)


def _web(address: str) -> Dictionary:
    return Dictionary(S=Name.URI, URI=address)


def test_a_link_whose_address_the_page_does_not_print_follows_the_page_text() -> None:
    data = _linked_page("Read the annual report", [_web("https://example.org/report-2024.pdf")])
    page = extract(data, name="a.pdf", ocr="never").pages[0]
    assert page.text.splitlines()[0] == "Read the annual report"
    assert page.text.rstrip().endswith("https://example.org/report-2024.pdf")


def test_a_printed_address_is_not_repeated() -> None:
    shown = "See www.example.org/news for more"
    data = _linked_page(shown, [_web("http://www.example.org/news/"),
                                _web("mailto:desk@example.org")])
    text = extract(data, name="a.pdf", ocr="never").text
    assert text.count("example.org/news") == 1
    assert "mailto:desk@example.org" in text  # the page prints no e-mail address


def test_jumps_inside_the_document_and_annotation_text_off_add_nothing() -> None:
    jump = Dictionary(S=Name.GoTo, D=Array([0, Name.Fit]))
    data = _linked_page("Back to the contents", [jump])
    assert extract(data, name="a.pdf", ocr="never").text.strip() == "Back to the contents"
    data = _linked_page("Read the annual report", [_web("https://example.org/r.pdf")])
    assert "example.org" not in extract(data, name="a.pdf", ocr="never",
                                        pdf={"annotations": False}).text
