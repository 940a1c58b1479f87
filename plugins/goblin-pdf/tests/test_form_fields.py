"""AcroForm field values are appended to the page that shows their widgets."""

from __future__ import annotations

import io
import warnings

import pikepdf
from pikepdf import Array, Dictionary, Name

from goblin_core import extract


def _filled_page(*, listed: bool) -> bytes:
    """A page with two text-field widgets holding their values; the catalogue's AcroForm
    lists the first one (``listed``) or is missing, as on a page cut out of a form."""
    pdf = pikepdf.new()
    helvetica = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1,
                                             BaseFont=Name.Helvetica))
    page = pdf.add_blank_page(page_size=(595, 842))
    page.Resources = Dictionary(Font=Dictionary(F1=helvetica))
    page.Contents = pdf.make_stream(b"BT /F1 12 Tf 60 760 Td (10. Name of Federal Agency:) Tj ET")
    widgets = [
        pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=name,
                                     V=value, Rect=Array([60, y, 400, y + 20]), F=4, P=page.obj))
        for name, value, y in (("Agency", "Fish and Wildlife Service", 730),
                               ("Orphan", "Department of the Interior", 700))
    ]
    page.Annots = Array(widgets)
    if listed:
        pdf.Root.AcroForm = Dictionary(Fields=Array([widgets[0]]))
    out = io.BytesIO()
    with warnings.catch_warnings():
        # pikepdf warns of widgets the AcroForm does not reach: they are the point here
        warnings.simplefilter("ignore")
        pdf.save(out)
    return out.getvalue()


def _last_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line][-2:]


def test_widgets_without_an_acroform_still_give_their_values() -> None:
    document = extract(_filled_page(listed=False), name="page.pdf", ocr="never")
    assert _last_lines(document.pages[0].text) == [
        "Agency: Fish and Wildlife Service", "Orphan: Department of the Interior"]


def test_a_widget_the_form_does_not_list_gives_its_own_value() -> None:
    document = extract(_filled_page(listed=True), name="form.pdf", ocr="never")
    assert _last_lines(document.pages[0].text) == [
        "Agency: Fish and Wildlife Service", "Orphan: Department of the Interior"]


def test_forms_off_leaves_field_values_out() -> None:
    document = extract(_filled_page(listed=False), name="page.pdf", ocr="never",
                       pdf={"forms": False})
    assert "Wildlife" not in document.text
