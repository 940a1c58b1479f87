"""Text on a layer (an optional content group) the default view turns off is shown by no
viewer: it is left out of the page text and counted in ``Page.hidden_chars``."""

from __future__ import annotations

import io

import pikepdf
import pytest
from pdf_builders import helvetica_pages
from pikepdf import Array, Dictionary, Name

from goblin_core import extract

SHOWN = "BT /F1 12 Tf 72 700 Td (Offer valid until March) Tj ET\n"
SECRET = "BT /F1 12 Tf 72 680 Td (INTERNAL margin is high) Tj ET"
AFTER = "BT /F1 12 Tf 72 660 Td (Contact sales for details) Tj ET\n"
VISIBLE_TEXT = "Offer valid until March\nContact sales for details"


def _page(content: str = SHOWN + f"/OC /oc1 BDC {SECRET} EMC\n" + AFTER) -> pikepdf.Pdf:
    return helvetica_pages(content)


def _layered(pdf: pikepdf.Pdf, properties: dict[str, Dictionary],
             configuration: Dictionary) -> pikepdf.Pdf:
    page = pdf.pages[0]
    page.Resources.Properties = Dictionary(properties)
    groups = [g for g in properties.values() if g.get("/Type") == Name.OCG]
    pdf.Root.OCProperties = Dictionary(OCGs=Array(groups), D=configuration)
    return pdf


def _group(pdf: pikepdf.Pdf, name: str) -> Dictionary:
    return pdf.make_indirect(Dictionary(Type=Name.OCG, Name=name))


def _non_space(text: str) -> int:
    return sum(not c.isspace() for c in text)


HIDDEN_COUNT = _non_space("INTERNAL margin is high")


def _read(pdf: pikepdf.Pdf, **save: object) -> tuple[str, int, str]:
    out = io.BytesIO()
    pdf.save(out, **save)  # type: ignore[arg-type]
    page = extract(out.getvalue(), name="layers.pdf", ocr="never").pages[0]
    return page.text, page.hidden_chars, page.status


@pytest.mark.parametrize("save", [{}, {"object_stream_mode": pikepdf.ObjectStreamMode.generate}])
def test_text_on_a_layer_turned_off_is_left_out_and_counted(save: dict[str, object]) -> None:
    """The catalog in the clear, or compressed in an object stream."""
    pdf = _page(SHOWN + f"/OC /oc1 BDC {SECRET} EMC\n/OC /oc2 BDC {AFTER} EMC")
    hidden, public = _group(pdf, "Internal notes"), _group(pdf, "Public")
    _layered(pdf, {"/oc1": hidden, "/oc2": public},
             Dictionary(ON=Array([public]), OFF=Array([hidden])))
    assert _read(pdf, **save) == (VISIBLE_TEXT, HIDDEN_COUNT, "clean")


def test_a_base_state_off_hides_every_layer_not_turned_on() -> None:
    pdf = _page()
    _layered(pdf, {"/oc1": _group(pdf, "Draft")}, Dictionary(BaseState=Name.OFF))
    assert _read(pdf)[:2] == (VISIBLE_TEXT, HIDDEN_COUNT)


def test_layers_left_on_change_nothing() -> None:
    pdf = _page()
    on = _group(pdf, "Draft")
    _layered(pdf, {"/oc1": on}, Dictionary(ON=Array([on]), OFF=Array([])))
    assert _read(pdf) == (
        "Offer valid until March\nINTERNAL margin is high\nContact sales for details", 0, "clean")


def test_a_form_drawn_on_a_hidden_layer_hides_its_text() -> None:
    pdf = _page(SHOWN + "/OC /oc1 BDC /Fm1 Do EMC\n" + AFTER)
    form = pdf.make_stream(SECRET.encode(), Type=Name.XObject, Subtype=Name.Form,
                           BBox=Array([0, 0, 595, 842]),
                           Resources=pdf.pages[0].Resources.copy())
    pdf.pages[0].Resources.XObject = Dictionary(Fm1=form)
    off = _group(pdf, "Internal notes")
    _layered(pdf, {"/oc1": off}, Dictionary(OFF=Array([off])))
    assert _read(pdf)[:2] == (VISIBLE_TEXT, HIDDEN_COUNT)


@pytest.mark.parametrize(("policy", "hidden"), [
    (Name.AllOn, True), (Name.AnyOn, False), (Name.AnyOff, False), (Name.AllOff, True)])
def test_a_membership_dictionary_hides_by_its_policy(policy: Name, hidden: bool) -> None:
    pdf = _page()
    on, off = _group(pdf, "Shown"), _group(pdf, "Hidden")
    membership = pdf.make_indirect(Dictionary(Type=Name.OCMD, OCGs=Array([on, off]), P=policy))
    _layered(pdf, {"/oc1": membership, "/on": on, "/off": off},
             Dictionary(ON=Array([on]), OFF=Array([off])))
    text, count, _ = _read(pdf)
    assert ("INTERNAL" not in text, count) == (hidden, HIDDEN_COUNT if hidden else 0)


def test_a_visibility_expression_decides_over_the_policy() -> None:
    pdf = _page()
    on, off = _group(pdf, "Shown"), _group(pdf, "Hidden")
    membership = pdf.make_indirect(Dictionary(
        Type=Name.OCMD, OCGs=Array([on]), VE=Array([Name.And, on, Array([Name.Not, on])])))
    _layered(pdf, {"/oc1": membership, "/on": on, "/off": off},
             Dictionary(ON=Array([on]), OFF=Array([off])))
    assert _read(pdf)[:2] == (VISIBLE_TEXT, HIDDEN_COUNT)
