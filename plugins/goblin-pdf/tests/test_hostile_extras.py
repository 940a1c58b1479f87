"""A PDF's extras (comments, links, form fields, page labels) cost what a real file's do.

An indirect string packed in a compressed object stream costs the file a few bytes per
megabyte, and one annotation, field or label may be shared by every page: each is read
per page, so each is bounded per page, and the work of a page stays linear in its
annotations.
"""

from __future__ import annotations

import io
import time

import pikepdf
import pypdfium2 as pdfium
import pytest
from pdf_builders import helvetica_pages
from pikepdf import Array, Dictionary, Name, String

from goblin_core import extract
from goblin_pdf.pdfium_page import (
    MAX_PAGE_EXTRA_CHARS,
    MAX_SHORT_CHARS,
    read_annotations,
)

_PAGE_TEXT = "BT /F1 12 Tf 60 760 Td (Quarterly report) Tj ET"


def _packed(pdf: pikepdf.Pdf) -> bytes:
    """The PDF's bytes with its objects in compressed object streams."""
    out = io.BytesIO()
    pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()


def test_a_page_label_shared_by_every_page_is_not_copied_to_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = helvetica_pages(*[_PAGE_TEXT] * 12)
    prefix = pdf.make_indirect(String("L" * 2_000_000))
    pdf.Root.PageLabels = Dictionary(Nums=Array([0, Dictionary(S=Name.D, P=prefix)]))
    data = _packed(pdf)
    assert len(data) < 50_000

    spelled: list[int] = []
    label = pdfium.raw.FPDF_GetPageLabel

    def counted(pdf: object, index: int, *rest: object) -> int:
        spelled.append(index)
        return int(label(pdf, index, *rest))

    monkeypatch.setattr(pdfium.raw, "FPDF_GetPageLabel", counted)
    document = extract(data, name="labels.pdf", ocr="never")

    assert len(document.pages) == 12
    assert all(len(page.label) <= MAX_SHORT_CHARS for page in document.pages)
    assert "Quarterly report" in document.pages[0].text
    # PDFium spells the label out to measure it: once for the document, not per page
    assert spelled == [0]


def test_a_comment_of_megabytes_shared_by_every_page_is_left_out() -> None:
    pdf = helvetica_pages(*[_PAGE_TEXT] * 6)
    contents = pdf.make_indirect(String("B" * (MAX_PAGE_EXTRA_CHARS + 1)))
    shared = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Text,
                                          Rect=Array([60, 700, 80, 720]), Contents=contents))
    for page in pdf.pages:
        note = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Text,
                                            Rect=Array([60, 650, 80, 670]),
                                            Contents="Check the totals"))
        page.Annots = Array([shared, note])

    document = extract(_packed(pdf), name="shared-comment.pdf", ocr="never")

    assert len(document.text) < 6 * 1_000
    assert all(page.text.endswith("Check the totals") for page in document.pages)


def test_comments_on_one_page_stop_at_the_page_budget() -> None:
    pdf = helvetica_pages(_PAGE_TEXT)
    pdf.pages[0].Annots = Array([
        pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Text,
                                     Rect=Array([60, 700, 80, 720]),
                                     Contents=String(letter * (MAX_PAGE_EXTRA_CHARS // 3))))
        for letter in "ABCDEF"])

    page_text = extract(_packed(pdf), name="long-comments.pdf", ocr="never").pages[0].text

    assert "A" * 100 in page_text
    assert len(page_text) <= MAX_PAGE_EXTRA_CHARS + 1_000


def test_a_field_value_of_megabytes_on_every_widget_is_left_out() -> None:
    pdf = helvetica_pages(*[_PAGE_TEXT] * 6)
    value = pdf.make_indirect(String("V" * (MAX_PAGE_EXTRA_CHARS + 1)))
    fields = Array()
    for number, page in enumerate(pdf.pages):
        huge = pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=f"Huge{number}", V=value,
            Rect=Array([60, 700, 400, 720]), F=4, P=page.obj))
        honest = pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=f"Agency{number}",
            V="Fish and Wildlife Service", Rect=Array([60, 650, 400, 670]), F=4, P=page.obj))
        page.Annots = Array([huge, honest])
        fields.extend([huge, honest])
    pdf.Root.AcroForm = Dictionary(Fields=fields)

    document = extract(_packed(pdf), name="huge-field.pdf", ocr="never")

    assert len(document.text) < 6 * 1_000
    assert "Agency3: Fish and Wildlife Service" in document.pages[3].text


def test_tens_of_thousands_of_comments_and_links_read_in_linear_time() -> None:
    pdf = helvetica_pages(_PAGE_TEXT)
    annotations = Array()
    for number in range(25_000):
        annotations.append(pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.Text, Rect=Array([60, 700, 80, 720]),
            Contents=f"comment number {number}")))
        annotations.append(pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.Link, Rect=Array([60, 600, 80, 620]),
            A=Dictionary(S=Name.URI, URI=f"https://example.com/page/{number}"))))
    pdf.pages[0].Annots = annotations
    document = pdfium.PdfDocument(_packed(pdf))
    try:
        page = document[0]
        started = time.monotonic()
        read = read_annotations(page)
        seconds = time.monotonic() - started
        page.close()
    finally:
        document.close()

    assert len(read.texts) == 25_000
    assert read.links[:2] == ("https://example.com/page/0", "https://example.com/page/1")
    # a list looked up once per annotation took over 15 s here
    assert seconds < 8

