"""Tagged PDFs: the structure tree turned into blocks, behind a Tika-style gate.

The tree is followed on a page only when it covers at least ``min_coverage``
of the page's text (artifacts aside) and at most ``max_dangling_ratio`` of its
marked-content leaves point at nothing on the page. Untagged text and
artifacts (running headers, footers, page numbers) are kept as blocks of
their own kinds, so nothing is lost and consumers can drop them.
"""

from __future__ import annotations

import codecs
import ctypes
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_core.model import Block
from goblin_pdf.layout.glyphs import Glyphs
from goblin_pdf.layout.hyphens import dehyphenate
from goblin_pdf.layout.native import untyped
from goblin_pdf.layout.outcome import TagOutcome
from goblin_pdf.layout.settings import LayoutSettings

_HEADING = re.compile(r"^H([1-6])?$")
_CONTAINERS = frozenset({"Document", "DocumentFragment", "Part", "Sect", "Div", "Art",
                         "NonStruct", "L", "TOC", "Index", "BlockQuote", "Private",
                         "THead", "TBody", "TFoot", "Aside"})
_PARAGRAPHS = frozenset({"P", "Note", "Code", "Formula", "Caption", "Title", "TOCI",
                         "BibEntry", "Lbl"})
_BULLET = re.compile(r"^[\u2022\u00b7\u25aa\u25e6\u2023\u25cf\u25cb\u25a0\u25a1\u2013*-]\s*")
_MAX_DEPTH = 64
_EDGE = 0.1  # share of the page height counted as header or footer band


@dataclass
class _Walk:
    """State of one structure-tree walk: blocks found and leaves met."""

    texts: dict[int, str]
    page: str  # the page's text, which says how the page writes a word broken at a hyphen
    blocks: list[Block] = field(default_factory=list)
    leaves: list[int] = field(default_factory=list)
    #: MCID -> the block its text went into (the next emitted after it was met)
    block_of: dict[int, int] = field(default_factory=dict)
    assigned: int = 0  # leaves given a block so far


@dataclass(slots=True)
class _Node:
    """One structure element, read from PDFium once: its kids (``_Node`` for element
    kids, ``int`` MCIDs for marked-content kids) and, when first asked, its type.

    The walk looks at an element's kids and types several times (is it a block?
    what text is under it?); each look through ctypes costs more than the walk.
    Most elements' types are never asked (the cells of a table, the paragraphs in
    them: their text is all that is read), so they are not read up front.
    """

    handle: _Element
    kids: list[_Node | int]
    _kind: str | None = None

    @property
    def kind(self) -> str:
        if self._kind is None:
            self._kind = _string(_TYPE, self.handle)
        return self._kind

    def elements(self) -> Iterator[_Node]:
        return (kid for kid in self.kids if isinstance(kid, _Node))

    def actual_text(self) -> str:
        return _string(_ACTUAL_TEXT, self.handle)

    def alt_text(self) -> str:
        return _string(_ALT_TEXT, self.handle)


class _Element(ctypes.c_void_p):
    """A structure element's handle. As a subclass of ``c_void_p`` it comes back from
    ``_KID`` as this object, not as an int, and goes back into the untyped calls
    below as it is."""


# The structure-element calls, typed to take and return plain addresses: a tagged
# page has hundreds of elements, and pypdfium2's prototypes convert handles on
# every call, which costs more than PDFium's work. The calls made for every kid of
# every element take no declared types at all (see ``untyped``): an element handle
# and a C int index, with no conversion object built for either.
_ADDRESS = ctypes.c_void_p
_STRING_GETTER = ctypes.CFUNCTYPE(ctypes.c_ulong, _ADDRESS, _ADDRESS, ctypes.c_ulong)
_TYPE = ctypes.cast(pdfium_c.FPDF_StructElement_GetType, _STRING_GETTER)
_ACTUAL_TEXT = ctypes.cast(pdfium_c.FPDF_StructElement_GetActualText, _STRING_GETTER)
_ALT_TEXT = ctypes.cast(pdfium_c.FPDF_StructElement_GetAltText, _STRING_GETTER)
_COUNT_KIDS = untyped(pdfium_c.FPDF_StructElement_CountChildren, ctypes.c_int)
_KID = untyped(pdfium_c.FPDF_StructElement_GetChildAtIndex, _Element)
_KID_MCID = untyped(pdfium_c.FPDF_StructElement_GetChildMarkedContentID, ctypes.c_int)


def _read_node(elem: _Element, depth: int) -> _Node:
    kids: list[_Node | int] = []
    if depth <= _MAX_DEPTH:
        # PDFium's -1 for a bad handle makes an empty range, as no kids do
        for i in range(_COUNT_KIDS(elem)):
            child = _KID(elem, i)
            if child:
                kids.append(_read_node(child, depth + 1))
            else:
                mcid = _KID_MCID(elem, i)
                if mcid >= 0:
                    kids.append(mcid)
    return _Node(elem, kids)


