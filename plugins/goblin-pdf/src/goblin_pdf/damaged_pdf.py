"""PDFs damaged past what PDFium mends, and pages whose drawing did not survive.

PDFium rebuilds a broken cross-reference table itself, but refuses a file whose end
is gone (a download cut short, a disk that filled): no trailer, so no catalog and no
page tree, though every page before the cut is still in the file. qpdf (through
pikepdf) reconstructs such a file from its objects; PDFium then reads the copy.

A page whose content stream is missing (cut away with the end of the file) or does
not decode (a damaged deflate stream) draws nothing, and PDFium reads it as a blank
page: its text would be lost without a word. Such a page is told from a blank one
here, so it is reported as failed.
"""

from __future__ import annotations

import io
import logging
import re
import zlib
from dataclasses import dataclass
from itertools import islice
from typing import Any

from goblin_core.source import Source
from goblin_pdf.pdf_bytes import mapped
from goblin_pdf.pypdf_warnings import pypdf_warnings_held
from goblin_pdf.stream_filters import decodes_past, filter_names, most_decoded

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RebuiltPdf:
    """A damaged PDF rewritten by qpdf, decrypted, and the pages that lost their content."""

    data: bytes
    page_count: int
    #: 1-based numbers of the pages whose content stream the damaged file no longer holds
    lost_pages: frozenset[int]
    #: what was wrong with the file, for the warning that says it was rebuilt
    damage: str = "its end or cross-reference table is missing, as in a file cut short"
    #: the library that rebuilt it
    rebuilder: str = "qpdf"


def rebuilt_pdf(source: Source, password: str | None) -> RebuiltPdf | None:
    """``source`` reconstructed from its objects by qpdf, or None when qpdf finds no page
    either (not a PDF at all, or a password it is not given)."""
    import pikepdf  # loaded only for a file PDFium refused

    try:
        with pikepdf.open(io.BytesIO(_with_end_marker(source.bytes())), password=password or "",
                          attempt_recovery=True) as pdf:
            count = len(pdf.pages)
            if not count:
                return None
            # qpdf drops a key whose object is missing: a page that named a content
            # stream cut away with the end of the file is left without one
            lost = frozenset(number for number, page in enumerate(pdf.pages, start=1)
                             if page.obj.get("/Contents") is None)
            copy = io.BytesIO()
            pdf.save(copy, encryption=False)
    except Exception as exc:  # qpdf raises PdfError, PasswordError, its own ValueErrors...
        log.debug("%s: qpdf cannot rebuild it either: %s", source.display_name, exc)
        return None
    return RebuiltPdf(copy.getvalue(), count, lost)


#: Objects looked at for pages when a catalog names no page tree, and page-tree levels
#: climbed from a page to the top of its tree
_MAX_OBJECTS = 1_000_000
_MAX_TREE_DEPTH = 64
#: What a page inherits from the page-tree nodes above it (ISO 32000-1, 7.7.3.4)
_INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")


def holds_page_objects(source: Source, more_than: int) -> bool:
    """Whether the file's bytes spell out more than ``more_than`` page objects
    (``/Type /Page`` in the clear; pages inside object streams are not counted)."""
    with source.open() as stream, mapped(stream) as data:
        for found, _ in enumerate(_PAGE_TYPE.finditer(data), start=1):
            if found > more_than:
                return True
    return False


def may_hold_pages(source: Source) -> bool:
    """Whether the file's bytes may hold a page object: one in the clear, or an object
    stream, which may hold them compressed. Bytes that are no PDF hold neither, and are
    not parsed object by object for pages they cannot have."""
    if holds_page_objects(source, 0):
        return True
    with source.open() as stream, mapped(stream) as data:
        return data.find(b"/ObjStm") >= 0


_PAGE_TYPE = re.compile(rb"/Type\s*/Page(?![A-Za-z0-9#_.-])")


