"""What a signature field shows ("Digitally signed by ...") is part of its page's text."""

from __future__ import annotations

import io

import pikepdf
from pikepdf import Array, Dictionary, Name

from goblin_core import extract


def _signed_page(signer: str) -> bytes:
    """A page of text with a signature field whose appearance names ``signer``, over a
    stretch of the page's own text, as signing software draws it."""
    pdf = pikepdf.new()
    helvetica = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1,
                                             BaseFont=Name.Helvetica))
    page = pdf.add_blank_page(page_size=(595, 842))
    page.Resources = Dictionary(Font=Dictionary(F1=helvetica))
    page.Contents = pdf.make_stream(
        b"BT /F1 12 Tf 60 760 Td (Contract for the supply of school meals) Tj ET\n"
        b"BT /F1 12 Tf 60 708 Td (Signed at the town hall) Tj ET")
    shown = f"BT /F1 9 Tf 4 30 Td (Digitally signed by {signer}) Tj ET\n" \
            "BT /F1 9 Tf 4 18 Td (Date: 2021.01.04 20:11:25) Tj ET"
    appearance = pdf.make_stream(shown.encode("ascii"), Type=Name.XObject,
                                 Subtype=Name.Form, BBox=Array([0, 0, 220, 50]),
                                 Resources=Dictionary(Font=Dictionary(F1=helvetica)))
    widget = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Sig, T="Signature1",
        Rect=Array([50, 690, 270, 740]), F=4, P=page.obj,
        AP=Dictionary(N=appearance)))
    page.Annots = Array([widget])
    pdf.Root.AcroForm = Dictionary(Fields=Array([widget]), SigFlags=3)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_the_signature_appearance_is_read_after_the_page_text() -> None:
    document = extract(_signed_page("Ada Lovelace"), name="signed.pdf", ocr="never")
    text = document.pages[0].text
    assert "Contract for the supply of school meals" in text
    assert "Digitally signed by Ada Lovelace Date: 2021.01.04 20:11:25" in text
    # the page's own line under the field is not read twice
    assert text.count("Signed at the town hall") == 1
    assert document.pages[0].status == "clean"


def test_without_annotations_the_signature_is_left_out() -> None:
    document = extract(_signed_page("Ada Lovelace"), name="signed.pdf", ocr="never",
                       pdf={"annotations": False})
    assert "Digitally signed" not in document.text