def structure_blocks(page: pdfium.PdfPage, glyphs: Glyphs, objects: dict[int, int],
                     settings: LayoutSettings) -> TagOutcome:
    """Blocks from the page's structure tree, or why it was not followed."""
    marks = _object_marks(objects)
    char_mcid, artifact = _char_marks(glyphs, marks)
    texts = _mcid_texts(glyphs.codes, char_mcid)
    walk = _Walk(texts, glyphs.text)
    tree = pdfium_c.FPDF_StructTree_GetForPage(page)
    if not tree:
        return TagOutcome.skipped("the page has no structure tree")
    try:
        for i in range(pdfium_c.FPDF_StructTree_CountChildren(tree)):
            child = ctypes.cast(pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, i), _Element)
            if child:
                _visit(_read_node(child, 0), walk)
    finally:
        pdfium_c.FPDF_StructTree_Close(tree)
    if not walk.leaves:
        return TagOutcome.skipped("the structure tree marks no content on the page")
    present = _page_mcids(page)
    leaves = set(walk.leaves)
    dangling = len(leaves - present) / len(leaves)
    text_chars = glyphs.drawn & ~artifact
    total = int(text_chars.sum())
    covered = int((text_chars & np.isin(char_mcid, list(leaves))).sum())
    coverage = covered / total if total else 0.0
    forced = settings.marked_content == "tags"
    if not forced and total and coverage < settings.min_coverage:
        return TagOutcome(False, f"coverage {coverage:.2f} < min_coverage "
                          f"{settings.min_coverage:.2f}", coverage, dangling)
    if not forced and dangling > settings.max_dangling_ratio:
        return TagOutcome(False, f"dangling {dangling:.2f} > max_dangling_ratio "
                          f"{settings.max_dangling_ratio:.2f}", coverage, dangling)
    extra = _loose_text(glyphs, char_mcid, artifact, leaves)
    header = [b for b in extra if b.kind == "header"]
    rest = [b for b in extra if b.kind != "header"]
    return TagOutcome(True, "", coverage, dangling, tuple(header + walk.blocks + rest),
                      _ranks(char_mcid, artifact, walk.block_of))


def _ranks(char_mcid: np.ndarray, artifact: np.ndarray, block_of: dict[int, int]) -> np.ndarray:
    """Each glyph's place in the tree's reading order: the number of the block its MCID's
    text went into (-1 for an artifact or an untagged glyph). Blocks, not MCIDs: the
    tree orders a page's paragraphs, tables and asides, and the lines inside one are read
    as laid out (a cell of two lines tagged apart stays whole)."""
    found, inverse = np.unique(char_mcid, return_inverse=True)
    ranks = np.array([block_of.get(int(mcid), -1) for mcid in found], dtype=np.int64)[inverse]
    ranks[artifact] = -1
    return ranks


def _visit(node: _Node, walk: _Walk) -> None:
    kind = node.kind
    heading = _HEADING.match(kind)
    if heading:
        _emit(walk, "heading", _content(node, walk), int(heading.group(1) or 1))
    elif kind == "LI":  # the renderers draw their own bullet
        _emit(walk, "list_item", _BULLET.sub("", _content(node, walk)))
    elif kind == "Table":
        _emit(walk, "table", _table(node, walk))
    elif kind == "Figure":
        _emit(walk, "figure", node.alt_text().strip() or _content(node, walk))
    elif kind == "Caption":
        _emit(walk, "caption", _content(node, walk))
    elif kind in _CONTAINERS or (kind not in _PARAGRAPHS and _has_block_children(node)):
        for kid in node.kids:
            if isinstance(kid, _Node):
                _visit(kid, walk)
            else:
                walk.leaves.append(kid)
                _emit(walk, "paragraph", _clean(walk.texts.get(kid, ""), walk.page))
    else:
        _emit(walk, "paragraph", _content(node, walk))


def _emit(walk: _Walk, kind: str, text: str, level: int = 0) -> None:
    if text:
        for mcid in walk.leaves[walk.assigned:]:
            walk.block_of.setdefault(mcid, len(walk.blocks))
        walk.assigned = len(walk.leaves)
        walk.blocks.append(Block(kind, text, level=level))


def _content(node: _Node, walk: _Walk) -> str:
    """All text under ``node`` (inline children such as Span and Link included)."""
    actual = node.actual_text()
    parts = [walk.texts.get(mcid, "") for mcid in _mcids(node, walk.leaves)]
    return actual.strip() or _clean(" ".join(p for p in parts if p), walk.page)


