"""An XFA form held as one XDP stream (PDF 1.5 and later) reads as the array form does."""

from __future__ import annotations

from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary

from goblin_core import extract

PLACEHOLDER = "Please wait... If this message is not eventually replaced"

TEMPLATE = b"""<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/">
 <subform name="form1" layout="tb">
  <subform name="applicant">
   <draw name="heading"><value><text>Application for a fishing licence</text></value></draw>
   <field name="FamilyName"><caption><value><text>Family name</text></value></caption></field>
   <field name="Licence"><caption><value><text>Licence type</text></value></caption>
    <value><text>Annual</text></value></field>
  </subform>
 </subform>
</template>"""

DATASETS = b"""<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/">
 <xfa:data><form1><applicant><FamilyName>Okafor</FamilyName></applicant></form1></xfa:data>
</xfa:datasets>"""

XDP_OPEN = (b'<?xml version="1.0" encoding="UTF-8"?>\n<?xfa generator="XFA2_4" APIVersion="3.0"?>\n'
            b'<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/" timeStamp="2024-01-01T00:00:00Z">\n'
            b'<config xmlns="http://www.xfa.org/schema/xci/3.0/"><present><pdf>'
            b'<version>1.7</version></pdf></present></config>\n')
XDP_CLOSE = b"\n</xdp:xdp>"


def _xfa_stream_pdf(xdp: bytes) -> bytes:
    pdf = helvetica_pages(f"BT /F1 10 Tf 40 740 Td ({PLACEHOLDER}) Tj ET", size=(612, 792))
    pdf.Root.AcroForm = Dictionary(Fields=Array(), XFA=pdf.make_stream(xdp))
    pdf.Root.NeedsRendering = True
    return saved(pdf)


def _form_lines(xdp: bytes) -> list[str]:
    document = extract(_xfa_stream_pdf(xdp), name="form.pdf", ocr="never")
    lines = document.pages[0].text.splitlines()
    assert lines[0].startswith(PLACEHOLDER)
    assert document.raw_metadata["xfa"] is True
    return [line for line in lines[1:] if line]


def test_a_form_held_as_one_xdp_stream_reads_its_text_and_typed_values() -> None:
    assert _form_lines(XDP_OPEN + TEMPLATE + DATASETS + XDP_CLOSE) == [
        "Application for a fishing licence", "Family name: Okafor", "Licence type: Annual"]


def test_a_form_held_as_one_xdp_stream_with_nothing_typed_reads_its_defaults() -> None:
    assert _form_lines(XDP_OPEN + TEMPLATE + XDP_CLOSE) == [
        "Application for a fishing licence", "Family name", "Licence type: Annual"]


def test_an_xdp_stream_with_entities_is_refused_and_costs_only_itself() -> None:
    laughs = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
              b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
              b'<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/">' + TEMPLATE.replace(
                  b"Annual", b"&b;") + b"</xdp:xdp>")
    document = extract(_xfa_stream_pdf(laughs), name="form.pdf", ocr="never")
    assert document.pages[0].status == "clean"
    assert document.text.strip() == PLACEHOLDER
