"""The catalog's XMP packet: title, author and the rest where the information dictionary
is silent.

PDF 2.0 deprecates the document information dictionary in favour of XMP, and many
producers (scanners, PDF/A converters, some Word and LaTeX exports) write the title or
the author only there. PDFium reads the dictionary alone, so when it lacks a title or an
author the packet is read too, and fills what the dictionary does not say; where both
say something, the dictionary wins, as it is what viewers show. A file whose dictionary
names both is not opened a second time for its packet.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from goblin_core.source import Source
from goblin_pdf.pdf_bytes import mapped
from goblin_pdf.pdf_metadata import language_tag, pdf_date

log = logging.getLogger(__name__)

MAX_PACKET = 4 << 20  # an XMP packet is kilobytes; past this it is not metadata
MAX_VALUE_CHARS = 65_536  # as the information dictionary's values

_RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_DC = "{http://purl.org/dc/elements/1.1/}"
_PDF = "{http://ns.adobe.com/pdf/1.3/}"
_XMP = "{http://ns.adobe.com/xap/1.0/}"

# goblin's key <- the XMP properties that say it, first found wins
_PROPERTIES: Mapping[str, tuple[str, ...]] = {
    "title": (_DC + "title",),
    "author": (_DC + "creator",),
    "subject": (_DC + "description",),
    "keywords": (_PDF + "Keywords", _DC + "subject"),
    "creator": (_XMP + "CreatorTool",),
    "producer": (_PDF + "Producer",),
    "created": (_XMP + "CreateDate",),
    "modified": (_XMP + "ModifyDate", _XMP + "MetadataDate"),
    "language": (_DC + "language",),
}


_DATES = frozenset({"created", "modified"})


def parse_xmp(packet: bytes) -> dict[str, str]:
    """goblin's metadata keys from an XMP packet: '' values left out, {} when the packet
    is not well-formed XML (or declares entities).

    >>> parse_xmp('''<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF
    ...   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    ...   xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
    ... <rdf:Description pdf:Producer="pdfTeX">
    ...   <dc:title><rdf:Alt>
    ...     <rdf:li xml:lang="pt">Relatório anual</rdf:li>
    ...     <rdf:li xml:lang="x-default">Annual report</rdf:li>
    ...   </rdf:Alt></dc:title>
    ...   <dc:creator><rdf:Seq>
    ...     <rdf:li>Ana Lima</rdf:li><rdf:li>Rui Costa</rdf:li>
    ...   </rdf:Seq></dc:creator>
    ... </rdf:Description></rdf:RDF></x:xmpmeta>'''.encode())
    {'title': 'Annual report', 'author': 'Ana Lima; Rui Costa', 'producer': 'pdfTeX'}
    """
    try:
        root = fromstring(packet.strip(b"\x00 \t\r\n"))
    except (ParseError, DefusedXmlException, ValueError) as exc:
        log.debug("XMP packet unreadable: %s", exc)
        return {}
    found: dict[str, str] = {}
    descriptions = list(root.iter(_RDF + "Description"))
    for key, properties in _PROPERTIES.items():
        for name in properties:
            value = next((v for d in descriptions for v in _values(d, name) if v), "")
            if value:
                found[key] = value
                break
    if "language" in found:
        tag = language_tag(found["language"])
        if tag:
            found["language"] = tag
        else:
            del found["language"]
    return found


def _values(description: Element, name: str) -> Iterator[str]:
    """The property ``name`` of one rdf:Description, as an attribute or an element."""
    attribute = description.get(name)
    if attribute is not None:
        yield _clean(attribute)
    for element in description.findall(name):
        yield _property_text(element)


def _property_text(element: Element) -> str:
    """A simple property's text, a language alternative's default, or a list's items."""
    items = list(element.iter(_RDF + "li"))
    if not items:
        return _clean("".join(element.itertext()))
    if element.find(_RDF + "Alt") is not None:
        default = [li for li in items if li.get(_XML_LANG) == "x-default"]
        return _clean("".join((default or items)[0].itertext()))
    return "; ".join(t for t in (_clean("".join(li.itertext())) for li in items) if t)


def _clean(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_VALUE_CHARS else ""


def may_have_xmp(source: Source) -> bool:
    """Whether the file's bytes name a metadata stream at all: a stream's dictionary is
    never compressed, so an XMP packet's ``/Type /Metadata`` is there in the clear."""
    with source.open() as stream, mapped(stream) as data:
        return data.find(b"/Metadata") >= 0


def catalog_packet(source: Source, password: str | None) -> bytes | None:
    """The catalog's /Metadata stream decoded, through qpdf, or None."""
    import pikepdf  # only for a PDF whose information dictionary names no title or author

    try:
        with pikepdf.open(source.path(), password=password or "") as pdf:
            stream = pdf.Root.get("/Metadata")
            if not isinstance(stream, pikepdf.Stream):
                return None
            if int(stream.get("/Length", 0)) > MAX_PACKET:
                return None
            packet = stream.read_bytes()
    except Exception as exc:  # qpdf raises PdfError, PasswordError, its own ValueErrors...
        log.debug("%s: no XMP packet read: %s", source.display_name, exc)
        return None
    return packet if len(packet) <= MAX_PACKET else None


def fill_from_xmp(metadata: dict[str, Any], read_packet: Callable[[], bytes | None]) -> None:
    """When ``metadata`` lacks a title or an author (as a PDF 2.0 file that keeps no
    information dictionary, or one whose dictionary names only its title), fill each key
    it lacks from the XMP packet ``read_packet`` gives; the packet's own values go to
    ``metadata["xmp"]``."""
    if metadata.get("title") and metadata.get("author"):
        return
    packet = read_packet()
    found = parse_xmp(packet) if packet else {}
    if not found:
        return
    metadata["xmp"] = found
    for key, value in found.items():
        if not metadata.get(key):
            # an XMP date (2021-05-17T10:20:30Z) written as the dictionary's are
            metadata[key] = (pdf_date(value) or value) if key in _DATES else value
