"""A date read from the XMP packet is written as one read from the information dictionary.

The dictionary's dates (``D:20210517102030Z``) come out in ISO 8601 with the offset
spelled out (``+00:00``); the same moment in XMP (``2021-05-17T10:20:30Z``) came out as
written, so one field held two spellings of a time zone across a batch.
"""

from __future__ import annotations

import pikepdf
from pdf_builders import helvetica_pages, saved
from pikepdf import Dictionary, Name, String

from goblin_core import extract

XMP = b"""<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF
 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
 xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<rdf:Description rdf:about="" xmp:CreateDate="2021-05-17T10:20:30Z"
 xmp:ModifyDate="2021-05-18T08:00:00.250-03:00">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Relatorio</rdf:li></rdf:Alt></dc:title>
</rdf:Description></rdf:RDF></x:xmpmeta>"""


def _dated(*, in_xmp: bool) -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Quarterly report of the harbour) Tj ET")
    if in_xmp:
        packet = pikepdf.Stream(pdf, XMP)
        packet.Type, packet.Subtype = Name.Metadata, Name.XML
        pdf.Root.Metadata = pdf.make_indirect(packet)
    else:
        pdf.docinfo = pdf.make_indirect(Dictionary(
            Title=String("Relatorio"), CreationDate=String("D:20210517102030Z"),
            ModDate=String("D:20210518080000-03'00'")))
    return saved(pdf)


def test_xmp_dates_are_spelled_as_the_dictionarys() -> None:
    from_xmp = extract(_dated(in_xmp=True), name="report.pdf", ocr="never").raw_metadata
    from_info = extract(_dated(in_xmp=False), name="report.pdf", ocr="never").raw_metadata
    assert from_xmp["title"] == from_info["title"] == "Relatorio"
    assert from_xmp["created"] == from_info["created"] == "2021-05-17T10:20:30+00:00"
    assert from_xmp["modified"] == "2021-05-18T08:00:00.250000-03:00"
    assert from_info["modified"] == "2021-05-18T08:00:00-03:00"
    assert from_xmp["xmp"]["created"] == "2021-05-17T10:20:30Z"  # the packet as written
