"""Optional content (layers) a PDF's default view turns off.

A layer is an optional content group (OCG). Content drawn inside ``/OC /name BDC ...
EMC`` whose properties are an OCG the default configuration (``/OCProperties /D``)
turns off, or a membership dictionary (OCMD) whose policy makes it off, is not shown
by a viewer nor printed by pdftotext: a leaflet with one language's layer switched
off, a draft's "internal notes" layer, a map or drawing exported with layers off.
PDFium's text leaves layers aside, so their text is found here, by PDFium character
index, for the page reader to leave out and count as hidden.

PDFium gives each page object the marked-content sequences it sits in, with the
entries of their properties dictionaries, but neither the resource name nor the
object: an OCG is known by its ``/Name``, hidden when every OCG of that name is off.
An OCMD names its groups in ``/OCGs``, which PDFium does not give, so its verdict
comes from the page's ``/Properties``: hidden when every OCMD the page (and the forms
it draws) names there is hidden. Content an ambiguous verdict leaves in doubt is kept.

The document's optional content is read once, through qpdf, and only when its catalog
can have any (a byte scan: ``/OCProperties`` in the clear, or an object stream that
may hold the catalog). A document whose default view turns nothing off, like most
that have layers at all, costs nothing more per page.
"""

from __future__ import annotations

import ctypes
import io
import logging
from collections.abc import Iterator
from itertools import repeat
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_core.source import Source
from goblin_pdf.layout.native import TEXT_OBJECT
from goblin_pdf.pdf_bytes import mapped

log = logging.getLogger(__name__)

_MAX_FORM_DEPTH = 8
_MAX_EXPRESSION_DEPTH = 16
_MAX_MARK_CHARS = 1024
# Property lists of forms drawn by one page looked at, at most, for an OCMD's verdict.
_MAX_PROPERTY_LISTS = 256
_OCMD_KEYS = (b"OCGs", b"VE", b"P")