def _table(node: _Node, walk: _Walk) -> str:
    """A tagged table as Markdown rows (header row first when it has TH cells)."""
    rows: list[list[str]] = []
    for row in _descendants(node, "TR"):
        cells = [_content(cell, walk).replace("|", "\\|") for cell in row.elements()]
        if cells:
            rows.append(cells)
    if not rows:
        return _content(node, walk)
    width = max(len(r) for r in rows)
    lines = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in rows]
    lines.insert(1, "|" + " --- |" * width)
    return "\n".join(lines)


def _descendants(node: _Node, kind: str) -> Iterator[_Node]:
    for child in node.elements():
        if child.kind == kind:
            yield child
        else:
            yield from _descendants(child, kind)


def _mcids(node: _Node, leaves: list[int]) -> Iterator[int]:
    for kid in node.kids:
        if isinstance(kid, _Node):
            yield from _mcids(kid, leaves)
        else:
            leaves.append(kid)
            yield kid


def _has_block_children(node: _Node) -> bool:
    return any(child.kind in _CONTAINERS or child.kind in _PARAGRAPHS
               or _HEADING.match(child.kind) or child.kind in ("LI", "Table", "Figure")
               for child in node.elements())


_SHORT = 128  # bytes: element types and most texts fit, so one native call reads them
# One buffer for every short read: a page's walk makes thousands, one at a time
# (PDFium runs on one thread of a process).
_BUFFER = ctypes.create_string_buffer(_SHORT)
_BUFFER_ADDRESS = ctypes.addressof(_BUFFER)
# The buffer's bytes, read in place: a slice of it decodes without a copy to bytes
_BUFFER_VIEW = memoryview(_BUFFER).cast("B")


def _string(getter: Callable[[ctypes.c_void_p, int, int], int], handle: ctypes.c_void_p) -> str:
    """A UTF-16LE string from a PDFium getter that reports the size it needs."""
    size = getter(handle, _BUFFER_ADDRESS, _SHORT)
    if size <= 2:
        return ""
    if size > _SHORT:
        buffer = ctypes.create_string_buffer(size)
        getter(handle, ctypes.addressof(buffer), size)
        return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")
    # what bytes.decode("utf-16-le", "replace") runs, without its codec lookup
    return codecs.utf_16_le_decode(_BUFFER_VIEW[: size - 2], "replace", True)[0]


def _clean(text: str, page: str) -> str:
    return " ".join(dehyphenate(text.replace("\r\n", "\n").replace("\r", "\n"), page).split())


# -- marked content of the page's objects ------------------------------------


# Per page object calls, typed like the structure-element ones above: a tagged
# page has thousands of objects.
_OBJECT_MCID = ctypes.cast(pdfium_c.FPDFPageObj_GetMarkedContentID,
                           ctypes.CFUNCTYPE(ctypes.c_int, _ADDRESS))
_COUNT_MARKS = ctypes.cast(pdfium_c.FPDFPageObj_CountMarks,
                           ctypes.CFUNCTYPE(ctypes.c_int, _ADDRESS))
_MARK = ctypes.cast(pdfium_c.FPDFPageObj_GetMark,
                    ctypes.CFUNCTYPE(_ADDRESS, _ADDRESS, ctypes.c_ulong))
_MARK_NAME = ctypes.cast(pdfium_c.FPDFPageObjMark_GetName, ctypes.CFUNCTYPE(
    ctypes.c_int, _ADDRESS, _ADDRESS, ctypes.c_ulong, _ADDRESS))
_COUNT_OBJECTS = ctypes.cast(pdfium_c.FPDFPage_CountObjects,
                             ctypes.CFUNCTYPE(ctypes.c_int, _ADDRESS))
_OBJECT = ctypes.cast(pdfium_c.FPDFPage_GetObject,
                      ctypes.CFUNCTYPE(_ADDRESS, _ADDRESS, ctypes.c_int))
_COUNT_FORM_OBJECTS = ctypes.cast(pdfium_c.FPDFFormObj_CountObjects,
                                  ctypes.CFUNCTYPE(ctypes.c_int, _ADDRESS))
_FORM_OBJECT = ctypes.cast(pdfium_c.FPDFFormObj_GetObject,
                           ctypes.CFUNCTYPE(_ADDRESS, _ADDRESS, ctypes.c_ulong))
_OBJECT_TYPE = ctypes.cast(pdfium_c.FPDFPageObj_GetType,
                           ctypes.CFUNCTYPE(ctypes.c_int, _ADDRESS))
# "Artifact" as PDFium writes a mark name: UTF-16LE with its terminator
_ARTIFACT = "Artifact\0".encode("utf-16-le")
_NAME_LENGTH = ctypes.c_ulong(0)
_NAME_LENGTH_ADDRESS = ctypes.addressof(_NAME_LENGTH)


def _object_marks(objects: dict[int, int]) -> dict[int, tuple[int, bool]]:
    """Object index -> (MCID, is artifact) for every text object glyphs came from."""
    return {index: (int(_OBJECT_MCID(address)), _is_artifact(address))
            for address, index in objects.items()}


