"""Form XObjects drawn into billions of copies, or into gigabytes of content, found
before a page loads.

PDFium, like pdfminer, parses a form XObject again each time it is drawn. Forty
forms that each draw the next one twice make 2^40 parses; so does a single form
without resources of its own that draws itself twice through the page's, until
PDFium's nesting limit. A form of a thousand characters drawn 100,000 times makes a
page of a hundred million, from a file of two kilobytes. It all happens inside the page
load, which nothing can interrupt, and memory grows until the process dies.

So each page's forms are weighed before it is loaded: how many draws, nested ones
included, and how many bytes of form content those draws parse. A page is refused when
the draws exceed ``MAX_FORM_DRAWS``, when their content exceeds ``pdf.max_form_content``,
or when a form on it draws itself (directly or through others) more than once per round.
Most PDFs are settled from their bytes alone: every form's ``/Subtype /Form`` is there
in the clear, since stream dictionaries are never compressed (PDF 32000-1, 7.5.7), and
when the costliest form drawn as often as the pages' content says ``Do`` stays within
the limits, no page can pass them. Otherwise pypdf, which reads the object graph without
drawing it, weighs the pages one by one; each form's weight is kept once known, so the
count is linear in the number of forms.
"""

from __future__ import annotations

import contextlib
import logging
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any, BinaryIO

from goblin_core.config import Config
from goblin_core.source import Source
from goblin_pdf.passwords import configured_password
from goblin_pdf.pdf_bytes import mapped, stream_dictionary, stream_end, streams

log = logging.getLogger(__name__)

#: Form XObjects one page may draw, nested ones included, before it is refused.
MAX_FORM_DRAWS = 100_000
#: Bytes of form content one page may have parsed (pdf.max_form_content's default): a
#: form's content counts once per draw. PDFium holds a few hundred bytes per character
#: it draws, so this keeps a page's text under about two gigabytes at worst.
MAX_FORM_CONTENT = 8 * 1024**2
_FORM = re.compile(rb"/Subtype\s*/Form\b")
_OBJECT_HEADER = re.compile(rb"(\d{1,10})\s+(\d{1,5})\s+obj$")
_HEADER_WINDOW = 1 << 16  # bytes searched back from /Subtype /Form for its "N G obj"
_RESOURCES = re.compile(rb"/Resources\s*(<<|\d+\s+\d+\s+R)")
_XOBJECTS = re.compile(rb"/XObject\s*(<<|\d+\s+\d+\s+R)")
_NAMED_REFERENCE = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*(\d+)\s+(\d+)\s+R")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/\w+)")
#: streams that are no page content: the Do they may hold by chance draws nothing
_NOT_CONTENT = re.compile(rb"/Subtype\s*/(?:Form|Image|Type1C|CIDFontType0C|OpenType|XML)\b"
                          rb"|/Type\s*/(?:EmbeddedFile|XRef|ObjStm|Metadata)\b|/Length[123]\b")
_MAX_CONTENT = 8 << 20  # a form's content past this is left to pypdf
_CHUNK = 1 << 20
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")
_MAX_DEPTH = 64
_LOOP = MAX_FORM_DRAWS + 1  # what a form that draws itself more than once counts for

Key = tuple[int, int]  # object number and generation
Cost = tuple[int, int]  # forms drawn and bytes of their content parsed