class HiddenLayers:
    """The characters of each page drawn on a layer the default view turns off.

    ``source`` and ``password`` open the document with qpdf the first time a page is
    asked about; a document qpdf cannot read is left as PDFium reads it.
    """

    def __init__(self, source: Source, password: str | None) -> None:
        self.source = source
        self.password = password
        self._pdf: Any = None
        self._read = False
        #: OCG name -> whether every OCG of that name is off (None: no OCG is off)
        self._names: dict[str, bool] | None = None
        self._off: set[tuple[int, int]] = set()

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
        self._pdf = None

    def chars(self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage,
              index: int) -> frozenset[int]:
        """PDFium indices of the characters of page ``index`` (0-based) that a hidden
        layer holds; a page or document that cannot be read so gives none."""
        if not self._read:
            self._read = True
            self._names = self._read_layers()
        if self._names is None:
            return frozenset()
        try:
            return self._page_chars(page, textpage, index)
        except Exception as exc:  # layers are a refinement: never lose the page's text
            log.warning("%s: page %d's optional content unreadable: %s",
                        self.source.display_name, index + 1, exc)
            return frozenset()

    # -- the document's layers ----------------------------------------------

    def _read_layers(self) -> dict[str, bool] | None:
        if not _may_have_layers(self.source):
            return None
        import pikepdf  # only for a document whose catalog may have optional content

        target: Any = (str(self.source.path()) if self.source.is_file
                       else io.BytesIO(self.source.bytes()))
        try:
            self._pdf = pikepdf.open(target, password=self.password or "")
            properties = self._pdf.Root.get("/OCProperties")
            if not isinstance(properties, pikepdf.Dictionary):
                self.close()
                return None
            groups = [g for g in _array(properties.get("/OCGs"))
                      if isinstance(g, pikepdf.Dictionary) and g.is_indirect]
            self._off = _off_groups(groups, properties.get("/D"))
            if not self._off:
                self.close()
                return None
            names: dict[str, bool] = {}
            for group in groups:
                name = str(group.get("/Name", ""))
                hidden = group.objgen in self._off
                names[name] = names.get(name, True) and hidden
            return names
        except Exception as exc:  # what PDFium reads, qpdf may not: read as PDFium does
            log.debug("%s: optional content unreadable: %s", self.source.display_name, exc)
            self.close()
            return None

    # -- one page -------------------------------------------------------------

    def _page_chars(self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage,
                    index: int) -> frozenset[int]:
        judge = _MarkJudge(self, index)
        hidden_objects = set(_hidden_text_objects(page, judge))
        if not hidden_objects:
            return frozenset()
        count = max(pdfium_c.FPDFText_CountChars(textpage), 0)
        handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
        addresses = map(TEXT_OBJECT, repeat(handle, count), range(count))
        return frozenset(i for i, address in enumerate(addresses) if address in hidden_objects)

    def name_hidden(self, name: str) -> bool:
        """Whether every OCG named ``name`` is off (and there is one)."""
        return (self._names or {}).get(name, False)

    def ocmd_verdict(self, index: int) -> bool:
        """Whether the OCMDs page ``index`` names in its property lists (its own and
        its forms') are all hidden, and there is one."""
        import pikepdf

        verdicts = [self._membership_hidden(value)
                    for value in _property_values(self._pdf.pages[index].obj)
                    if isinstance(value, pikepdf.Dictionary)
                    and value.get("/Type") == pikepdf.Name.OCMD]
        return bool(verdicts) and all(verdicts)

    def _membership_hidden(self, ocmd: Any) -> bool:
        """An OCMD's verdict: its visibility expression when it has one, else its
        policy (``/P``, AnyOn by default) over its groups."""
        expression = ocmd.get("/VE")
        if expression is not None:
            shown = self._expression_shown(expression, 0)
            if shown is not None:
                return not shown
        states = [self._shown(group) for group in _array(ocmd.get("/OCGs"))]
        states = [s for s in states if s is not None]  # null entries are ignored
        if not states:
            return False
        policy = str(ocmd.get("/P", "/AnyOn"))
        if policy == "/AllOn":
            return not all(states)
        if policy == "/AnyOff":
            return all(states)
        if policy == "/AllOff":
            return any(states)
        return not any(states)

    def _expression_shown(self, expression: Any, depth: int) -> bool | None:
        import pikepdf

        if isinstance(expression, pikepdf.Dictionary):
            return self._shown(expression)
        if not isinstance(expression, pikepdf.Array) or not len(expression) \
                or depth > _MAX_EXPRESSION_DEPTH:
            return None
        operator = str(expression[0])
        operands = [self._expression_shown(e, depth + 1) for e in list(expression)[1:]]
        known = [o for o in operands if o is not None]
        if not known:
            return None
        if operator == "/Not":
            return not known[0]
        if operator == "/And":
            return all(known)
        if operator == "/Or":
            return any(known)
        return None

    def _shown(self, group: Any) -> bool | None:
        import pikepdf

        if not isinstance(group, pikepdf.Dictionary) or not group.is_indirect:
            return None
        return group.objgen not in self._off


class _MarkJudge:
    """Whether a marked-content sequence PDFium gives hides what it holds, each mark
    judged once (PDFium shares one mark among the objects of its sequence)."""

    def __init__(self, layers: HiddenLayers, page_index: int) -> None:
        self.layers = layers
        self.page_index = page_index
        self._verdicts: dict[int | None, bool] = {}
        self._ocmd: bool | None = None

    def hides(self, page_object: Any) -> bool:
        for index in range(max(pdfium_c.FPDFPageObj_CountMarks(page_object), 0)):
            mark = pdfium_c.FPDFPageObj_GetMark(page_object, index)
            if not mark:
                continue
            key = ctypes.cast(mark, ctypes.c_void_p).value
            verdict = self._verdicts.get(key)
            if verdict is None:
                verdict = self._verdicts[key] = self._judge(mark)
            if verdict:
                return True
        return False

    def _judge(self, mark: Any) -> bool:
        if _mark_string(pdfium_c.FPDFPageObjMark_GetName, mark) != "OC":
            return False
        if pdfium_c.FPDFPageObjMark_GetParamValueType(mark, b"Name") == \
                pdfium_c.FPDF_OBJECT_STRING:
            return self.layers.name_hidden(
                _mark_string(pdfium_c.FPDFPageObjMark_GetParamStringValue, mark, b"Name"))
        if any(pdfium_c.FPDFPageObjMark_GetParamValueType(mark, key)
               != pdfium_c.FPDF_OBJECT_UNKNOWN for key in _OCMD_KEYS):
            if self._ocmd is None:
                self._ocmd = self.layers.ocmd_verdict(self.page_index)
            return self._ocmd
        return False


