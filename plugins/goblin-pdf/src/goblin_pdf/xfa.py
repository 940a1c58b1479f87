"""The text of a dynamic XFA form, which PDFium cannot lay out.

A dynamic XFA form (Adobe LiveCycle Designer's, used for tax and immigration forms)
keeps its pages in XML inside the PDF: the ``template`` packet says what each page
shows (fixed text, field captions), the ``datasets`` packet holds what was typed in.
The AcroForm's XFA is either an array of named packets or, since PDF 1.5, one stream
holding the whole XDP document, whose ``xdp:xdp`` root has the packets as children.
The PDF's own page is a placeholder ("Please wait... your PDF viewer may not be able to
display this type of document"), so without this reader such a form reads as that
sentence alone. Tika reads the same packets.

The packets are parsed with defusedxml (no DTD, no entities) and walked without
recursion, under a size budget.
"""

from __future__ import annotations

import ctypes
import logging
import re
from collections import defaultdict, deque
from collections.abc import Iterator
from xml.etree.ElementTree import Element, ParseError

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

log = logging.getLogger(__name__)

#: The XML read from one form at most; real templates run to a few megabytes.
MAX_XFA_BYTES = 32 * 1024 * 1024
_SPACES = re.compile(r"[ \t\r\f\v]+")


def is_dynamic_xfa(pdf: pdfium.PdfDocument) -> bool:
    """Whether the pages are placeholders for a form laid out from XFA (a static XFA
    form draws its pages itself and has AcroForm fields, read as any form's are)."""
    return bool(pdf.get_formtype() == pdfium_c.FORMTYPE_XFA_FULL)


def xfa_text(pdf: pdfium.PdfDocument, name: str) -> str:
    """The form's fixed text and its fields as ``caption: value`` lines, in template order."""
    template, datasets = _form_packets(dict(_packets(pdf)), name)
    if template is None:
        return ""
    values = _data_values(datasets)
    instances = _data_instances(datasets)
    lines: list[str] = []
    for element in _walk_instances(template, instances):
        kind = _local(element.tag)
        if kind == "draw":
            lines.append(_shown(element.find("{*}value")))
        elif kind == "field":
            lines.append(_field_line(element, values))
    # typed values no field took by name (a field bound elsewhere by a data reference,
    # data the template does not name): the form holds them, so they are read too
    lines.extend(f"{name}: {value}" for name, left in values.items() for value in left)
    return "\n".join(line for line in lines if line)


#: Template elements walked at most, repeated subforms counted each time: a subform
#: repeated once per data instance multiplies the walk
MAX_WALKED = 1_000_000


def _walk_instances(template: Element, instances: dict[str, int]) -> Iterator[Element]:
    """The template's elements in document order, a repeatable subform (``<occur
    max>`` other than 1) walked once for each instance of it the data holds (a table of
    dependents, one subform per row), up to its maximum; at least once."""
    walked = pushed = 0
    stack: list[Element] = [template]
    while stack and walked < MAX_WALKED:
        element = stack.pop()
        walked += 1
        yield element
        children: list[Element] = []
        for child in element:
            times = _repeats(child, instances) if _local(child.tag) == "subform" else 1
            # each instance's walk after the last; past the bound, a subform once
            times = max(min(times, MAX_WALKED - pushed), 1)
            pushed += times
            children.extend([child] * times)
        stack.extend(reversed(children))


def _repeats(subform: Element, instances: dict[str, int]) -> int:
    occur = subform.find("{*}occur")
    name = subform.get("name", "")
    if occur is None or not name:
        return 1
    most = occur.get("max", "1")
    found = instances.get(name, 0)
    if most.strip() == "-1":
        return max(found, 1)
    try:
        return max(min(found, int(most)), 1)
    except ValueError:
        return 1


def _data_instances(datasets: Element | None) -> dict[str, int]:
    """How many data elements with children (a subform's instance) each name has."""
    counts: dict[str, int] = defaultdict(int)
    if datasets is not None:
        for element in _walk(datasets):
            if len(element):
                counts[_local(element.tag)] += 1
    return counts