def page_tree_found(source: Source, password: str | None) -> RebuiltPdf | None:
    """A copy of ``source`` whose pages are its page objects, when its catalog names no
    page tree (a damaged catalog: PDFium then reads no page at all, and qpdf refuses the
    file), is no dictionary at all (null, a number, bytes that do not parse: PDFium and
    qpdf both refuse the file) or names some other object as its tree (PDFium then reads
    that one object as the only page, a blank one or the first page alone); None when the
    catalog has one (truly empty, or for PDFium to judge) or no other object is a page.

    The pages come in their own tree's order when they all climb to one top node, in
    the order of their object numbers otherwise; each takes what it inherited from the
    nodes above it. pypdf reads the objects one by one, as qpdf will not open the file."""
    import pypdf  # loaded only for a PDF PDFium finds no page in

    try:
        with pypdf_warnings_held():  # each damaged object it meets: the caller says it once
            return _page_tree_copy(pypdf, source, password)
    except Exception as exc:  # pypdf's errors on a file damaged further
        log.debug("%s: no page tree could be rebuilt: %s", source.display_name, exc)
        return None


def _page_tree_copy(pypdf: Any, source: Source, password: str | None) -> RebuiltPdf | None:
    """page_tree_found's work, which raises pypdf's errors."""
    reader = pypdf.PdfReader(io.BytesIO(source.bytes()), strict=False)
    if reader.is_encrypted and not reader.decrypt(password or ""):
        return None  # pages copied still encrypted would read as noise
    root = _catalog(reader)
    named = _resolved(root.get("/Pages")) if isinstance(root, dict) else None
    if isinstance(named, dict) and isinstance(_resolved(named.get("/Kids")), list):
        return None
    pages = _page_objects(reader)
    if not pages:
        return None
    if isinstance(named, dict) and named.get("/Type") == "/Page" and len(pages) == 1:
        return None  # a one-page file whose catalog names its page: PDFium reads it
    writer = pypdf.PdfWriter()
    for reference in _in_tree_order(pages):
        page = pypdf.PageObject(reader, reference)
        page.update(_with_inherited(reference.get_object()))
        writer.add_page(page)
    # the document's own information (its title, author, producer), not pypdf's name as
    # the copy's producer
    writer.metadata = _information(reader)
    if isinstance(root, dict):
        _keep_catalog_entries(root, writer)
    copy = io.BytesIO()
    writer.write(copy)
    count = len(pages)
    catalog = "names no page tree" if isinstance(root, dict) else "cannot be read"
    return RebuiltPdf(copy.getvalue(), count, frozenset(),
                      f"its catalog {catalog}; {count} page(s) found among its objects",
                      "pypdf")


def _resolved(value: Any) -> Any:
    return value.get_object() if hasattr(value, "get_object") else value


#: What a catalog that names no page tree still holds for the reader, kept in the copy:
#: the outline, embedded files, the form, the language. Each is cloned after the pages,
#: so a bookmark or a field that names a page names the copy's page.
_CATALOG_ENTRIES = ("/Outlines", "/Names", "/Dests", "/AcroForm", "/Lang", "/MarkInfo")


def _keep_catalog_entries(root: dict[str, Any], writer: Any) -> None:
    from pypdf.generic import NameObject

    for key in _CATALOG_ENTRIES:
        if key not in root:
            continue
        try:
            writer.root_object[NameObject(key)] = _resolved(root[key]).clone(writer)
        except Exception as exc:  # an entry damaged too costs only itself
            log.debug("catalog entry %s not kept: %s", key, exc)


def _information(reader: Any) -> dict[str, Any] | None:
    """The trailer's document information entries that are text, names or numbers,
    resolved; None when it has none (or they do not parse)."""
    from pypdf.generic import NameObject

    try:
        info = _resolved(reader.trailer.get("/Info"))
        if not isinstance(info, dict):
            return None
        entries = {str(key): _resolved(value) for key, value in info.items()}
    except Exception:  # pypdf's errors on an object it cannot parse
        return None
    # a name (/Trapped /False) is written as its text, as the dictionary is read elsewhere
    return {key: value[1:] if isinstance(value, NameObject) else value
            for key, value in entries.items() if isinstance(value, str | int | float)} or None


