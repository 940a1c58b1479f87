"""Document information strings that end in a NUL, or are NULs alone.

Many writers end a string with a NUL, as C does, or write NULs for a value they do not
have. The NUL reached the metadata (``Report\\x00``), where a database's text column
refuses it; and an author of NULs counted as an author, so the one the XMP packet names
was never read.
"""

from __future__ import annotations

import pikepdf
from pdf_builders import helvetica_pages, saved
from pikepdf import Dictionary, Name, String

from goblin_core import extract

XMP = b"""<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF
 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
 xmlns:dc="http://purl.org/dc/elements/1.1/">
<rdf:Description rdf:about=""><dc:creator><rdf:Seq><rdf:li>Ana Lima</rdf:li></rdf:Seq>
</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""


def _with_nuls() -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Quarterly report of the harbour) Tj ET")
    pdf.docinfo = pdf.make_indirect(Dictionary(
        Title=String(b"\xfe\xff" + "Relatório".encode("utf-16-be") + b"\x00\x00"),
        Author=String(b"\x00\x00"), Subject=String(b"Harbour\x00"),
        CreationDate=String(b"D:20200102030405\x00")))
    packet = pikepdf.Stream(pdf, XMP)
    packet.Type, packet.Subtype = Name.Metadata, Name.XML
    pdf.Root.Metadata = pdf.make_indirect(packet)
    return saved(pdf)


def test_metadata_values_lose_their_nuls_and_a_value_of_nuls_is_none() -> None:
    document = extract(_with_nuls(), name="report.pdf", ocr="never")
    metadata = document.raw_metadata
    assert metadata["title"] == metadata["Title"] == "Relatório"
    assert metadata["subject"] == "Harbour"
    assert metadata["created"] == "2020-01-02T03:04:05"
    assert not any("\x00" in str(value) for value in metadata.values()), metadata
    # no author in the dictionary, so the XMP packet's is read
    assert metadata["author"] == "Ana Lima"


def test_comments_field_values_and_bookmarks_lose_their_nuls() -> None:
    from pikepdf import Array

    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Quarterly report of the harbour) Tj ET")
    page = pdf.pages[0]
    note = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Text,
                                        Rect=Array([10, 10, 30, 30]), Contents=String(b"Ok\x00")))
    field = pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=String("total"), F=4, P=page.obj,
        V=String(b"\xfe\xff" + "1.250,00".encode("utf-16-be") + b"\x00\x00"),
        Rect=Array([60, 600, 300, 620])))
    page.obj.Annots = Array([note, field])
    pdf.Root.AcroForm = Dictionary(Fields=Array([field]))
    bookmark = pdf.make_indirect(Dictionary(
        Title=String(b"\xfe\xff" + "Anexo".encode("utf-16-be") + b"\x00\x00"),
        Dest=Array([page.obj, Name.Fit])))
    outline = pdf.make_indirect(Dictionary(Type=Name.Outlines, First=bookmark, Last=bookmark))
    bookmark.Parent = outline
    pdf.Root.Outlines = outline
    document = extract(saved(pdf), name="report.pdf", ocr="never")
    assert document.text.endswith("Ok\n\ntotal: 1.250,00\n\nAnexo"), repr(document.text)
    assert document.raw_metadata["outline"] == [{"level": 0, "title": "Anexo", "page": 1}]
