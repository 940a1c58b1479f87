"""Entities in XML files that are documents of their own: text, never a refusal, never a read.

DocBook, TEI and JATS files declare entities or use the named ones of a DTD
they only point to, and Illustrator declares its SVG namespaces as entities.
Each reference becomes its text; what lies outside the file is left out and
named in the report.
"""

from __future__ import annotations

import pytest

from goblin_core import extract
from goblin_office import safexml
from goblin_office.safexml import UnsafeXML, parse_xml_file

ILLUSTRATOR_SVG = b"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
\t<!ENTITY ns_extend "http://ns.adobe.com/Extensibility/1.0/">
\t<!ENTITY ns_svg "http://www.w3.org/2000/svg">
\t<!ENTITY ns_xlink "http://www.w3.org/1999/xlink">
]>
<svg version="1.1" xmlns:x="&ns_extend;" xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;">
<title>Sales chart</title>
<text x="10" y="50">Quarterly revenue by region</text>
</svg>
"""

DOCBOOK = b"""<?xml version="1.0"?>
<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN"
  "http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd" [
<!ENTITY product "Goblin&#160;Extractor">
<!ENTITY chapter1 SYSTEM "chapter1.xml">
]>
<article><title>Caf&eacute; guide to &product;</title>
<para>Open daily &mdash; see &chapter1; and&nbsp;more.</para></article>
"""


def test_an_illustrator_svg_is_read() -> None:
    document = extract(ILLUSTRATOR_SVG, name="chart.svg", ocr="never")
    assert document.text.splitlines() == ["Sales chart", "Quarterly revenue by region"]
    assert document.report.warnings == ()


def test_a_docbook_file_reads_its_entities_as_text() -> None:
    document = extract(DOCBOOK, name="guide.xml", ocr="never")
    assert document.text.splitlines() == ["Café guide to Goblin Extractor",
                                          "Open daily — see and more."]
    [warning] = document.report.warnings
    assert warning.kind == "EntitiesLeftOut"
    assert "&chapter1;" in warning.message


def test_an_undeclared_named_character_in_a_file_without_a_dtd_is_read() -> None:
    # not well formed, strictly; the character is plain, and the rest of the file is text
    root, entities = parse_xml_file(b"<r>na&iuml;ve &amp; caf&eacute; &zzz;</r>", name="x.xml")
    assert root.text == "naïve & café "
    assert entities.left_out == ("zzz",)


def test_character_references_and_markup_inside_an_entity() -> None:
    root, _ = parse_xml_file(
        b'<!DOCTYPE r [<!ENTITY e "&#x41;&#66;<b>bold</b>">]><r>[&e;]</r>', name="x.xml")
    assert root.text == "[ABbold]"


def test_other_damage_is_still_refused() -> None:
    with pytest.raises(Exception, match="not well formed"):
        parse_xml_file(b"<r>caf&eacute; <b>unclosed</r>", name="x.xml")


def test_the_expansion_budget_stops_what_libxml2_lets_through(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """libxml2's amplification limit refuses a billion-laughs file first; goblin's own
    budget stands behind it for the text it expands itself."""
    monkeypatch.setattr(safexml, "_ENTITY_GROWTH", 1)
    monkeypatch.setattr(safexml, "_ENTITY_ALLOWANCE", 0)
    data = b'<!DOCTYPE r [<!ENTITY a "' + b"x" * 100 + b'">]><r>' + b"&a;" * 20 + b"</r>"
    with pytest.raises(UnsafeXML, match="billion-laughs"):
        parse_xml_file(data, name="x.xml")


@pytest.mark.parametrize("prolog", [
    # a comment naming its author before the DOCTYPE, as iso-codes' files do
    b"<!-- Copyright (C) 2004 A. Author <author@example.org> -->\n<!DOCTYPE r [\n"
    b"<!ELEMENT r (#PCDATA)>\n]>\n",
    # a DOCTYPE quoted in a comment, and a processing instruction, but none of the file's own
    b'<!-- write it as <!DOCTYPE r [<!ENTITY x "y">]> -->\n<?xml-stylesheet href="s.xsl"?>\n',
], ids=["tag-in-comment", "doctype-in-comment"])
def test_what_a_prolog_s_comments_say_is_not_read_as_markup(prolog: bytes) -> None:
    data = b'<?xml version="1.0"?>\n' + prolog + b"<r>caf&eacute; &amp; more</r>"
    root, entities = parse_xml_file(data, name="x.xml")
    assert root.text == "café & more"
    assert entities.left_out == ()