def _catalog(reader: Any) -> Any:
    """The trailer's /Root object, or None when it is missing or does not parse (its
    bytes overwritten): the pages may still be whole around it."""
    try:
        return _resolved(reader.trailer.get("/Root"))
    except Exception:  # pypdf's errors on an object it cannot parse
        return None


def _page_objects(reader: Any) -> list[Any]:
    """References to the objects of ``reader`` whose /Type is /Page, a bounded many."""
    import pypdf

    numbers = sorted({(number, generation) for generation, table in reader.xref.items()
                      for number in table} | {(number, 0) for number in reader.xref_objStm})
    found: list[Any] = []
    for number, generation in islice(numbers, _MAX_OBJECTS):
        reference = pypdf.generic.IndirectObject(number, generation, reader)
        try:
            value = reference.get_object()
        except Exception:  # one unreadable object costs only itself
            continue
        if isinstance(value, dict) and value.get("/Type") == "/Page":
            found.append(reference)
    return found


def _in_tree_order(pages: list[Any]) -> list[Any]:
    """``pages`` in their tree's order when they all climb to one top node that lists
    them all, else as given."""
    tops = {id(_top(page.get_object())) for page in pages}
    if len(tops) != 1:
        return pages
    top = _top(pages[0].get_object())
    wanted = {(p.idnum, p.generation) for p in pages}
    ordered: list[Any] = []
    placed: set[tuple[int, int]] = set()
    stack = list(reversed(top.get("/Kids") or []))
    while stack and len(ordered) < len(pages):
        kid = stack.pop()
        key = (getattr(kid, "idnum", None), getattr(kid, "generation", None))
        if key in wanted and key not in placed:
            placed.add(key)
            ordered.append(kid)
        elif isinstance(_resolved(kid), dict) and len(stack) < _MAX_OBJECTS:
            stack.extend(reversed(_resolved(kid).get("/Kids") or []))
    return ordered if len(ordered) == len(pages) else pages


def _top(page: Any) -> Any:
    """The topmost page-tree node above ``page`` (itself when it names no parent)."""
    node = page
    for _ in range(_MAX_TREE_DEPTH):
        parent = _resolved(node.get("/Parent"))
        if not isinstance(parent, dict):
            break
        node = parent
    return node


def _with_inherited(page: Any) -> Any:
    """``page`` with what it inherits from the nodes above it set on it."""
    from pypdf.generic import NameObject

    node = _resolved(page.get("/Parent"))
    for _ in range(_MAX_TREE_DEPTH):
        if not isinstance(node, dict):
            break
        for key in _INHERITED:
            if key not in page and key in node:
                page[NameObject(key)] = node[key]
        node = _resolved(node.get("/Parent"))
    return page


#: How far from the end a file's ``%%EOF`` is looked for (trailing bytes a transfer added)
_END_WINDOW = 1024


def _with_end_marker(data: bytes) -> bytes:
    """``data`` with an end-of-file marker after it when it has none near its end.

    A writer stopped before its cross-reference table (killed, a disk that filled) leaves
    a file that ends right after an object's ``endobj``; qpdf's reconstruction drops the
    last object of such a file as cut short ("EOF after endobj"), though it is whole: a
    page, its font or its content stream would be lost. After the marker it is kept."""
    if b"%%EOF" in data[-_END_WINDOW:]:
        return data
    return data + b"\n%%EOF\n"


