"""A comment on a page reads as the comments pane shows it: who wrote it, then what."""

from __future__ import annotations

from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

from goblin_core import extract


def _commented_page(*annotations: Dictionary) -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 60 760 Td (The draft budget) Tj ET")
    for annotation in annotations:
        annotation.Type, annotation.Rect = Name.Annot, Array([60, 750, 200, 775])
    pdf.pages[0].Annots = Array([pdf.make_indirect(annotation) for annotation in annotations])
    return saved(pdf)


def test_a_comment_names_its_author_and_subject_before_what_it_says() -> None:
    data = _commented_page(
        Dictionary(Subtype=Name.Text, T="Ana Lima", Subj="Totals", Contents="Check line 4"),
        Dictionary(Subtype=Name.Text, Contents="Anonymous remark"),
        # a highlight that says nothing adds no text, whoever made it
        Dictionary(Subtype=Name.Highlight, T="Ana Lima",
                   QuadPoints=Array([60, 775, 200, 775, 60, 750, 200, 750])))
    text = extract(data, name="a.pdf", ocr="never").text
    assert text.split("\n\n")[1:] == ["Ana Lima: Totals\nCheck line 4", "Anonymous remark"]
