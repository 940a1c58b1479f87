"""A page of thousands of form widgets, and one file attached from a thousand pages: read
in bounded time, each attached file decoded once."""

from __future__ import annotations

import io
import time
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name, String

import goblin_core
from goblin_core import extract
from goblin_core.source import Source
from goblin_pdf.pdfium_page import MAX_FORM_LOOKUPS, form_field_texts
from goblin_pdf.pdfium_parser import MAX_FORM_WIDGETS


def _widgets_pdf(count: int) -> bytes:
    """One page of ``count`` text fields, each its own widget with its own value."""
    pdf = helvetica_pages("BT /F1 24 Tf 72 720 Td (Form page) Tj ET")
    page = pdf.pages[0]
    widgets = Array()
    for number in range(count):
        widgets.append(pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.Widget, Rect=Array([72, 600, 300, 620]),
            P=page.obj, FT=Name.Tx, T=String(f"field{number}"), V=String(f"value {number}"))))
    page.Annots = widgets
    pdf.Root.AcroForm = Dictionary(Fields=widgets)
    return saved(pdf)


def test_a_page_of_thousands_of_widgets_looks_few_up_through_the_form(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # PDFium goes through all of the form's fields for each widget it looks up: 30,000
    # widgets took 76 s
    count = MAX_FORM_LOOKUPS + 3000
    pdf = pdfium.PdfDocument(_widgets_pdf(count))
    pdf.init_forms()
    lookups = 0
    real = pdfium_c.FPDFAnnot_GetFormFieldValue

    def counted(*args: Any) -> int:
        nonlocal lookups
        lookups += 1
        result: int = real(*args)
        return result

    monkeypatch.setattr(pdfium_c, "FPDFAnnot_GetFormFieldValue", counted)
    page = pdf[0]
    try:
        texts = form_field_texts(page, pdf.formenv)
    finally:
        page.close()
        pdf.close_forms()
        pdf.close()
    assert lookups <= 2 * MAX_FORM_LOOKUPS  # utf16_text calls twice: to measure, to copy
    # the widgets past the lookups still give their own values
    assert len(texts) == count
    assert texts[0] == "field0: value 0" and texts[-1] == f"field{count - 1}: value {count - 1}"


def _shared_attachment_pdf(pages: int, shared_specification: bool) -> bytes:
    """``pages`` pages, each with a file-attachment annotation of one 64 kB file: one
    file specification for all, or one each naming the same embedded stream."""
    pdf = helvetica_pages(*(f"BT /F1 12 Tf 60 760 Td (Page {n}) Tj ET"
                            for n in range(1, pages + 1)))
    stream = pdf.make_stream(b"Minutes of the board meeting. " * 2200, Type=Name.EmbeddedFile)

    def specification() -> pikepdf.Object:
        return pdf.make_indirect(Dictionary(Type=Name.Filespec, F="minutes.txt",
                                            UF="minutes.txt", EF=Dictionary(F=stream)))

    shared = specification()
    for page in pdf.pages:
        page.Annots = Array([pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.FileAttachment, Rect=Array([40, 700, 60, 720]),
            FS=shared if shared_specification else specification(), Name=Name.PushPin))])
    return saved(pdf)


def _decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts PDFium's decodes of attached files (each call to FPDFAttachment_GetFile)."""
    calls: list[int] = []
    real = pdfium_c.FPDFAttachment_GetFile

    def counted(*args: Any) -> int:
        calls.append(1)
        result: int = real(*args)
        return result

    monkeypatch.setattr(pdfium_c, "FPDFAttachment_GetFile", counted)
    return calls


def test_one_file_specification_attached_from_every_page_is_decoded_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = _shared_attachment_pdf(1000, shared_specification=True)
    calls = _decodes(monkeypatch)
    document = extract(data, name="board.pdf", ocr="never")
    assert [c.name for c in document.children] == ["board.pdf/minutes.txt"]
    assert len(calls) <= 2  # measured, then copied out: it was three times per page


def test_copies_of_one_file_count_against_the_member_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a file specification each, naming one stream: each is decoded before it is known the
    # same, so the copies count as members and stop at limits.max_members
    data = _shared_attachment_pdf(300, shared_specification=False)
    calls = _decodes(monkeypatch)
    document = extract(data, name="board.pdf", ocr="never", max_members=100)
    assert [c.name for c in document.children] == ["board.pdf/minutes.txt"]
    assert len(calls) <= 2 * 100 + 1  # the copy past the limit is measured, not copied
    assert any("limits.max_members" in e.message for e in document.report.errors)


def _spread_widgets_pdf(pages: int, per_page: int) -> bytes:
    """``pages`` pages of ``per_page`` text fields each, the objects packed in object
    streams (compressed, as most writers keep them)."""
    pdf = helvetica_pages(*(f"BT /F1 24 Tf 72 720 Td (Form page {n}) Tj ET"
                            for n in range(1, pages + 1)))
    fields = Array()
    for number, page in enumerate(pdf.pages, start=1):
        widgets = Array()
        for field in range(per_page):
            widget = pdf.make_indirect(Dictionary(
                Type=Name.Annot, Subtype=Name.Widget, Rect=Array([72, 600, 300, 620]),
                P=page.obj, FT=Name.Tx, T=String(f"p{number}f{field}"),
                V=String(f"value {number}.{field}")))
            widgets.append(widget)
            fields.append(widget)
        page.Annots = widgets
    pdf.Root.AcroForm = Dictionary(Fields=fields)
    out = io.BytesIO()
    pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()


def test_a_form_of_more_widgets_than_the_limit_is_not_loaded_and_its_values_are_read() -> None:
    # PDFium lists a form's fields on the first page load in time growing with the square
    # of their number: 20,000 took 7.6 s, spread over pages or not
    per_page = MAX_FORM_WIDGETS // 4 + 100
    data = _spread_widgets_pdf(4, per_page)
    registry = goblin_core.default_registry()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(data, "form.pdf"), registry.config()) as parsed:
        assert parsed.pdf.formenv is None
        [(kind, message)] = parsed.warnings
    assert kind == "FormNotLoaded" and f"{4 * per_page:,} field widgets" in message
    started = time.monotonic()
    document = extract(data, name="form.pdf", ocr="never")
    assert time.monotonic() - started < 20
    assert "p1f0: value 1.0" in document.pages[0].text
    assert f"p4f{per_page - 1}: value 4.{per_page - 1}" in document.pages[3].text
    assert "FormNotLoaded" in [warning.kind for warning in document.report.warnings]


def test_a_form_within_the_limit_is_loaded() -> None:
    registry = goblin_core.default_registry()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(_spread_widgets_pdf(2, 50), "form.pdf"),
                     registry.config()) as parsed:
        assert parsed.pdf.formenv is not None and parsed.warnings == []