class ContentCheck:
    """Tells a page that draws nothing because it is blank from one whose content
    stream does not decode, and a page drawn whole from one whose content stream is
    damaged part-way; qpdf opens the file only when such a page turns up."""

    def __init__(self, data: Source | bytes, password: str | None,
                 damaged_streams: frozenset[int] = frozenset()) -> None:
        """``damaged_streams``: the numbers of the objects whose Flate data was found
        damaged part-way before the file was opened."""
        self._data = data
        self._password = password
        self._damaged_streams = damaged_streams
        self._embedded: dict[str, list[Any]] | None = None
        self._outside: set[str] = set()  # names of files referred to, not embedded
        self._unlisted = False  # qpdf opened the file but could not list its attachments
        self._pdf: Any = None
        self._failed = False

    def damage(self, index: int) -> str | None:
        """Why page ``index`` (0-based) drew nothing when it is damaged, else None."""
        pdf = self._open()
        if pdf is None or index >= len(pdf.pages):
            return None
        import pikepdf

        for stream in _content_streams(pdf.pages[index].obj):
            try:
                stream.read_bytes()
            except pikepdf.PdfError as exc:
                return f"its content stream cannot be decoded ({_short(exc)}); its text is lost"
        return None

    def partial(self, index: int) -> str | None:
        """Why page ``index`` (0-based) drew only part of its content, else None: one of
        its content streams is damaged part-way, and a reader draws up to the damage."""
        if not self._damaged_streams:
            return None  # the file's streams all decode: qpdf is not opened
        pdf = self._open()
        if pdf is None or index >= len(pdf.pages):
            return None
        damaged = [stream.objgen[0] for stream in _content_streams(pdf.pages[index].obj)
                   if stream.objgen[0] in self._damaged_streams]
        if not damaged:
            return None
        objects = ", ".join(str(number) for number in damaged)
        return (f"its content stream (object {objects}) is damaged part-way and is drawn "
                "only up to the damage")

    def damaged_attachment(self, name: str) -> bool:
        """Whether the embedded file named ``name`` is damaged part-way, so a reader
        gives only the bytes before the damage."""
        if not self._damaged_streams:
            return False
        stream = self.embedded_file(name)
        return stream is not None and stream.objgen[0] in self._damaged_streams

    def attachment_flaw(self, name: str) -> str | None:
        """What ``flate_flaw`` finds wrong with the embedded file named ``name`` (qpdf,
        which lists the files, is open already to bound them)."""
        stream = self.embedded_file(name)
        return flate_flaw(stream) if stream is not None else None

    def embedded_file(self, name: str) -> Any:
        """The stream of the embedded file named ``name`` (its file specification's
        ``/UF`` or ``/F``), listed among the embedded files or attached to an
        annotation; None when there is none."""
        named = self._embedded_files().get(name)
        return named[0] if named else None

    def embedded_streams(self, name: str) -> list[Any] | None:
        """Every embedded file stream a file specification named ``name`` holds (two
        specifications may share a name), or, when none is named so (a name qpdf
        spells otherwise, or none at all), every embedded file stream of the document;
        None when qpdf cannot list them."""
        found = self._embedded_files()
        if self._failed or self._unlisted:
            return None
        named = found.get(name)
        if named:
            return named
        every: dict[tuple[int, int], Any] = {}
        for streams in found.values():
            every.update((stream.objgen, stream) for stream in streams)
        return list(every.values())

    def _embedded_files(self) -> dict[str, list[Any]]:
        if self._embedded is None:
            self._embedded = {}
            pdf = self._open()
            if pdf is not None:
                try:
                    self._embedded = _embedded_files(pdf, self._outside)
                except Exception as exc:  # qpdf fails on what PDFium mended: no answer
                    log.debug("embedded files unreadable by qpdf: %s", exc)
                    self._unlisted = True
        return self._embedded

    def refers_outside(self, name: str) -> bool:
        """Whether ``name`` is that of a file the PDF refers to and does not hold (a file
        specification with no embedded stream, or a bare file name): no damage, as the
        file was never in the PDF."""
        found = self._embedded_files()
        return name in self._outside and not found.get(name)

    def document(self) -> Any:
        """The file opened by qpdf (pikepdf), once; None when qpdf cannot open it."""
        return self._open()

    def _open(self) -> Any:
        if self._pdf is None and not self._failed:
            import pikepdf

            data = self._data if isinstance(self._data, bytes) else self._data.bytes()
            try:
                self._pdf = pikepdf.open(io.BytesIO(data), password=self._password or "")
            except Exception as exc:  # what PDFium reads, qpdf may not: no verdict then
                log.debug("content check unavailable: %s", exc)
                self._failed = True
        return self._pdf

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
            self._pdf = None


