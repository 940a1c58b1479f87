"""An annotation with no text of its own shows it through its appearance (a dated stamp,
an unfilled field's drawn value): that text is read. An annotation no viewer shows gives
none."""

from __future__ import annotations

import pikepdf
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

from goblin_core import extract


def _appearance(pdf: pikepdf.Pdf, content: str) -> pikepdf.Stream:
    return pdf.make_stream(content.encode("latin-1"), Type=Name.XObject, Subtype=Name.Form,
                           BBox=Array([0, 0, 220, 40]),
                           Resources=pdf.pages[0].Resources.copy())


def _annotated(pdf: pikepdf.Pdf, *annotations: Dictionary, form: bool = False) -> str:
    made = [pdf.make_indirect(a) for a in annotations]
    pdf.pages[0].Annots = Array(made)
    if form:
        pdf.Root.AcroForm = Dictionary(
            Fields=Array([a for a in made if a.Subtype == Name.Widget]), DA="/Helv 12 Tf 0 g")
    return extract(saved(pdf), name="a.pdf", ocr="never").text


def _stamp(pdf: pikepdf.Pdf, shown: str, **more: object) -> Dictionary:
    return Dictionary(Type=Name.Annot, Subtype=Name.Stamp, Rect=Array([300, 690, 520, 730]),
                      AP=Dictionary(N=_appearance(pdf, f"BT /F1 14 Tf 5 15 Td ({shown}) Tj ET")),
                      **more)


def test_a_stamp_without_contents_reads_as_its_appearance_shows() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Invoice 2024-118) Tj ET")
    text = _annotated(pdf, _stamp(pdf, "APPROVED 2024-03-05 JD"))
    assert text.split("\n\n") == ["Invoice 2024-118", "APPROVED 2024-03-05 JD"]


def test_a_stamp_laid_over_the_page_text_reads_as_its_appearance_alone() -> None:
    # the stamp's box holds words of the page under it, which are not the stamp's
    pdf = helvetica_pages("BT /F1 12 Tf 250 705 Td (Total due on receipt 1,250.00) Tj ET")
    text = _annotated(pdf, _stamp(pdf, "PAID 2024-03-05"))
    assert text.split("\n\n") == ["Total due on receipt 1,250.00", "PAID 2024-03-05"]


def test_a_stamp_drawn_over_the_page_adds_no_pieces_of_the_page_text() -> None:
    """The corpus stamp (a form of paths and text laid over the page's line) moves the
    page's own letters about when the page is flattened: what its box gains is not it."""
    from goblin_core.testing.corpus import corpus_dir

    document = extract(corpus_dir(__file__) / "pdf/annotations.pdf", ocr="never")
    assert document.text.split("\n\n") == [
        "Dummy PDF file", "Jeremy Singer-Vine: A popup note", "Dummy PDF file"]


def test_a_stamp_that_draws_no_text_gives_none() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 250 705 Td (Total due on receipt 1,250.00) Tj ET")
    stamp = _stamp(pdf, "")
    stamp.AP.N.write(b"0 0 1 rg 0 0 220 40 re f")  # a drawn mark, as ink stamps are
    assert _annotated(pdf, stamp) == "Total due on receipt 1,250.00"


def test_a_stamp_with_contents_gives_its_contents_alone() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Invoice 2024-118) Tj ET")
    text = _annotated(pdf, _stamp(pdf, "APPROVED", Contents="Approved by finance"))
    assert text.split("\n\n") == ["Invoice 2024-118", "Approved by finance"]


def test_an_appearance_the_page_already_prints_is_not_repeated() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Status: APPROVED 2024-03-05) Tj ET")
    text = _annotated(pdf, _stamp(pdf, "APPROVED 2024-03-05"))
    assert text == "Status: APPROVED 2024-03-05"


def test_a_text_field_with_no_value_gives_what_its_widget_shows() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 650 Td (Applicant:) Tj ET")
    widget = Dictionary(Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T="applicant",
                        Rect=Array([150, 645, 400, 665]), DA="/Helv 12 Tf 0 g",
                        AP=Dictionary(N=_appearance(
                            pdf, "/Tx BMC BT /F1 12 Tf 2 5 Td (Maria Oliveira) Tj ET EMC")))
    text = _annotated(pdf, widget, form=True)
    assert text.split("\n\n") == ["Applicant:", "applicant: Maria Oliveira"]


def test_annotations_no_viewer_shows_give_no_text() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Invoice 2024-118) Tj ET")

    def note(flags: int, said: str) -> Dictionary:
        return Dictionary(Type=Name.Annot, Subtype=Name.Text, F=flags, T="Bob", Contents=said,
                          Rect=Array([100, 100, 120, 120]))

    text = _annotated(pdf, note(2, "hidden note"), note(32, "no-view note"),
                      note(4, "printed note"), _stamp(pdf, "SECRET STAMP", F=2))
    assert text.split("\n\n") == ["Invoice 2024-118", "Bob: printed note"]
