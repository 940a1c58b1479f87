"""Check boxes and radio groups whose value PDFium cannot read from what they draw.

A button field with /Opt names its widgets' states by their place in it (``/0``, ``/1``)
so that an export value may hold any text (``Casado(a)``, spaces, accents). A viewer
lists the export value; the state's bare number says nothing to a reader.

LibreOffice draws a check box's checked state as ``/on`` and sets the box to ``/Yes``,
asking viewers to draw the form again (``/NeedAppearances``): PDFium, which tells a
button's state by its appearances, read such a box as unchecked.
"""

from __future__ import annotations

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name, String

from goblin_core import extract

EXPORT_VALUES = ("Solteiro", "Casado(a)", "Divorciado")


def _marital_status(*, states_named: bool, drawn: bool) -> bytes:
    """One page with a radio group ``estado`` set to its second button, whose export
    values /Opt gives. ``states_named``: each widget names its state (/AS); ``drawn``:
    each has appearance streams."""
    pdf = helvetica_pages("BT /F1 12 Tf 72 760 Td (Estado civil do requerente) Tj ET")
    page = pdf.pages[0]
    field = pdf.make_indirect(Dictionary(
        T=String("estado"), FT=Name.Btn, Ff=1 << 15, V=Name("/1"),
        Opt=Array([String(value) for value in EXPORT_VALUES])))
    widgets = Array()
    for number in range(len(EXPORT_VALUES)):
        widget = Dictionary(Type=Name.Annot, Subtype=Name.Widget, Parent=field, F=4,
                            P=page.obj, Rect=Array([60 + 30 * number, 700, 74 + 30 * number, 714]))
        if states_named:
            widget.AS = Name(f"/{number}") if number == 1 else Name.Off
        if drawn:
            on, off = pikepdf.Stream(pdf, b"0 g 2 2 10 10 re f"), pikepdf.Stream(pdf, b"")
            widget.AP = Dictionary(N=Dictionary({f"/{number}": on, "/Off": off}))
        widgets.append(pdf.make_indirect(widget))
    field.Kids = widgets
    page.obj.Annots = widgets
    pdf.Root.AcroForm = Dictionary(Fields=Array([field]))
    return saved(pdf)


@pytest.mark.parametrize("states_named", [False, True], ids=["no-state", "state-named"])
def test_an_undrawn_radio_group_reads_as_its_export_value_once(states_named: bool) -> None:
    document = extract(_marital_status(states_named=states_named, drawn=False),
                       name="requerimento.pdf", ocr="never")
    assert document.text.count("estado: Casado(a)") == 1, document.text
    assert "estado: 1" not in document.text


def test_the_pypdf_parser_reads_the_export_value_too() -> None:
    document = extract(_marital_status(states_named=True, drawn=True), name="requerimento.pdf",
                       ocr="never", engines={"pdf.pypdfium2": {"enabled": False}})
    assert document.parsed_by == ("pdf.pypdf",)
    assert "estado: Casado(a)" in document.text
    assert "estado: 1" not in document.text


def _libreoffice_check_box() -> bytes:
    """A check box ``aceito`` set to ``/Yes`` whose appearances are ``/on`` and ``/Off``,
    as LibreOffice writes one."""
    pdf = helvetica_pages("BT /F1 12 Tf 72 760 Td (Aceito os termos do contrato) Tj ET")
    page = pdf.pages[0]
    on, off = pikepdf.Stream(pdf, b"0 g 2 2 6 6 re f"), pikepdf.Stream(pdf, b"")
    box = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Btn, T=String("aceito"), V=Name.Yes,
        DV=Name.Yes, AS=Name.Yes, F=4, P=page.obj, Rect=Array([60, 700, 70, 710]),
        AP=Dictionary(N=Dictionary({"/on": on, "/Off": off}))))
    page.obj.Annots = Array([box])
    pdf.Root.AcroForm = Dictionary(Fields=Array([box]), NeedAppearances=True)
    return saved(pdf)


def test_a_check_box_drawn_under_another_state_name_reads_as_its_value_once() -> None:
    document = extract(_libreoffice_check_box(), name="contrato.pdf", ocr="never")
    assert document.text.count("aceito: Yes") == 1, document.text