def _hidden_text_objects(page: pdfium.PdfPage, judge: _MarkJudge) -> Iterator[int]:
    """Addresses of the page's text objects (in forms too) inside a hidden sequence: a
    form drawn inside one hides all it draws."""
    pending: list[tuple[Any, int, bool]] = [(None, 0, False)]
    while pending:
        form, depth, hidden = pending.pop()
        count = (pdfium_c.FPDFPage_CountObjects(page) if form is None
                 else pdfium_c.FPDFFormObj_CountObjects(form))
        for index in range(max(count, 0)):
            obj = (pdfium_c.FPDFPage_GetObject(page, index) if form is None
                   else pdfium_c.FPDFFormObj_GetObject(form, index))
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind not in (pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_FORM):
                continue
            inside = hidden or judge.hides(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
                if depth < _MAX_FORM_DEPTH:
                    pending.append((obj, depth + 1, inside))
            elif inside:
                yield ctypes.cast(obj, ctypes.c_void_p).value or 0


def _mark_string(call: Any, *args: Any) -> str:
    """A mark's name or string entry (PDFium writes UTF-16LE and says how many bytes)."""
    size = ctypes.c_ulong()
    if not call(*args, None, 0, ctypes.byref(size)) or size.value <= 2 \
            or size.value > 2 * _MAX_MARK_CHARS:
        return ""
    buffer = ctypes.create_string_buffer(size.value)
    call(*args, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size.value,
         ctypes.byref(size))
    return buffer.raw[: size.value - 2].decode("utf-16-le", errors="replace")


def _may_have_layers(source: Source) -> bool:
    """Whether the catalog may name optional content: ``/OCProperties`` in the clear, or
    an object stream, where the catalog may be compressed."""
    with source.open() as stream, mapped(stream) as data:
        return data.find(b"/OCProperties") >= 0 or data.find(b"/ObjStm") >= 0


def _off_groups(groups: list[Any], configuration: Any) -> set[tuple[int, int]]:
    """The groups the default configuration turns off: those in ``/OFF``, or with
    ``/BaseState /OFF`` every group not in ``/ON``."""
    import pikepdf

    if not isinstance(configuration, pikepdf.Dictionary):
        return set()
    listed = {str(key): {g.objgen for g in _array(configuration.get(key))
                         if isinstance(g, pikepdf.Dictionary) and g.is_indirect}
              for key in ("/ON", "/OFF")}
    if str(configuration.get("/BaseState", "/ON")) == "/OFF":
        return {g.objgen for g in groups} - listed["/ON"]
    return listed["/OFF"]


def _array(value: Any) -> list[Any]:
    """An array's items, or a lone object as one."""
    import pikepdf

    if value is None:
        return []
    return list(value) if isinstance(value, pikepdf.Array) else [value]


def _property_values(page: Any) -> Iterator[Any]:
    """The values of the property lists of ``page``'s resources (inherited ones too)
    and of the forms those draw, each list once."""
    import pikepdf

    resources = page.get("/Resources")
    node = page
    while resources is None and isinstance(node, pikepdf.Dictionary):
        node = node.get("/Parent")
        resources = node.get("/Resources") if isinstance(node, pikepdf.Dictionary) else None
    pending, seen = [(resources, 0)], 0
    met: set[tuple[int, int]] = set()
    while pending and seen < _MAX_PROPERTY_LISTS:
        resources, depth = pending.pop()
        if not isinstance(resources, pikepdf.Dictionary):
            continue
        seen += 1
        properties = resources.get("/Properties")
        if isinstance(properties, pikepdf.Dictionary):
            yield from properties.values()
        xobjects = resources.get("/XObject")
        if not isinstance(xobjects, pikepdf.Dictionary) or depth >= _MAX_FORM_DEPTH:
            continue
        for xobject in xobjects.values():
            if not isinstance(xobject, pikepdf.Stream) or xobject.get("/Subtype") \
                    != pikepdf.Name.Form or xobject.objgen in met:
                continue
            met.add(xobject.objgen)
            pending.append((xobject.get("/Resources"), depth + 1))
