"""A dynamic XFA form reads every instance of a repeated subform, and typed values no
field takes by name."""

from __future__ import annotations

import time

from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary

from goblin_core import extract

PLACEHOLDER = "Please wait... If this message is not eventually replaced"

TEMPLATE = b"""<?xml version="1.0" encoding="UTF-8"?>
<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/">
 <subform name="form1" layout="tb">
  <pageSet><pageArea name="Page1"><contentArea w="8in" h="10in"/></pageArea></pageSet>
  <draw name="heading"><value><text>Household declaration</text></value></draw>
  <subform name="dependent" layout="tb"><occur min="1" max="-1"/>
   <field name="Name"><caption><value><text>Dependent name</text></value></caption></field>
   <field name="Age"><caption><value><text>Age</text></value></caption></field>
  </subform>
  <subform name="vehicle" layout="tb"><occur min="1" max="2"/>
   <field name="Plate"><caption><value><text>Plate</text></value></caption></field>
  </subform>
  <field name="Total"><caption><value><text>Total</text></value></caption>
   <bind match="dataRef" ref="$.summary.amount"/></field>
 </subform>
</template>"""

DATASETS = b"""<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/">
 <xfa:data><form1>
  <dependent><Name>Ana</Name><Age>7</Age></dependent>
  <dependent><Name>Bruno</Name><Age>9</Age></dependent>
  <dependent><Name>Carla</Name><Age>12</Age></dependent>
  <vehicle><Plate>AA-11-BB</Plate></vehicle>
  <vehicle><Plate>CC-22-DD</Plate></vehicle>
  <vehicle><Plate>EE-33-FF</Plate></vehicle>
  <summary><amount>three dependents</amount></summary>
 </form1></xfa:data>
</xfa:datasets>"""


def _dynamic_form(template: bytes = TEMPLATE, datasets: bytes = DATASETS) -> bytes:
    pdf = helvetica_pages(f"BT /F1 10 Tf 40 740 Td ({PLACEHOLDER}) Tj ET", size=(612, 792))
    pdf.Root.AcroForm = Dictionary(Fields=Array(), XFA=Array([
        "template", pdf.make_stream(template), "datasets", pdf.make_stream(datasets)]))
    pdf.Root.NeedsRendering = True
    return saved(pdf)


def test_each_instance_of_a_repeated_subform_is_read() -> None:
    lines = extract(_dynamic_form(), name="household.pdf", ocr="never").pages[0].text.splitlines()
    assert [line for line in lines[1:] if line] == [
        "Household declaration",
        "Dependent name: Ana", "Age: 7",
        "Dependent name: Bruno", "Age: 9",
        "Dependent name: Carla", "Age: 12",
        # the template allows two vehicles: the third plate is a value no field took
        "Plate: AA-11-BB", "Plate: CC-22-DD",
        "Total",
        "Plate: EE-33-FF", "amount: three dependents",
    ]


def test_a_subform_repeated_past_reason_is_bounded() -> None:
    """A hundred thousand data instances of a subform nested in itself do not make the
    walk blow up."""
    template = b"""<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/">
     <subform name="row"><occur max="-1"/><subform name="row"><occur max="-1"/>
      <field name="Cell"/></subform></subform></template>"""
    datasets = (b"<xfa:datasets xmlns:xfa='http://www.xfa.org/schema/xfa-data/1.0/'><d>"
                + b"<row><Cell>x</Cell></row>" * 100_000 + b"</d></xfa:datasets>")
    started = time.monotonic()
    document = extract(_dynamic_form(template, datasets), name="rows.pdf", ocr="never")
    assert time.monotonic() - started < 60
    assert document.pages[0].text.count("x") <= 100_001
