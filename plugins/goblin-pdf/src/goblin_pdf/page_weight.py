"""What each page of a PDF makes a reader parse, weighed before the page loads.

PDFium loads a page by parsing all of its content at once, inside one call that nothing
can interrupt, and holds a few hundred bytes for every text or path object and every
character it finds. A small file can make that content enormous:

- a page's content streams are Flate data: 90 kB inflate to 60 MiB of ``(AB) Tj``, eight
  million text objects (7.6 GB);
- a page may name one content stream many times: a 7 kB file whose page names a 64 kB
  stream a thousand times took PDFium past 2.5 GB;
- a form XObject is parsed again each time it is drawn: forty forms that each draw the
  next one twice make 2^40 parses, and so does a form without resources of its own that
  draws itself twice through the page's; one form of a thousand characters drawn
  100,000 times makes a page of a hundred million characters from a file of 3 kB.

So each page is weighed: the bytes of its content streams, each as often as the page
names it, and of each form's content once per draw, nested forms included, and how many
forms it draws. Content dense in drawing operators weighs more than its bytes: a million
``(x) Tj`` are 7 MB and a gigabyte in PDFium, so each operator counts as
``MAX_PAGE_OBJECTS``-th of the limit when that is more. A page past
``pdf.max_page_content`` bytes, past ``MAX_FORM_DRAWS`` draws, or with a form that draws
itself (directly or through others) more than once per round, is refused. Most PDFs are
settled from their bytes alone: stream dictionaries are never compressed (PDF 32000-1,
7.5.7), so each page's ``/Contents`` (in the clear or in an object stream) and every
form are found there. A page whose streams are small enough that even their filters'
largest ratios keep them within the limit is not decoded; the others, and all of them
when the PDF has forms, are decoded (:mod:`goblin_pdf.stream_filters`), counting bytes
and ``Do`` operators and keeping nothing. When no page, with the costliest form drawn as
often as its content says ``Do``, can pass the limits, pypdf is never opened. Otherwise
pypdf, which reads the object graph without drawing it, weighs the pages one by one;
each form's weight is kept once known, so the count is linear in the number of forms.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, BinaryIO

from goblin_core.config import Config
from goblin_core.source import Source
from goblin_pdf.passwords import document_password
from goblin_pdf.pdf_bytes import (
    OBJECT,
    OBJECT_START,
    StreamTable,
    chunks,
    mapped,
    stream_end,
)
from goblin_pdf.pypdf_warnings import pypdf_warnings_held
from goblin_pdf.stream_filters import (
    FLATE,
    GROWTH,
    filter_chain,
    layers,
    most_decoded,
    read_name,
)

log = logging.getLogger(__name__)


def _escapable(name: bytes) -> bytes:
    """A pattern for the PDF name ``/name``, any of its letters written as a #xx escape
    too (a reader decodes them: ``/Cont#65nts`` is ``/Contents``), and no longer."""
    letters = b"".join(b"(?:%c|#%X|#%x)" % (c, c, c) for c in name)
    return b"/" + letters + rb"(?![^\s/\[\]()<>{}%])"


#: Form XObjects one page may draw, nested ones included, before it is refused.
MAX_FORM_DRAWS = 100_000
#: Bytes of content one page may make a reader parse (pdf.max_page_content's default).
#: The densest content, two-character strings, costs PDFium about 93 bytes per byte, so
#: this keeps a page under about 1.5 GB at worst; the largest content stream among 537
#: real PDFs inflates to 11 MB.
MAX_PAGE_CONTENT = 16 * 1024**2
#: Drawing operators (text shown, paths painted, images and forms drawn, states saved)
#: one page may run at most, forms' once per draw. PDFium holds up to a kilobyte for each
#: object they make, so dense content (eight bytes a string drawn) passes the byte limit
#: long before it is small: a million ``(x) Tj`` take 7 MB and a gigabyte. Each operator
#: counts as ``max_page_content`` over this many bytes; the busiest page among 537 real
#: PDFs runs 37,000.
MAX_PAGE_OBJECTS = 500_000
# An operator and the space after it: no fewer bytes make one, so content up to twice
# MAX_PAGE_OBJECTS bytes cannot pass it and its operators need no count.
_SMALLEST_OPERATOR = 2
# Text and single-letter operators; "Tj" or "Do" inside a name or string counts too, which
# only ever adds weight, and keeps the pattern quick (a megabyte in about 30 ms).
_DRAWING = re.compile(rb"T[jJ]|Do|BI|[\s\])>][qSsFBbf'\"]\*?(?=[\s\[(/<%])")
# _DRAWING's matches cannot overlap (no byte of one can start or end another), so they
# are counted apart: its words with bytes.count, and its single letters from a map of
# each byte's class (1: a delimiter before, 2: an operator letter, 4: a delimiter after,
# 8: "*"), a few passes in C where the pattern runs about three times slower.
_DRAWING_WORDS = (b"Tj", b"TJ", b"Do", b"BI")
_BYTE_CLASSES = bytes((1 if c in b" \t\n\r\x0b\x0c])>" else 0)
                      | (2 if c in b"qSsFBbf'\"" else 0)
                      | (4 if c in b" \t\n\r\x0b\x0c[(/<%" else 0)
                      | (8 if c == 0x2A else 0) for c in range(256))
_FORM = re.compile(rb"/Subtype\s*/Form\b")
_OBJECT_HEADER = re.compile(rb"(\d{1,10})\s+(\d{1,5})\s+obj$")
_HEADER_WINDOW = 1 << 16  # bytes searched back from /Subtype /Form for its "N G obj"
_RESOURCES = re.compile(rb"/Resources\s*(<<|\d+\s+\d+\s+R)")
_XOBJECTS = re.compile(rb"/XObject\s*(<<|\d+\s+\d+\s+R)")
_NAMED_REFERENCE = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*(\d+)\s+(\d+)\s+R")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_MAX_CONTENT = 8 << 20  # a form's content past this is left to pypdf
_MAX_OBJECTS = 64 << 20  # an object stream inflating past this is left to pypdf
_OBJECT_STREAM = re.compile(_escapable(b"Type") + rb"\s*" + _escapable(b"ObjStm"))
# a match starts only where a number does and never backtracks: a cross-reference table
# is digits and spaces for megabytes
_REFERENCE = re.compile(rb"(?<![0-9])([0-9]++)\s++[0-9]++\s++R")
#: a page's /Contents: an array or a reference (a string is an annotation's text); the
#: name matched with its letters #xx-escaped too, as a reader decodes them
_CONTENTS = re.compile(_escapable(b"Contents")
                       + rb"\s*(\[[^\]]*\]|[0-9]+\s+[0-9]+\s+R)")
_MAX_ARRAY = 1 << 20  # bytes read from an array object in the clear
#: a form field's widget annotation, counted to know what loading the form costs
_WIDGET = re.compile(_escapable(b"Widget"))
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")
_MAX_DEPTH = 64
_LOOP = MAX_FORM_DRAWS + 1  # what a form that draws itself more than once counts for

Key = tuple[int, int]  # object number and generation
Cost = tuple[int, int]  # forms drawn and bytes of content parsed


@dataclass
class _Verdicts:
    """What the census said of one source's pages, under one password and limit."""

    limits: tuple[str | None, float]
    settled: bool = False  # no page is refused, or none can be weighed
    pages: dict[int, str | None] = field(default_factory=dict)


# Verdicts by the identity of the source weighed: the parser and each recovery engine
# weigh the same PDF, and a bomb's pages are the ones they all come back to.
_VERDICTS: dict[int, _Verdicts] = {}


class PageCensus:
    """Which pages of one PDF are content or form bombs; pypdf opens it only when the
    bytes cannot rule one out."""

    def __init__(self, source: Source, password: str | None = None,
                 content_limit: int = MAX_PAGE_CONTENT,
                 streams: StreamTable | None = None) -> None:
        """``streams``: the streams the stream check found in ``source``'s bytes, when it
        read the same bytes (:func:`goblin_pdf.stream_bombs.check_streams`)."""
        self.source = source
        self.content_limit = content_limit or float("inf")
        self.per_operator = _per_operator(self.content_limit)
        self._password = password
        self._reader: Any = None
        self._drawn_reader: Any = None  # opened only to weigh annotation appearances
        self._unlisted: Exception | None = None  # why pypdf could not list the pages
        self._stream: BinaryIO | None = None
        self._costs: dict[tuple[Key, int], Cost] = {}
        #: form-field widgets the PDF's bytes hold, at least (0 when not read)
        self.widgets = 0
        known = _VERDICTS.get(id(source))
        if known is not None and known.limits == (password, self.content_limit):
            # weighed already (by the parser, for a recovery engine): the pages still to
            # weigh open pypdf when asked
            self._verdicts, self._lazy = known, not known.settled
            return
        self._verdicts, self._lazy = _Verdicts((password, self.content_limit)), False
        _VERDICTS[id(source)] = self._verdicts
        weakref.finalize(source, _VERDICTS.pop, id(source), None)
        try:
            self._open(streams)
        except Exception as exc:  # pypdf cannot read it: PDFium's verdict stands alone
            log.debug("%s: pages not weighed: %s", source.display_name, exc)
            self.close()
        self._verdicts.settled = self._reader is None

    @classmethod
    def of(cls, source: Source, config: Config,
           streams: StreamTable | None = None) -> PageCensus:
        """The census with the password and limit ``config`` gives."""
        return cls(source, document_password(source, config),
                   int(config.section("pdf").get("max_page_content", MAX_PAGE_CONTENT)),
                   streams)

    def refusal(self, number: int) -> str | None:
        """Why page ``number`` (1-based) must not be loaded, or None."""
        if number in self._verdicts.pages or self._verdicts.settled:
            return self._verdicts.pages.get(number)
        if self._reader is None and self._lazy:
            self._lazy = False
            try:
                self._reader = self._open_reader(self.source.open())
            except Exception as exc:  # as when the first census could not open it
                log.debug("%s: pages not weighed: %s", self.source.display_name, exc)
        if self._reader is None:
            return None
        try:
            with pypdf_warnings_held():
                draws, size = self._page(self._pypdf_page(self._reader, number))
        except Exception as exc:  # pypdf fails on what PDFium may still read: no verdict
            log.debug("%s: page %d not weighed: %s", self.source.display_name, number, exc)
            draws = size = 0
        finally:
            self._costs.clear()  # keyed by the identity of resources this page holds
        excess = self._excess((draws, size))
        verdict = f"page {number} {excess}; not loaded" if excess else None
        self._verdicts.pages[number] = verdict
        return verdict

    def drawing_refusal(self, number: int) -> str | None:
        """Why page ``number``'s annotations must not be drawn with it, or None.

        Rendering a page (for OCR) or flattening it (for signature text) also parses
        each annotation's appearance streams, which are forms like any other: a stamp
        whose appearance nests forty forms is a form bomb the page's own content does
        not show. pypdf weighs them only when asked, since most pages are never drawn."""
        reader = self._reader or self._drawn_reader
        try:
            if reader is None:
                self._drawn_reader = reader = self._open_reader(self.source.open())
            with pypdf_warnings_held():
                page = self._pypdf_page(reader, number)
                annotations = page.get("/Annots")
                if annotations is None:
                    return None
                draws, size = self._page(page)
                for appearance in _appearances(annotations.get_object()):
                    one = self._form(_key(appearance), appearance.get_object(),
                                     page.get("/Resources"), [], 1)
                    draws, size = draws + one[0], size + one[1]
                    if self._over((draws, size)):
                        break
        except Exception as exc:  # no verdict from pypdf: the appearances stay undrawn
            return f"page {number}'s annotation appearances could not be weighed ({exc})"
        finally:
            self._costs.clear()
        excess = self._excess((draws, size))
        return f"page {number} with its annotation appearances {excess}" if excess else None

    def _pypdf_page(self, reader: Any, number: int) -> Any:
        """Page ``number`` as pypdf reads it. A page tree pypdf cannot list (past its
        limit on entries: a few kilobytes can name one page a million times) fails every
        later page at once, where pypdf would walk the whole tree again for each."""
        if self._unlisted is not None:
            raise self._unlisted
        try:
            return reader.pages[number - 1]
        except Exception as exc:
            if getattr(reader, "flattened_pages", None) is None:
                self._unlisted = exc
            raise

    def _excess(self, cost: Cost) -> str | None:
        """What ``cost`` is past, as said of a page; None when within the limits."""
        if cost[0] > MAX_FORM_DRAWS:
            return (f"draws form XObjects nested in each other more than {MAX_FORM_DRAWS:,} "
                    "times over (a form bomb)")
        if cost[1] > self.content_limit:
            return (f"makes a reader parse more than pdf.max_page_content "
                    f"({int(self.content_limit):,} bytes) of content, each form once per "
                    f"draw and each drawing operator as {self.per_operator:.0f} bytes "
                    "(a content or form bomb)")
        return None

    def _page(self, page: Any) -> Cost:
        """A page's weight: its content streams, each as often as it names them, and
        the forms they draw."""
        contents = page.get("/Contents")
        contents = contents.get_object() if contents is not None else None
        if contents is None:
            return 0, 0
        named = contents if isinstance(contents, list) else [page.raw_get("/Contents")]
        times = Counter(getattr(item, "idnum", id(item)) for item in named)
        streams: dict[Any, Any] = {}
        for item in named:
            streams.setdefault(getattr(item, "idnum", id(item)), item)
        resources = page.get("/Resources")
        draws = size = content = 0
        read: list[tuple[int, bytes]] = []
        for key, item in streams.items():
            stream = item.get_object()
            data = stream.get_data() if hasattr(stream, "get_data") else b""
            read.append((times[key], data))
            # the content's own bytes first: a stream named a thousand times is refused
            # before the forms it draws are looked at
            content += times[key] * len(data)
            size += times[key] * len(data)
            if self._over((draws, size)):
                return draws, size
            inner = self._draws(resources, data, [])
            draws += times[key] * inner[0]
            size += times[key] * inner[1]
            if self._over((draws, size)):
                return draws, size
        if self.per_operator and content > _SMALLEST_OPERATOR * MAX_PAGE_OBJECTS:
            # enough content to hold too many operators: weigh them too
            size += sum(times * _weighed(data, self.per_operator) for times, data in read)
            size -= content
        return draws, size

    def close(self) -> None:
        self._reader = self._drawn_reader = None
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def __enter__(self) -> PageCensus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _over(self, cost: Cost) -> bool:
        return cost[0] > MAX_FORM_DRAWS or cost[1] > self.content_limit

    def _open(self, streams: StreamTable | None) -> None:
        self._stream = self.source.open()
        with mapped(self._stream) as data:
            if streams is None or not streams.fits(data):
                streams = StreamTable(data)
            screen = _Screen(data, self._over, self.content_limit, streams)
            settled = screen.settled()
        self.widgets = screen.content.widgets
        if settled:
            self.close()
            return
        reader = self._open_reader(self._stream)
        with pypdf_warnings_held():
            if self._settled_by_pypdf(reader, screen):
                self.close()
                return
            self._reader = reader  # now weigh each page before it loads

    def _open_reader(self, stream: BinaryIO) -> Any:
        from pypdf import PdfReader

        self._stream = stream
        stream.seek(0)
        with pypdf_warnings_held():
            # a file object, not a path: pypdf would read a path whole into memory
            return PdfReader(stream, strict=False, password=self._password or None)

    def _settled_by_pypdf(self, reader: Any, screen: _Screen) -> bool:
        """Whether pypdf's reading of the forms the bytes left open settles it for every
        page: none is a bomb itself, none draws with resources it inherits (which only a
        page settles), and all the content with the costliest form drawn as often as the
        content says Do stays within the limits. Forms are weighed once here, so most
        PDFs need no page weighed."""
        from pypdf.generic import IndirectObject

        if not screen.content_known():
            return False
        costliest = screen.costliest
        for key in screen.unknown:
            form: Any = IndirectObject(key[0], key[1], reader).get_object()
            if not hasattr(form, "get_data") or form.get("/Subtype") != "/Form":
                continue
            own = form.get("/Resources")
            content = form.get_data()
            if own is None and _DO.search(content):
                return False
            cost = self._form(key, form, own, [], 1) if own is not None else (
                1, _weighed(content, self.per_operator))
            if self._over(cost):
                return False
            costliest = (max(costliest[0], cost[0]), max(costliest[1], cost[1]))
        self._costs.clear()
        return not self._over(screen.bound(costliest))

    # -- counting ------------------------------------------------------------

    def _draws(self, resources: Any, content: bytes, path: list[tuple[Key, int]]) -> Cost:
        """Forms drawn by ``content`` under ``resources``, each with the forms it draws;
        ``path`` holds the forms being drawn around it, each with how often it is."""
        xobjects = _xobjects(resources)
        if not xobjects or not content or len(path) > _MAX_DEPTH:
            return 0, 0
        draws = size = 0
        for name, times in Counter(_DO.findall(content)).items():
            reference = xobjects.get("/" + read_name(name).decode("latin-1"))
            if reference is None or not hasattr(reference, "idnum"):
                continue
            form = reference.get_object()
            if not hasattr(form, "get") or form.get("/Subtype") != "/Form":
                continue
            key = (int(reference.idnum), int(reference.generation))
            one_draws, one_size = self._form(key, form, resources, path, times)
            draws += times * one_draws
            size += times * one_size
            if self._over((draws, size)):
                break
        return draws, size

    def _form(self, key: Key, form: Any, inherited: Any, path: list[tuple[Key, int]],
              times: int) -> Cost:
        """One draw of ``form``: itself and the forms it draws."""
        keys = [k for k, _ in path]
        if key in keys:
            # It draws itself: the readers go round until their nesting limit, which
            # is harmless when each round draws it once and a bomb when more.
            rounds = times
            for _, more in path[keys.index(key) + 1:]:
                rounds *= more
            return (_LOOP, 0) if rounds > 1 else (0, 0)
        own = form.get("/Resources")
        resources = own if own is not None else inherited
        memo = (key, id(resources))
        if memo not in self._costs:
            content = form.get_data()
            draws, size = self._draws(resources, content, [*path, (key, times)])
            self._costs[memo] = (1 + draws, _weighed(content, self.per_operator) + size)
        return self._costs[memo]


class _Screen:
    """What a PDF's bytes say about what its pages parse: each form's cost where that is
    plain to read, the forms left to pypdf, and each page's content.

    Every object whose dictionary says /Subtype /Form is found. A form is weighed from
    the bytes when its content is unfiltered or FlateDecode alone and the forms it
    draws are named in its own inline resources; a form drawing itself, or drawing
    with resources it inherits or holds by reference, is left to pypdf.
    """

    def __init__(self, data: Any, over: Any, limit: float, streams: StreamTable) -> None:
        self.over = over
        self.per_operator = _per_operator(limit)
        self.forms = _forms(data)
        self.content = _PageContents(data, {at for _, at in self.forms.values()}, limit,
                                     streams)
        # Forms are weighed first at the most their bytes allow, operators included
        # (every two bytes one): most PDFs settle so, and their operators go uncounted.
        self._weigh = self._at_most
        self._weigh_forms(data)
        if self.per_operator and not self.settled() and not self.unknown:
            self._weigh = partial(_weighed, per_operator=self.per_operator)
            self._weigh_forms(data)

    def _at_most(self, content: bytes) -> int:
        return int(len(content) * max(1.0, self.per_operator / _SMALLEST_OPERATOR))

    def _weigh_forms(self, data: Any) -> None:
        self.costs: dict[Key, Cost | None] = {}
        self.unknown: list[Key] = []
        self.costliest: Cost = (0, 0)
        if not self.forms:
            return
        keys = set(self.forms)
        names = {key: _form_names(dictionary, keys)
                 for key, (dictionary, _) in self.forms.items()}
        for key in self.forms:
            cost = self._cost(data, key, names, ())
            if cost is None:
                self.unknown.append(key)
            else:
                self.costliest = (max(self.costliest[0], cost[0]),
                                  max(self.costliest[1], cost[1]))

    def content_known(self) -> bool:
        """Whether every page's content was read from the bytes."""
        return self.content.known

    def bound(self, costliest: Cost) -> Cost:
        """The most any page can weigh."""
        return self.content.bound(costliest)

    def settled(self) -> bool:
        """Whether no page can pass the limits, from the bytes alone."""
        if self.unknown or not self.content_known() or self.over(self.costliest):
            return False
        return not self.over(self.bound(self.costliest))

    def _cost(self, data: Any, key: Key, names: dict[Key, dict[bytes, Key] | None],
              path: tuple[Key, ...]) -> Cost | None:
        if key in path or len(path) > _MAX_DEPTH:
            return None  # it draws itself: pypdf decides how often
        if key in self.costs:
            return self.costs[key]
        self.costs[key] = None  # until known, and for good when it cannot be
        content = _plain_content(data, *self.forms[key])
        if content is None:
            return None
        draws, size = 1, self._weigh(content)
        drawn = drawn_xobjects(content)
        named = names[key]
        if drawn and named is None:
            return None  # what its names mean depends on the page drawing it
        for name, times in drawn.items():
            child = named.get(name) if named else None
            inner = self._cost(data, child, names, (*path, key)) if child is not None else (0, 0)
            if inner is None:
                return None
            draws += times * inner[0]
            size += times * inner[1]
            if self.over((draws, size)):
                break  # a bomb already: pypdf finds which pages draw it
        self.costs[key] = (draws, size)
        return draws, size


def _forms(data: Any) -> dict[Key, tuple[bytes, int]]:
    """Every form in the bytes: its dictionary's bytes and where its ``stream`` keyword is
    (-1 when not found), by object number and generation."""
    forms: dict[Key, tuple[bytes, int]] = {}
    for match in _FORM.finditer(data):
        # the last "obj" keyword before it, found from the end in C, then its numbers
        at = data.rfind(b"obj", max(0, match.start() - _HEADER_WINDOW), match.start())
        header = _OBJECT_HEADER.search(bytes(data[max(0, at - 24):at + 3])) if at >= 0 else None
        if header is not None:
            end = data.find(b"stream", match.end(), match.end() + _HEADER_WINDOW)
            stop = end if end >= 0 else match.end() + _HEADER_WINDOW
            forms[(int(header[1]), int(header[2]))] = (bytes(data[at:stop]), end)
    return forms


class _PageContents:
    """Each page's content, read from the PDF's bytes: at most how many bytes its content
    streams decode to, each as often as its ``/Contents`` names it, and how often they
    say Do. ``known`` is False when that cannot be read so: encrypted, an unusual filter,
    or an object stream that cannot be decoded. A page's streams are decoded only when
    the most their compressed size allows passes ``limit``, or when the PDF has forms and
    the Do operators must be counted; those another check inflated already
    (``streams.inflated``) are not decoded again."""

    def __init__(self, data: Any, form_streams: set[int], limit: float,
                 streams: StreamTable) -> None:
        self.known = True
        self._per_operator = _per_operator(limit)
        self._weights: dict[int, int] = {}
        forms = bool(form_streams)
        self.pages: list[tuple[int, int]] = []  # bytes and Do operators, at most
        # encrypted streams keep their size, so the bound from it holds, but what they
        # inflate to is pypdf's to tell
        self._encrypted = data.find(b"/Encrypt") >= 0
        self._data = data
        self._inflated = streams.inflated
        self._streams: dict[int, tuple[bytes, int]] = {}  # number -> dictionary, data start
        self._object_streams: list[tuple[bytes, bytes]] = []  # inflated, with dictionary
        self._packed: dict[int, bytes] | None = None  # their objects by number, once asked
        self._tallies: dict[int, Cost | None] = {}
        self._objects: dict[int, int] | None = None
        self.widgets = 0  # at least: those of an object stream not read are not counted
        entries: list[bytes] = []
        cursor = 0
        self._between: list[tuple[int, int]] = []  # the bytes outside stream data
        for keyword, start, end, dictionary in streams.streams(data):
            entries += _CONTENTS.findall(data, cursor, keyword)
            self.widgets += _count(_WIDGET, data, cursor, keyword)
            self._between.append((cursor, keyword))
            cursor = end
            if keyword in form_streams:
                continue  # a form's content is weighed per draw (a page naming it is unread)
            if _OBJECT_STREAM.search(dictionary):
                objects = _decoded(data, dictionary, start, _MAX_OBJECTS)
                if objects is None:
                    self.known = False
                    return
                entries += _CONTENTS.findall(objects)
                self.widgets += _count(_WIDGET, objects, 0, len(objects))
                self._object_streams.append((objects, dictionary))
                continue
            header = OBJECT.match(dictionary)
            if header is not None:
                self._streams[int(header[1])] = (dictionary, start)
        entries += _CONTENTS.findall(data, cursor, len(data))
        self.widgets += _count(_WIDGET, data, cursor, len(data))
        self._between.append((cursor, len(data)))
        for entry in entries:
            page = self._page(entry, forms, limit)
            if page is None:
                self.known = False
                return
            self.pages.append(page)

    def bound(self, costliest: Cost) -> Cost:
        """The most any page can weigh: its content, and the costliest form drawn as
        often as its content says Do."""
        return max(((costliest[0] * draws, size + costliest[1] * draws)
                    for size, draws in self.pages), default=(0, 0))

    def _page(self, entry: bytes, forms: bool, limit: float) -> Cost | None:
        """One ``/Contents`` value's weight; None when a stream of it cannot be read."""
        try:
            numbers = self._stream_numbers(entry)
        except _Unread:
            return None
        most = 0
        for number in numbers:
            found = self._streams.get(number)
            bound = _most(self._data, *found) if found is not None else 0
            if bound is None:
                return None
            most += bound
        # content under twice MAX_PAGE_OBJECTS bytes cannot hold too many operators
        floor = min(limit, _SMALLEST_OPERATOR * MAX_PAGE_OBJECTS) if self._per_operator \
            else limit
        if most <= floor and not forms:
            return most, 0
        if self._encrypted:
            return None
        size = draws = 0
        for number in numbers:
            if number not in self._tallies:
                found = self._streams.get(number)
                self._tallies[number] = _tally(self._data, *found, draws=forms,
                                               inflated=self._inflated) if found else (0, 0)
            tally = self._tallies[number]
            if tally is None:
                return None
            size += tally[0]
            draws += tally[1]
            if size > limit:
                return size, draws
        if self._per_operator and size > _SMALLEST_OPERATOR * MAX_PAGE_OBJECTS:
            size = sum(map(self._weight, numbers))
        return size, draws

    def _weight(self, number: int) -> int:
        """A content stream's weight: its bytes, or its operators when they weigh more."""
        if number not in self._weights:
            if number not in self._streams:
                return 0
            dictionary, start = self._streams[number]
            pieces = _decoding(self._data, dictionary, start, stream_end(self._data, start))
            size = self._tallies[number][0]  # type: ignore[index]
            self._weights[number] = max(size, _operators_weight(pieces or (),
                                                                self._per_operator))
        return self._weights[number]

    def _stream_numbers(self, entry: bytes) -> list[int]:
        """The content streams a ``/Contents`` value names, repeats kept: an array, or a
        reference to a stream or to an array (held in the clear or in an object stream)."""
        if entry.startswith(b"["):
            return [int(number) for number in _REFERENCE.findall(entry)]
        number = int(_REFERENCE.match(entry)[1])  # type: ignore[index]
        if number in self._streams:
            return [number]
        if self._packed is None:  # the objects in object streams, found once
            self._packed = {}
            for objects, dictionary in self._object_streams:
                self._packed.update(_packed_objects(objects, dictionary))
        body = self._packed.get(number)
        if body is None:
            if self._objects is None:  # where each object in the clear starts, found once
                self._objects = {int(found[1]): found.end() for start, end in self._between
                                 for found in OBJECT_START.finditer(self._data, start, end)}
            at = self._objects.get(number)
            body = bytes(self._data[at:at + _MAX_ARRAY]) if at is not None else b""
        body = body.lstrip()
        if body.startswith(b"<<"):
            raise _Unread  # a stream whose dictionary was not read from the bytes
        if not body.startswith(b"["):
            return []  # a string, or nothing: no content to a reader either
        return [int(n) for n in _REFERENCE.findall(body[:body.find(b"]") + 1 or None])]


class _Unread(Exception):
    """Content the bytes do not show plainly enough to weigh."""


def _packed_objects(objects: bytes, dictionary: bytes) -> dict[int, bytes]:
    """The objects of an inflated object stream, by number (its header pairs each
    object's number with its offset after /First)."""
    first = re.search(rb"/First\s+(\d+)", dictionary)
    if first is None:
        return {}
    offset = int(first[1])
    numbers = [int(n) for n in re.findall(rb"\d+", objects[:offset])]
    pairs = list(zip(numbers[::2], numbers[1::2], strict=False))
    found: dict[int, bytes] = {}
    for index, (number, at) in enumerate(pairs):
        end = pairs[index + 1][1] if index + 1 < len(pairs) else len(objects) - offset
        body = objects[offset + at:offset + end]
        found[number] = body
    return found


def _chain(dictionary: bytes) -> list[bytes] | None:
    """The filters to decode a stream through; None when the bytes cannot tell what its
    data decodes to: ``/Filter`` by reference, a predictor (which reorders the bytes Do
    is counted in), or a filter ``stream_filters`` does not decode."""
    chain = filter_chain(dictionary)
    if chain is None or b"/Predictor" in dictionary or any(f not in GROWTH for f in chain):
        return None
    return chain


def _most(data: Any, dictionary: bytes, start: int) -> int | None:
    """The most bytes a stream's data can decode to, from its encoded size; None when
    its filters are not read here."""
    chain = _chain(dictionary)
    return None if chain is None else most_decoded(stream_end(data, start) - start, chain)


def _decoding(data: Any, dictionary: bytes, start: int, end: int) -> Iterator[bytes] | None:
    """The stream data in ``data[start:end]`` decoded a piece at a time; None when its
    filters are not read here."""
    chain = _chain(dictionary)
    if chain is None:
        return None
    found = layers(chunks(data, start, end), chain, dictionary)
    return iter(found[-1]) if found else chunks(data, start, end)


def _tally(data: Any, dictionary: bytes, start: int, draws: bool = True,
           inflated: dict[int, tuple[int, int | None]] | None = None) -> Cost | None:
    """How many bytes a stream's data decodes to and, with ``draws``, how many times it
    says Do (overcounted where the two letters stand in a string: harmless, the count
    only decides whether pages are weighed); None when its filters are not read here.
    A stream of plain Flate data found in ``inflated`` (by where its data starts) was
    counted so already and is not inflated again."""
    chain = _chain(dictionary)
    if chain is None:
        return None
    known = inflated.get(start) if inflated is not None and chain == [FLATE] else None
    if known is not None and not draws:
        return known[0], 0
    if known is not None and known[1] is not None:
        return known[0], known[1]
    pieces = _decoding(data, dictionary, start, stream_end(data, start))
    if pieces is None:
        return None
    size = count = 0
    last = b""  # the byte before each piece, for a "Do" split between two
    for out in pieces:
        size += len(out)
        if draws:
            count += (last + out).count(b"Do")
            last = out[-1:] or last
    return size, count


def _decoded(data: Any, dictionary: bytes, start: int, most: int,
             end: int | None = None) -> bytes | None:
    """A stream's data decoded (an object stream's objects, a form's content), None when
    its filters are not read here or it decodes past ``most`` bytes."""
    pieces = _decoding(data, dictionary, start, stream_end(data, start) if end is None else end)
    if pieces is None:
        return None
    held = []
    size = 0
    for out in pieces:
        size += len(out)
        if size > most:
            return None
        held.append(out)
    return b"".join(held)


def _form_names(dictionary: bytes, forms: set[Key]) -> dict[bytes, Key] | None:
    """The forms a form's inline resources name (name -> form), {} when none, None when
    that cannot be read from the bytes (no resources of its own, or by reference)."""
    resources = _RESOURCES.search(dictionary)
    if resources is None or resources[1] != b"<<":
        return None
    xobjects = _XOBJECTS.search(dictionary, resources.end())
    if xobjects is None:
        return {}
    if xobjects[1] != b"<<":
        return None
    entries = dictionary[xobjects.end():dictionary.find(b">>", xobjects.end())]
    named = {read_name(name): (int(number), int(generation))
             for name, number, generation in _NAMED_REFERENCE.findall(entries)}
    return {name: key for name, key in named.items() if key in forms}


def _plain_content(data: Any, dictionary: bytes, stream_at: int) -> bytes | None:
    """A form's content from the bytes; None when its filters are not read here or it
    decodes past ``_MAX_CONTENT``."""
    if stream_at < 0:
        return None
    start = stream_at + len(b"stream")
    start += 2 if data[start:start + 2] == b"\r\n" else 1
    length = _LENGTH.search(dictionary)
    end = start + int(length[1]) if length is not None else stream_end(data, start)
    return _decoded(data, dictionary, start, _MAX_CONTENT, end)


def _xobjects(resources: Any) -> Any:
    if resources is None:
        return None
    resources = resources.get_object()
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    return xobjects.get_object() if xobjects is not None else None


def _appearances(annotations: Any) -> Iterator[Any]:
    """The normal appearance streams of ``annotations`` (every state's, for those that
    have several), as references: what rendering or flattening draws."""
    from pypdf.generic import IndirectObject

    for annotation in annotations if isinstance(annotations, list) else ():
        annotation = annotation.get_object()
        appearance: Any = annotation.get("/AP") if hasattr(annotation, "get") else None
        appearance = appearance.get_object() if appearance is not None else None
        normal: Any = appearance.raw_get("/N") if hasattr(appearance, "raw_get") and \
            "/N" in appearance else None
        if isinstance(normal, IndirectObject):
            resolved = normal.get_object()
            if hasattr(resolved, "get_data"):
                yield normal
                continue
            normal = resolved
        if hasattr(normal, "raw_get"):
            for state in normal:
                stream = normal.raw_get(state)
                if isinstance(stream, IndirectObject) and hasattr(stream.get_object(),
                                                                  "get_data"):
                    yield stream


def _key(reference: Any) -> Key:
    return int(reference.idnum), int(reference.generation)


def _per_operator(limit: float) -> float:
    """The bytes each drawing operator weighs under a page limit of ``limit`` bytes; none
    when pages are not weighed by bytes."""
    return limit / MAX_PAGE_OBJECTS if limit != float("inf") else 0.0


def _weighed(content: bytes, per_operator: float) -> int:
    """What ``content`` weighs: its bytes, or its drawing operators at ``per_operator``
    bytes each when that is more."""
    if not per_operator:
        return len(content)
    return max(len(content), _operators_weight(chunks(content, 0, len(content)), per_operator))


def _count(pattern: re.Pattern[bytes], data: Any, start: int, end: int) -> int:
    return sum(1 for _ in pattern.finditer(data, start, end))


def drawn_xobjects(content: bytes) -> Counter[bytes]:
    """The XObjects ``content`` draws by name (escapes read), each with how often."""
    return Counter(read_name(name) for name in _DO.findall(content))


def drawing_operators(content: bytes) -> int:
    """How many drawing operators ``content`` runs (text shown, paths painted, images and
    forms drawn, states saved), at least: as many as ``_DRAWING`` matches."""
    words = sum(content.count(word) for word in _DRAWING_WORDS)
    if len(content) < 3:
        return words
    import numpy as np  # here: most documents never weigh their operators

    classes = np.frombuffer(content.translate(_BYTE_CLASSES), dtype=np.uint8)
    # a delimiter and an operator letter, then a delimiter, or "*" and a delimiter
    letter = (classes[:-2] & 1) & (classes[1:-1] >> 1)
    ends = classes[2:] >> 2
    ends[:-1] |= (classes[2:-1] >> 3) & (classes[3:] >> 2)
    return words + int(np.count_nonzero(letter & ends & 1))


def _operators_weight(pieces: Iterable[bytes], per_operator: float) -> int:
    """The drawing operators in ``pieces`` at ``per_operator`` bytes each; the count stops
    once it passes MAX_PAGE_OBJECTS, which settles the page."""
    operators = 0
    for piece in pieces:
        operators += drawing_operators(piece)
        if operators > MAX_PAGE_OBJECTS:
            break
    return int(operators * per_operator)
