"""A dynamic XFA form reads as its form, not as the placeholder page PDFium draws."""

from __future__ import annotations

from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary

from goblin_core import extract

PLACEHOLDER = "Please wait... If this message is not eventually replaced"

TEMPLATE = b"""<?xml version="1.0" encoding="UTF-8"?>
<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/">
 <subform name="form1" layout="tb">
  <pageSet><pageArea name="Page1"><contentArea w="8in" h="10in"/></pageArea></pageSet>
  <subform name="applicant">
   <draw name="heading"><value><text>Application for a fishing licence</text></value></draw>
   <field name="FamilyName"><caption><value><text>Family name</text></value></caption></field>
   <field name="GivenName"><caption><value><text>Given name</text></value></caption></field>
   <field name="Licence"><caption><value><text>Licence type</text></value></caption>
    <value><text>Annual</text></value></field>
   <draw name="notice"><value><exData contentType="text/html">
    <body xmlns="http://www.w3.org/1999/xhtml"><p>Sign below.</p><p>Keep a copy.</p></body>
   </exData></value></draw>
  </subform>
 </subform>
</template>"""

DATASETS = b"""<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/">
 <xfa:data><form1><applicant><FamilyName>Okafor</FamilyName>
 <GivenName>Ada</GivenName></applicant></form1></xfa:data>
</xfa:datasets>"""


def _xfa_pdf(dynamic: bool, template: bytes = TEMPLATE) -> bytes:
    pdf = helvetica_pages(f"BT /F1 10 Tf 40 740 Td ({PLACEHOLDER}) Tj ET", size=(612, 792))
    pdf.Root.AcroForm = Dictionary(Fields=Array(), XFA=Array([
        "template", pdf.make_stream(template), "datasets", pdf.make_stream(DATASETS)]))
    if dynamic:
        pdf.Root.NeedsRendering = True
    return saved(pdf)


def test_a_dynamic_form_reads_its_text_and_typed_values_after_the_placeholder() -> None:
    document = extract(_xfa_pdf(dynamic=True), name="form.pdf", ocr="never")
    lines = document.pages[0].text.splitlines()
    assert lines[0].startswith(PLACEHOLDER)
    assert [line for line in lines[1:] if line] == [
        "Application for a fishing licence", "Family name: Okafor", "Given name: Ada",
        "Licence type: Annual", "Sign below.", "Keep a copy."]
    assert document.raw_metadata["xfa"] is True


def test_a_static_form_draws_its_own_pages_and_is_left_to_them() -> None:
    document = extract(_xfa_pdf(dynamic=False), name="form.pdf", ocr="never")
    assert document.text.strip() == PLACEHOLDER
    assert document.raw_metadata["xfa"] is True


def test_a_template_with_entities_is_refused_and_costs_only_itself() -> None:
    laughs = (b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa">'
              b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><template>&b;</template>')
    document = extract(_xfa_pdf(dynamic=True, template=laughs), name="form.pdf", ocr="never")
    assert document.pages[0].status == "clean"
    assert document.text.strip() == PLACEHOLDER