def _is_artifact(address: int) -> bool:
    for i in range(max(_COUNT_MARKS(address), 0)):
        mark = _MARK(address, i)
        # a name that does not fit the buffer is longer than "Artifact": not read
        if (mark and _MARK_NAME(mark, _BUFFER_ADDRESS, _SHORT, _NAME_LENGTH_ADDRESS)
                and _NAME_LENGTH.value == len(_ARTIFACT)
                and _BUFFER_VIEW[: len(_ARTIFACT)] == _ARTIFACT):
            return True
    return False


def _char_marks(glyphs: Glyphs,
                marks: dict[int, tuple[int, bool]]) -> tuple[np.ndarray, np.ndarray]:
    """Per character MCID (-1: none) and artifact flag; spaces take their left neighbour's."""
    table = np.full(len(marks) + 1, -1, dtype=np.int64)
    art = np.zeros(len(marks) + 1, dtype=bool)
    for index, (mcid, artifact) in marks.items():
        table[index], art[index] = mcid, artifact
    obj = glyphs.obj
    source = np.where(obj >= 0, np.arange(obj.size), 0)
    source = np.maximum.accumulate(source) if obj.size else source
    owner = obj[source]
    return np.where(owner >= 0, table[owner], -1), np.where(owner >= 0, art[owner], False)


def _mcid_texts(codes: np.ndarray, char_mcid: np.ndarray) -> dict[int, str]:
    """Each MCID's characters in stream order, from the page's code points."""
    if char_mcid.size == 0:
        return {}
    order = np.argsort(char_mcid, kind="stable")
    values = char_mcid[order]
    # characters without an MCID (-1) sort first and are left out
    tagged = int(np.searchsorted(values, 0))
    order, values = order[tagged:], values[tagged:]
    if values.size == 0:
        return {}
    # one decode for the page, then cut: each code point is one character of the text
    text = codes.astype(np.uint32)[order].tobytes().decode("utf-32-le", "surrogatepass")
    starts = [0, *(np.nonzero(np.diff(values))[0] + 1).tolist()]
    ends = [*starts[1:], len(text)]
    return {mcid: text[a:b]
            for mcid, a, b in zip(values[starts].tolist(), starts, ends, strict=True)}


def _page_mcids(page: pdfium.PdfPage) -> set[int]:
    """MCIDs any object of the page carries (images and paths too, forms included)."""
    found: set[int] = set()
    page_address = ctypes.cast(page.raw, _ADDRESS).value
    pending: list[tuple[int | None, int]] = [(None, 0)]
    while pending:
        form, depth = pending.pop()
        if form is None:
            count = _COUNT_OBJECTS(page_address)
            objects = [_OBJECT(page_address, i) for i in range(max(count, 0))]
        else:
            count = _COUNT_FORM_OBJECTS(form)
            objects = [_FORM_OBJECT(form, i) for i in range(max(count, 0))]
        for obj in objects:
            if not obj:
                continue
            mcid = _OBJECT_MCID(obj)
            if mcid >= 0:
                found.add(mcid)
            if _OBJECT_TYPE(obj) == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 8:
                pending.append((obj, depth + 1))
    return found


def _loose_text(glyphs: Glyphs, char_mcid: np.ndarray, artifact: np.ndarray,
                leaves: set[int]) -> list[Block]:
    """Artifacts and text outside the tree, in stream order, as header/footer/artifact blocks."""
    loose = glyphs.drawn & (artifact | ~np.isin(char_mcid, list(leaves)))
    index = np.nonzero(loose)[0]
    if index.size == 0:
        return []
    # a new block wherever the stream skips tagged text or switches artifact/untagged
    cuts = np.nonzero((np.diff(index) > 2) | (np.diff(artifact[index].astype(np.int8)) != 0))[0] + 1
    blocks = []
    for part in np.split(index, cuts):
        text = _clean(glyphs.text[int(part[0]): int(part[-1]) + 1], glyphs.text)
        if not text:
            continue
        box = glyphs.box[part]
        bbox = (float(box[:, 0].min()), float(box[:, 1].min()), float(box[:, 2].max()),
                float(box[:, 3].max()))
        blocks.append(Block(_loose_kind(bool(artifact[part[0]]), bbox, glyphs.height), text,
                            bbox=bbox))
    return blocks


def _loose_kind(is_artifact: bool, bbox: tuple[float, float, float, float],
                height: float) -> str:
    """Artifacts in the top or bottom band are running headers and footers; anything
    else outside the tree (untagged text, other artifacts) is an ``artifact`` block."""
    if is_artifact and bbox[1] > (1 - _EDGE) * height:
        return "header"
    if is_artifact and bbox[3] < _EDGE * height:
        return "footer"
    return "artifact"
