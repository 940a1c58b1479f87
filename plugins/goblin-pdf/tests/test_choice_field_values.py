"""A list or combo box with several options selected reads as all of them."""

from __future__ import annotations

from typing import Any

import pikepdf
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

from goblin_core import extract

MULTI_SELECT = 1 << 21
COMBO = 1 << 17


def _choice_form(options: list[Any], value: Any, flags: int = MULTI_SELECT,
                 **extra: Any) -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 60 760 Td (Languages spoken:) Tj ET")
    page = pdf.pages[0]
    field = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Ch, Ff=flags, T="languages",
        Opt=Array(options), V=value, Rect=Array([60, 600, 300, 700]), F=4, P=page.obj,
        **extra))
    page.obj.Annots = Array([field])
    pdf.Root.AcroForm = Dictionary(Fields=Array([field]))
    return saved(pdf)


def _field_line(data: bytes) -> str:
    text = extract(data, name="form.pdf", ocr="never").pages[0].text
    return next(line for line in text.splitlines() if line.startswith("languages"))


def _pairs(*pairs: tuple[str, str]) -> list[Any]:
    return [Array([pikepdf.String(export), pikepdf.String(label)]) for export, label in pairs]


def test_a_multi_select_list_box_reads_every_selected_value() -> None:
    data = _choice_form(["Portuguese", "English", "Spanish", "French"],
                        Array(["Portuguese", "Spanish", "French"]))
    assert _field_line(data) == "languages: Portuguese; Spanish; French"


def test_selected_values_read_in_the_order_of_the_options_each_once() -> None:
    data = _choice_form(["Portuguese", "English", "Spanish"],
                        Array(["Spanish", "Portuguese", "Spanish"]))
    assert _field_line(data) == "languages: Portuguese; Spanish"


def test_a_list_box_with_one_value_in_an_array_reads_it_as_before() -> None:
    data = _choice_form(["Portuguese", "English"], Array(["English"]))
    assert _field_line(data) == "languages: English"


def test_a_combo_box_with_an_array_of_values_reads_them_all() -> None:
    data = _choice_form(["Portuguese", "English", "Spanish"], Array(["English", "Spanish"]),
                        flags=COMBO)
    assert _field_line(data) == "languages: English; Spanish"


def test_options_picked_by_their_indices_read_as_selected() -> None:
    data = _choice_form(["Portuguese", "English", "Spanish"], Array(["Portuguese", "Spanish"]),
                        I=Array([0, 2]))
    assert _field_line(data) == "languages: Portuguese; Spanish"


def test_several_selected_pairs_of_export_value_and_label_read_as_their_labels() -> None:
    # PDFium lists an option by its label alone; one value alone is still read as stored
    options = _pairs(("pt", "Portuguese"), ("en", "English"), ("es", "Spanish"))
    assert _field_line(_choice_form(options, Array(["pt", "es"]))) == \
        "languages: Portuguese; Spanish"
    assert _field_line(_choice_form(options, pikepdf.String("en"))) == "languages: en"