def _packets(pdf: pdfium.PdfDocument) -> Iterator[tuple[str, bytes]]:
    budget = MAX_XFA_BYTES
    for index in range(max(pdfium_c.FPDF_GetXFAPacketCount(pdf), 0)):
        size = pdfium_c.FPDF_GetXFAPacketName(pdf, index, None, 0)
        label = ctypes.create_string_buffer(max(size, 1))
        pdfium_c.FPDF_GetXFAPacketName(pdf, index, label, size)
        needed = ctypes.c_ulong()
        if not pdfium_c.FPDF_GetXFAPacketContent(pdf, index, None, 0, needed):
            continue
        if needed.value > budget:
            log.warning("XFA packet %s skipped: over %d bytes of XML", label.value, MAX_XFA_BYTES)
            continue
        budget -= needed.value
        content = ctypes.create_string_buffer(max(needed.value, 1))
        pdfium_c.FPDF_GetXFAPacketContent(pdf, index, content, needed.value, needed)
        yield label.value.decode("latin-1"), content.raw[: needed.value]


def _form_packets(packets: dict[str, bytes],
                  name: str) -> tuple[Element | None, Element | None]:
    """The form's template and datasets packets, parsed: the array's packets of those
    names, or, for an XFA held as one stream (PDFium names its one packet ''), the
    children of that XDP document's root of those local names."""
    if "template" in packets or "" not in packets:
        return (_parse(packets.get("template"), "template", name),
                _parse(packets.get("datasets"), "datasets", name))
    whole = _parse(packets[""], "XDP document", name)
    if whole is None:
        return None, None
    return _packet(whole, "template"), _packet(whole, "datasets")


def _packet(xdp: Element, kind: str) -> Element | None:
    """The packet of local name ``kind`` in an XDP document (``xdp`` itself when the
    stream holds that packet alone)."""
    if _local(xdp.tag) == kind:
        return xdp
    return next((child for child in xdp if _local(child.tag) == kind), None)


def _parse(data: bytes | None, packet: str, name: str) -> Element | None:
    if not data or not data.strip():
        return None
    try:
        return fromstring(data)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        log.warning("%s: XFA %s unreadable: %s", name, packet, exc)
        return None


def _walk(root: Element) -> Iterator[Element]:
    """Elements in document order, without recursion (a template may nest deeply)."""
    stack = [root]
    while stack:
        element = stack.pop()
        yield element
        stack.extend(reversed(list(element)))


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _shown(value: Element | None) -> str:
    """What a ``<value>`` shows: plain text, or its rich (XHTML) content a paragraph a line."""
    if value is None:
        return ""
    try:
        paragraphs = ["".join(p.itertext()) for p in _walk(value) if _local(p.tag) == "p"]
        text = "\n".join(paragraphs) if paragraphs else "".join(value.itertext())
    except RecursionError:  # rich text nested past Python's stack: hostile, not prose
        return ""
    return "\n".join(line for line in (_SPACES.sub(" ", part).strip()
                                       for part in text.split("\n")) if line)


def _data_values(datasets: Element | None) -> dict[str, deque[str]]:
    """The typed-in values by element name, in document order (XFA binds fields to data
    by name, the n-th field of a name to the n-th value)."""
    values: dict[str, deque[str]] = defaultdict(deque)
    if datasets is None:
        return values
    for element in _walk(datasets):
        if len(element) == 0 and element.text and element.text.strip():
            values[_local(element.tag)].append(_SPACES.sub(" ", element.text.strip()))
    return values


def _field_line(field: Element, values: dict[str, deque[str]]) -> str:
    caption = _shown(field.find("{*}caption/{*}value")).replace("\n", " ")
    name = field.get("name", "")
    bound = values.get(name)
    value = bound.popleft() if bound else _shown(field.find("{*}value"))
    if caption and value:
        return f"{caption}: {value}"
    return caption or value