def _embedded_files(pdf: Any, outside: set[str]) -> dict[str, list[Any]]:
    """Each file specification's names (``/UF`` and ``/F``) and the embedded streams
    under them (the ``/EF`` entry under the same key, else the other), the first
    specification's first: PDF 2.0 makes ``/UF`` the name to show, and a writer may give
    it alone, which PDFium does not read. A name two specifications share lists the
    streams of both. The names of files referred to and not embedded (no ``/EF``, or a
    specification that is a bare file name) go into ``outside``."""
    import pikepdf

    specifications = _name_tree_values(pdf.Root.get("/Names", {}).get("/EmbeddedFiles"))
    for page in pdf.pages:
        for annotation in page.obj.get("/Annots", ()):
            if isinstance(annotation, pikepdf.Dictionary) and \
                    annotation.get("/Subtype") == "/FileAttachment":
                specifications.append(annotation.get("/FS"))
    found: dict[str, list[Any]] = {}
    for specification in specifications:
        if isinstance(specification, pikepdf.String):
            outside.add(str(specification))
        if not isinstance(specification, pikepdf.Dictionary):
            continue
        files = specification.get("/EF")
        if files is None:
            outside.update(str(specification[key]) for key in ("/UF", "/F")
                           if isinstance(specification.get(key), pikepdf.String))
        if not isinstance(files, pikepdf.Dictionary):
            continue
        named = False
        for key in ("/UF", "/F"):
            name, stream = specification.get(key), files.get(key) or files.get(
                "/F" if key == "/UF" else "/UF")
            if isinstance(name, pikepdf.String) and isinstance(stream, pikepdf.Stream):
                named = True
                _add_stream(found, str(name), stream)
        if not named:
            # named by neither key (PDFium then gives its name as empty, and no data)
            stream = next((value for value in files.values()
                           if isinstance(value, pikepdf.Stream)), None)
            if stream is not None:
                _add_stream(found, "", stream)
    return found


def _add_stream(found: dict[str, list[Any]], name: str, stream: Any) -> None:
    streams = found.setdefault(name, [])
    if all(stream.objgen != known.objgen for known in streams):
        streams.append(stream)


#: Nodes of a name tree visited at most
_MAX_NAME_TREE_NODES = 100_000


def _name_tree_values(root: Any) -> list[Any]:
    """Every value of a name tree, in its order, each entry kept even when two share a
    key (pikepdf's mapping keeps one of them). A node met again (a loop in ``/Kids``) is
    not walked twice."""
    import pikepdf

    values: list[Any] = []
    seen: set[tuple[int, int]] = set()
    stack = [root]
    while stack and len(seen) < _MAX_NAME_TREE_NODES:
        node = stack.pop()
        if not isinstance(node, pikepdf.Dictionary):
            continue
        if node.is_indirect:
            if node.objgen in seen:
                continue
            seen.add(node.objgen)
        names = node.get("/Names")
        if isinstance(names, pikepdf.Array):
            values.extend(names[index] for index in range(1, len(names), 2))
        kids = node.get("/Kids")
        if isinstance(kids, pikepdf.Array):
            stack.extend(reversed(list(kids)))
    return values


def embedded_decodes_past(stream: Any, most: int) -> bool:
    """Whether the embedded file ``stream`` decodes past ``most`` bytes, counted through
    its filters a piece at a time and kept nowhere, as a reader holds them: every
    filter's output counts. A stream too small to reach ``most`` through its filters'
    largest ratios is not decoded; a filter not counted here (an image's) ends the count
    where it stands."""
    raw = stream.read_raw_bytes()
    filters = stream.get("/Filter")
    chain = filter_names(filters.unparse(resolved=True)) if filters is not None else []
    if len(raw) > most:
        return True
    if most_decoded(len(raw), chain) <= most:
        return False
    parameters = stream.get("/DecodeParms")
    dictionary = parameters.unparse(resolved=True) if parameters is not None else b""
    return decodes_past(iter((raw,)), chain, dictionary, most)