class FormCensus:
    """Which pages of one PDF draw a form bomb; pypdf opens it only when the bytes
    cannot rule one out."""

    def __init__(self, source: Source, password: str | None = None,
                 content_limit: int = MAX_FORM_CONTENT) -> None:
        self.source = source
        self.content_limit = content_limit or float("inf")
        self._reader: Any = None
        self._stream: BinaryIO | None = None
        self._costs: dict[tuple[Key, int], Cost] = {}
        try:
            self._open(password)
        except Exception as exc:  # pypdf cannot read it: PDFium's verdict stands alone
            log.debug("%s: forms not counted: %s", source.display_name, exc)
            self.close()

    @classmethod
    def of(cls, source: Source, config: Config) -> FormCensus:
        """The census with the password and limit ``config`` gives."""
        return cls(source, configured_password(config),
                   int(config.section("pdf").get("max_form_content", MAX_FORM_CONTENT)))

    def refusal(self, number: int) -> str | None:
        """Why page ``number`` (1-based) must not be loaded, or None."""
        if self._reader is None:
            return None
        try:
            with _quiet_pypdf():
                page = self._reader.pages[number - 1]
                draws, size = self._draws(page.get("/Resources"), _content(page), [])
        except Exception as exc:  # pypdf fails on what PDFium may still read: no verdict
            log.debug("%s: forms of page %d not counted: %s", self.source.display_name,
                      number, exc)
            return None
        finally:
            self._costs.clear()  # keyed by the identity of resources this page holds
        if draws > MAX_FORM_DRAWS:
            return (f"page {number} draws form XObjects nested in each other more than "
                    f"{MAX_FORM_DRAWS:,} times over (a form bomb); not loaded")
        if size > self.content_limit:
            return (f"page {number} draws form XObjects whose content adds up to more than "
                    f"pdf.max_form_content ({int(self.content_limit):,} bytes; a form bomb); "
                    "not loaded")
        return None

    def close(self) -> None:
        self._reader = None
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def __enter__(self) -> FormCensus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _over(self, cost: Cost) -> bool:
        return cost[0] > MAX_FORM_DRAWS or cost[1] > self.content_limit

    def _open(self, password: str | None) -> None:
        self._stream = self.source.open()
        with mapped(self._stream) as data:
            screen = _Screen(data, self._over)
        if screen.settled():
            self.close()
            return
        from pypdf import PdfReader

        self._stream.seek(0)
        with _quiet_pypdf():
            # a file object, not a path: pypdf would read a path whole into memory
            reader = PdfReader(self._stream, strict=False, password=password or None)
            if self._settled_by_pypdf(reader, screen):
                self.close()
                return
            self._reader = reader  # now weigh each page's forms before it loads

    def _settled_by_pypdf(self, reader: Any, screen: _Screen) -> bool:
        """Whether pypdf's reading of the forms the bytes left open settles it for every
        page: none is a bomb itself, none draws with resources it inherits (which only a
        page settles), and the costliest drawn as often as the pages say Do stays within
        the limits. Forms are weighed once here, so most PDFs need no page weighed."""
        from pypdf.generic import IndirectObject

        if screen.page_draws is None:
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
            cost = self._form(key, form, own, [], 1) if own is not None else (1, len(content))
            if self._over(cost):
                return False
            costliest = (max(costliest[0], cost[0]), max(costliest[1], cost[1]))
        self._costs.clear()
        return not self._over((costliest[0] * screen.page_draws,
                               costliest[1] * screen.page_draws))

    # -- counting ------------------------------------------------------------

    def _draws(self, resources: Any, content: bytes, path: list[tuple[Key, int]]) -> Cost:
        """Forms drawn by ``content`` under ``resources``, each with the forms it draws;
        ``path`` holds the forms being drawn around it, each with how often it is."""
        xobjects = _xobjects(resources)
        if not xobjects or not content or len(path) > _MAX_DEPTH:
            return 0, 0
        draws = size = 0
        for name, times in Counter(_DO.findall(content)).items():
            reference = xobjects.get("/" + _name(name).decode("latin-1"))
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
            self._costs[memo] = (1 + draws, len(content) + size)
        return self._costs[memo]


