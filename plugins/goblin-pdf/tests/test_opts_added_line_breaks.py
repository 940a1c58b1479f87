"""Line breaks in what a parser adds to a page are written as ``\\n``.

Acrobat ends the lines of a comment, of a multi-line text field's value and at times of
a bookmark title with a bare ``\\r``. Written as it stands, a terminal returns to the
start of the line and prints the next line over the one before, and a title's second
line reads as a bookmark of its own, out of its level.
"""

from __future__ import annotations

import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name, String

from goblin_core import extract

ENGINES = {"pdf.pypdfium2": {}, "pdf.pypdf": {"engines": {"pdf.pypdfium2": {"enabled": False}}}}


def _commented_form() -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 72 760 Td (Parecer da comissao de obras) Tj ET")
    page = pdf.pages[0]
    field = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=String("notas"), Ff=4096, F=4,
        V=String("Primeira linha\rSegunda linha"), Rect=Array([60, 600, 300, 700]), P=page.obj))
    note = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Text, Rect=Array([10, 10, 30, 30]), T=String("Rui"),
        Contents=String("Rever o prazo\rantes de assinar")))
    page.obj.Annots = Array([field, note])
    pdf.Root.AcroForm = Dictionary(Fields=Array([field]))
    chapter = pdf.make_indirect(Dictionary(Title=String("Anexo I\rOrcamento"),
                                           Dest=Array([page.obj, Name.Fit])))
    outline = pdf.make_indirect(Dictionary(Type=Name.Outlines, First=chapter, Last=chapter))
    chapter.Parent = outline
    top = pdf.make_indirect(Dictionary(Title=String("Parecer"), Dest=Array([page.obj, Name.Fit]),
                                       Parent=outline, First=chapter, Last=chapter, Count=1))
    chapter.Parent = top
    outline.First = outline.Last = top
    pdf.Root.Outlines = outline
    return saved(pdf)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_comments_field_values_and_titles_break_their_lines_with_newlines(engine: str) -> None:
    document = extract(_commented_form(), name="parecer.pdf", ocr="never", **ENGINES[engine])
    assert document.parsed_by == (engine,)
    assert "\r" not in document.text
    assert "Rui: Rever o prazo\nantes de assinar" in document.text
    assert "notas: Primeira linha\nSegunda linha" in document.text
    assert document.text.endswith("Parecer\n  Anexo I Orcamento")
