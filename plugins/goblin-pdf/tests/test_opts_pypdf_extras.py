"""A PDF read by pdf.pypdf (PDFium will not open it) keeps its comments, web links, form
values and outline, as pdf.pypdfium2 writes them, and the options that turn them off."""

from __future__ import annotations

import io
from typing import Any

import pikepdf
from pdf_builders import reportlab_pdf
from pikepdf import Array, Dictionary, Name, String

from goblin_core import extract

PYPDF_ONLY = {"pdf.pypdfium2": {"enabled": False}}


def _annotated() -> bytes:
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("Minutes of the harbour board.",), pages=2)))
    first, second = pdf.pages
    address = pdf.make_indirect(Dictionary(T=String("address")))
    city = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=String("city"),
        V=String("Lisbon"), Rect=[50, 600, 250, 620], P=first.obj, Parent=address))
    address.Kids = Array([city])
    agree = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Btn, T=String("agree"),
        V=Name("/Yes"), AS=Name("/Yes"), Rect=[50, 560, 60, 570], P=first.obj))
    first.obj.Annots = Array([city, agree])
    pdf.Root.AcroForm = Dictionary(Fields=Array([address, agree]))
    note = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Text, Rect=[300, 650, 320, 670],
        Contents=String("Check the mooring fees"), T=String("Ann"), Subj=String("Query")))
    hidden = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Text, Rect=[300, 600, 320, 620], F=2,
        Contents=String("A note no viewer shows")))
    link = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Link, Rect=[300, 400, 400, 420],
        A=Dictionary(S=Name.URI, URI=String("https://example.org/fees"))))
    second.obj.Annots = Array([note, hidden, link])
    outlines = pdf.make_indirect(Dictionary(Type=Name.Outlines))
    chapter = pdf.make_indirect(Dictionary(Title=String("Fees"), Parent=outlines,
                                           Dest=[second.obj, Name.Fit]))
    section = pdf.make_indirect(Dictionary(Title=String("Mooring"), Parent=chapter,
                                           Dest=[second.obj, Name.Fit]))
    chapter.First = chapter.Last = section
    chapter.Count = 1
    after = pdf.make_indirect(Dictionary(Title=String("Closing"), Parent=outlines,
                                         Dest=[first.obj, Name.Fit]))
    chapter.Next, after.Prev = after, chapter
    outlines.First, outlines.Last, outlines.Count = chapter, after, 3
    pdf.Root.Outlines = outlines
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _read(**pdf_options: Any) -> Any:
    document = extract(_annotated(), name="board.pdf", ocr="never", engines=PYPDF_ONLY,
                       pdf=pdf_options)
    assert document.parsed_by == ("pdf.pypdf",)
    return document


def test_the_pypdf_parser_writes_what_pdfium_s_parser_writes() -> None:
    first, second = _read().pages
    assert "address.city: Lisbon" in first.text and "agree: Yes" in first.text
    assert "Ann: Query\nCheck the mooring fees" in second.text
    assert "https://example.org/fees" in second.text
    assert "A note no viewer shows" not in second.text
    assert second.text.endswith("Fees\n  Mooring\nClosing")


def test_the_outline_is_in_the_metadata_too() -> None:
    assert _read().raw_metadata["outline"] == [
        {"level": 0, "title": "Fees", "page": 2},
        {"level": 1, "title": "Mooring", "page": 2},
        {"level": 0, "title": "Closing", "page": 1},
    ]


def test_the_options_turn_each_off() -> None:
    document = _read(annotations=False, forms=False, outline=False)
    assert [page.text.strip() for page in document.pages] == \
        ["Minutes of the harbour board."] * 2


def test_the_outline_is_in_the_metadata_when_the_text_leaves_it_out() -> None:
    outline = _read(outline=False).raw_metadata["outline"]
    assert [entry["title"] for entry in outline] == ["Fees", "Mooring", "Closing"]