class _Screen:
    """What a PDF's bytes say about its forms: each one's cost where that is plain to
    read, the forms left to pypdf, and how often its pages' content says Do at most.

    Every object whose dictionary says /Subtype /Form is found. A form is weighed from
    the bytes when its content is unfiltered or FlateDecode alone and the forms it
    draws are named in its own inline resources; a form drawing itself, or drawing
    with resources it inherits or holds by reference, is left to pypdf.
    """

    def __init__(self, data: Any, over: Any) -> None:
        self.over = over
        self.forms = _forms(data)
        self.costs: dict[Key, Cost | None] = {}
        self.unknown: list[Key] = []
        self.costliest: Cost = (0, 0)
        self.page_draws: int | None = 0
        if not self.forms:
            return
        keys = set(self.forms)
        names = {key: _form_names(dictionary, keys) for key, (dictionary, _) in self.forms.items()}
        for key in self.forms:
            cost = self._cost(data, key, names, ())
            if cost is None:
                self.unknown.append(key)
            else:
                self.costliest = (max(self.costliest[0], cost[0]),
                                  max(self.costliest[1], cost[1]))
        self.page_draws = _page_draws(data, {at for _, at in self.forms.values()})

    def settled(self) -> bool:
        """Whether no page can pass the limits, from the bytes alone."""
        if not self.forms:
            return True
        if self.unknown or self.page_draws is None or self.over(self.costliest):
            return False
        return not self.over((self.costliest[0] * self.page_draws,
                              self.costliest[1] * self.page_draws))

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
        draws, size = 1, len(content)
        drawn = Counter(_name(name) for name in _DO.findall(content))
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


def _page_draws(data: Any, form_streams: set[int]) -> int | None:
    """How many Do operators all the content that is no form holds, each page's at most;
    None when some cannot be read from the bytes (encrypted, or a filter other than
    FlateDecode alone)."""
    if data.find(b"/Encrypt") >= 0:
        return None
    total = 0
    for keyword, start in streams(data):
        if keyword in form_streams:
            continue
        dictionary = stream_dictionary(data, keyword)
        if _NOT_CONTENT.search(dictionary):
            continue
        count = _count_do(data, dictionary, start)
        if count is None:
            return None
        total += count
    return total


def _count_do(data: Any, dictionary: bytes, start: int) -> int | None:
    """How many times a stream's content says Do (over-counted where the two letters
    stand in a string: harmless, the count only decides whether pages are weighed)."""
    end = stream_end(data, start)
    filters = _FILTER.search(dictionary)
    if filters is None:
        return bytes(data[start:end]).count(b"Do")
    if filters[1].strip(b"[] \t\r\n") != b"/FlateDecode":
        return None
    inflater = zlib.decompressobj()
    count = 0
    last = b""  # the byte before each piece, for a "Do" split between two
    try:
        for at in range(start, end, _CHUNK):
            chunk = bytes(data[at:min(at + _CHUNK, end)])
            while chunk and not inflater.eof:
                out = inflater.decompress(chunk, _CHUNK)
                count += (last + out).count(b"Do")
                last = out[-1:] or last
                chunk = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error:
        pass  # damaged: the readers stop where inflating fails, and so does the count
    return count


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
    named = {_name(name): (int(number), int(generation))
             for name, number, generation in _NAMED_REFERENCE.findall(entries)}
    return {name: key for name, key in named.items() if key in forms}


def _plain_content(data: Any, dictionary: bytes, stream_at: int) -> bytes | None:
    """A form's content from the bytes, when its filter is FlateDecode alone or none;
    None otherwise."""
    filters = _FILTER.search(dictionary)
    if stream_at < 0 or b"/DecodeParms" in dictionary:
        return None
    if filters is not None and filters[1].strip(b"[] \t\r\n") != b"/FlateDecode":
        return None
    start = stream_at + len(b"stream")
    start += 2 if data[start:start + 2] == b"\r\n" else 1
    length = _LENGTH.search(dictionary)
    end = start + int(length[1]) if length is not None else stream_end(data, start)
    raw = bytes(data[start:end])
    if filters is None:
        return raw
    try:
        inflater = zlib.decompressobj()
        content = inflater.decompress(raw, _MAX_CONTENT)
    except zlib.error:
        return None
    return None if inflater.unconsumed_tail else content


def _name(name: bytes) -> bytes:
    """A PDF name with its #xx escapes read, as PDFium reads it."""
    return _NAME_ESCAPE.sub(lambda m: bytes([int(m[1], 16)]), name)


@contextlib.contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf's warnings about a damaged file while it is only being looked at: the
    parser that reads the page reports what matters."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _content(page: Any) -> bytes:
    contents = page.get_contents()
    return contents.get_data() if contents is not None else b""


def _xobjects(resources: Any) -> Any:
    if resources is None:
        return None
    resources = resources.get_object()
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    return xobjects.get_object() if xobjects is not None else None
