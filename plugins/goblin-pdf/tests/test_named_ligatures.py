"""Ligatures an encoding names as the glyphs they join (f_i), which PDFium reads as codes."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest
from pikepdf import Array, Dictionary, Name

import goblin_core


def ligatures_pdf() -> bytes:
    """Helvetica twice under one base name: /F1 names codes 33 and 34 f_i and f_l (as
    InDesign does), with a space drawn inside the ligature before the letter after it;
    /F2 is plain WinAnsi, whose code 33 is a real exclamation mark."""
    pdf = pikepdf.new()
    named = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name("/ABCDEF+Helvetica"),
                       Encoding=Dictionary(Type=Name.Encoding, BaseEncoding=Name.WinAnsiEncoding,
                                           Differences=Array([33, Name("/f_i"), Name("/f_l")])))
    plain = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name("/GHIJKL+Helvetica"),
                       Encoding=Name.WinAnsiEncoding)
    content = (b"BT /F1 11 Tf 60 700 Td [(atividades pro!) 222 ( ) 56 (ssionais e cient\xed!) 222 "
               b"( ) 56 (cas, servi\xe7os ) (!) 222 ( ) 56 (nanceiros, \"or de sal)] TJ "
               b"/F2 11 Tf ( Viva!) Tj ET")
    pdf.pages.append(pikepdf.Page(Dictionary(
        Type=Name.Page, MediaBox=[0, 0, 612, 792],
        Resources=Dictionary(Font=Dictionary(F1=named, F2=plain)),
        Contents=pdf.make_stream(content))))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_ligatures_named_by_their_letters_are_read_as_them(layout: str) -> None:
    data = ligatures_pdf()
    raw = pdfium.PdfDocument(data)
    try:
        assert "pro! ssionais" in raw[0].get_textpage().get_text_range()
    finally:
        raw.close()
    document = goblin_core.extract(data, name="edital.pdf", ocr="never", pdf={"layout": layout})
    assert " ".join(document.text.split()) == (
        "atividades profissionais e científicas, serviços financeiros, flor de sal Viva!")


def test_a_page_without_such_marks_never_opens_the_document_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from goblin_pdf import named_ligatures

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the document opened for a page with no ligature read as a code")

    monkeypatch.setattr(named_ligatures.NamedLigatures, "_document", refuse)
    content = b"BT /F2 11 Tf 60 700 Td (Edital n. 12, de 2024: aquisicao de cafe!) Tj ET"
    pdf = pikepdf.new()
    plain = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
                       Encoding=Name.WinAnsiEncoding)
    pdf.pages.append(pikepdf.Page(Dictionary(
        Type=Name.Page, MediaBox=[0, 0, 612, 792], Resources=Dictionary(Font=Dictionary(F2=plain)),
        Contents=pdf.make_stream(content))))
    out = io.BytesIO()
    pdf.save(out)
    document = goblin_core.extract(out.getvalue(), name="plain.pdf", ocr="never")
    assert "aquisicao de cafe!" in document.text
