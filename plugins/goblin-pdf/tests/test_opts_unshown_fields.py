"""Form fields holding a value that no page shows are read after the last page."""

from __future__ import annotations

import io

import pikepdf
from pdf_builders import reportlab_pdf
from pikepdf import Array, Dictionary, Name, String

from goblin_core import extract


def _form(loop: bool = False) -> bytes:
    """Two pages; page 1 shows the field ``surname``; ``internal.total``, ``reviewed``
    (a check box set off), ``languages`` (two values) and ``ticket`` have no widget."""
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("Application for a fishing permit.",),
                                                pages=2)))
    page = pdf.pages[0]
    surname = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=String("surname"),
        V=String("Quintela"), Rect=[50, 700, 250, 720], P=page.obj))
    page.obj.Annots = Array([surname])
    internal = pdf.make_indirect(Dictionary(T=String("internal")))
    total = pdf.make_indirect(Dictionary(FT=Name.Tx, T=String("total"),
                                         V=String("1,250.00 EUR"), Parent=internal))
    internal.Kids = Array([total])
    if loop:
        total.Kids = Array([internal])  # a field tree that climbs back into itself
    reviewed = pdf.make_indirect(Dictionary(FT=Name.Btn, T=String("reviewed"), V=Name.Off))
    languages = pdf.make_indirect(Dictionary(
        FT=Name.Ch, T=String("languages"), V=Array([String("Portuguese"), String("Galician")])))
    ticket = pdf.make_indirect(Dictionary(
        FT=Name.Tx, T=String("ticket"),
        V=String(b"\xfe\xff" + "Nº 4471-ß".encode("utf-16-be"))))
    pdf.Root.AcroForm = Dictionary(Fields=Array([surname, internal, reviewed, languages, ticket]))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_fields_with_no_widget_are_read_after_the_last_page() -> None:
    document = extract(_form(), name="permit.pdf", ocr="never")
    first, last = document.pages
    assert "surname: Quintela" in first.text
    assert "internal.total: 1,250.00 EUR" in last.text
    assert "languages: Portuguese; Galician" in last.text
    assert "ticket: Nº 4471-ß" in last.text
    assert "reviewed" not in document.text  # a check box left off holds no value
    assert document.text.count("Quintela") == 1  # a shown field is read with its page


def test_forms_off_reads_none_of_them() -> None:
    document = extract(_form(), name="permit.pdf", ocr="never", pdf={"forms": False})
    assert "1,250.00" not in document.text and "Quintela" not in document.text


def test_a_field_tree_that_loops_is_read_once() -> None:
    document = extract(_form(loop=True), name="permit.pdf", ocr="never")
    assert document.text.count("1,250.00 EUR") <= 1
    assert "ticket: Nº 4471-ß" in document.pages[-1].text


def _buttons() -> bytes:
    """One page: a radio group ``payment`` set to Boleto and a check box ``urgent`` set to
    Yes, neither drawn (no appearance streams, as a program filling ``/V`` leaves them),
    and a check box ``signed`` set to Yes with its appearances."""
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("Payment form.",))))
    page = pdf.pages[0]
    payment = pdf.make_indirect(Dictionary(FT=Name.Btn, Ff=49152, T=String("payment"),
                                           V=Name("/Boleto"), Kids=Array()))
    widgets = Array()
    for number in range(2):
        kid = pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.Widget, Parent=payment, P=page.obj,
            Rect=[100, 700 - 30 * number, 115, 715 - 30 * number]))
        payment.Kids.append(kid)
        widgets.append(kid)
    urgent = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Btn, T=String("urgent"), V=Name.Yes,
        Rect=[100, 600, 115, 615], P=page.obj))
    drawn = pikepdf.Stream(pdf, b"0 0 1 rg 0 0 15 15 re f")
    signed = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Btn, T=String("signed"), V=Name.Yes,
        AS=Name.Yes, Rect=[100, 560, 115, 575], P=page.obj,
        AP=Dictionary(N=Dictionary(Yes=drawn, Off=pikepdf.Stream(pdf, b"")))))
    page.obj.Annots = Array([*widgets, urgent, signed])
    pdf.Root.AcroForm = Dictionary(Fields=Array([payment, urgent, signed]))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_buttons_without_appearances_are_read_from_their_values() -> None:
    # PDFium tells a button's state by the appearance it names: with none, it read Off
    document = extract(_buttons(), name="payment.pdf", ocr="never")
    assert "payment: Boleto" in document.text
    assert document.text.count("urgent: Yes") == 1
    # a drawn check box is read by PDFium with its page, once
    assert document.text.count("signed: Yes") == 1