def embedded_data(stream: Any, most: int) -> bytes:
    """An embedded file's bytes, decoded without ever holding more than ``most`` + 1 of
    them: ValueError when it decodes to more, or through a filter not decoded here;
    zlib.error when its Flate data is damaged."""
    import pikepdf

    filters = stream.get("/Filter")
    names = [str(name) for name in (filters if isinstance(filters, pikepdf.Array)
                                    else [] if filters is None else [filters])]
    raw = stream.read_raw_bytes()
    if not names:
        data = raw
    elif names == ["/FlateDecode"] and "/DecodeParms" not in stream:
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, most + 1)
        if len(data) <= most and not inflater.eof:
            raise zlib.error("its Flate data ends before its end")
    else:
        raise ValueError(f"its filters ({' '.join(names)}) are not decoded here")
    if len(data) > most:
        raise ValueError(f"it decodes to more than {most:,} bytes")
    return data


def inflated_before_damage(stream: Any, most: int) -> bytes:
    """What the embedded file ``stream``'s Flate data inflates to before its damage, at
    most ``most`` bytes. PDFium gives the stream's raw bytes for one whose data breaks
    at its start, which would be handed on as the file."""
    return _up_to_break(zlib.decompressobj(), stream.read_raw_bytes(), _DAMAGE_PIECE,
                        most + 1)[:most]


def _up_to_break(inflater: Any, data: bytes, step: int, room: int) -> bytes:
    """What ``inflater`` makes of ``data``, fed ``step`` bytes a call, up to where it
    breaks, at most about ``room`` bytes. zlib gives up the whole output of the call it
    fails in, so the piece it breaks in is fed again a byte at a time, to a copy of the
    inflater made before it."""
    made: list[bytes] = []
    for at in range(0, len(data), step):
        piece = data[at:at + step]
        before = inflater.copy() if step > 1 else None
        try:
            made.append(inflater.decompress(piece, room))
        except zlib.error:
            if before is not None:
                made.append(_up_to_break(before, piece, 1, room))
            break
        room -= len(made[-1])
        if room <= 0 or inflater.eof:
            break
    return b"".join(made)


#: Bytes of damaged Flate data inflated in one call before the piece it breaks in
_DAMAGE_PIECE = 1 << 16


def flate_flaw(stream: Any) -> str | None:
    """What is wrong with the embedded file ``stream``, plain Flate data the stream check
    found no break in, or None: ``"checksum"`` when it inflates whole but fails its
    checksum (damage in the middle of deflate data seldom breaks it: flipped bits mostly
    read as other codes, and only the checksum at its end tells), ``"cut"`` when it stops
    before its last block. The readers take either as it is, without a word."""
    import pikepdf

    if stream.get("/Filter") != pikepdf.Name.FlateDecode or "/DecodeParms" in stream:
        return None
    raw = stream.read_raw_bytes()
    whole = _inflates_to_end(zlib.decompressobj(), raw)
    if whole is None:
        return "checksum"
    if whole:
        return None
    # no checksum read: whole deflate data a writer left it off (as some do), or cut data
    return None if _inflates_to_end(zlib.decompressobj(-zlib.MAX_WBITS), raw[2:]) else "cut"


def _inflates_to_end(inflater: Any, piece: bytes) -> bool | None:
    """Whether ``inflater`` reaches the end of its data in ``piece`` (None: it breaks),
    counting the output and never holding it whole."""
    try:
        while piece and not inflater.eof:
            inflater.decompress(piece, _CHECK_PIECE)
            piece = inflater.unconsumed_tail
    except zlib.error:
        return None
    return bool(inflater.eof)


#: Bytes inflated at a time when only whether the data is whole is wanted
_CHECK_PIECE = 1 << 20
def _content_streams(page: Any) -> list[Any]:
    """The streams a page's ``/Contents`` names (one, or an array of them)."""
    import pikepdf

    contents = page.get("/Contents")
    found = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    return [stream for stream in found if isinstance(stream, pikepdf.Stream)]


def _short(exc: Exception) -> str:
    """qpdf's message without the file name and offset it starts with."""
    text = str(exc)
    return text.rsplit("): ", 1)[-1] if "): " in text else text
