"""Form XObjects drawn inside each other into billions of copies, found before a page loads.

PDFium, like pdfminer, parses a form XObject again each time it is drawn. Forty
forms that each draw the next one twice make 2^40 parses; so does a single form
without resources of its own that draws itself twice through the page's, until
PDFium's nesting limit. It all happens inside the page load, which nothing can
interrupt, and memory grows until the process dies.

So a PDF whose forms name other forms has them counted before any of its pages
is loaded: from its bytes when they are plain, else with pypdf, which reads the
object graph without drawing it. A page is refused when the forms it draws,
nested ones included, exceed ``MAX_FORM_DRAWS``, or when a form on it draws
itself (directly or through others) more than once per round. Each form's count
is kept once known, so the census is linear in the number of forms. Stream
dictionaries are never compressed (PDF 32000-1, 7.5.7), so every form's
``/Subtype /Form`` is there in the clear: a PDF without form XObjects costs one
scan of its bytes.
"""

from __future__ import annotations

import contextlib
import logging
import mmap
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any, BinaryIO

from goblin_core.source import Source

log = logging.getLogger(__name__)

#: Form XObjects one page may draw, nested ones included, before it is refused.
MAX_FORM_DRAWS = 100_000
_FORM = re.compile(rb"/Subtype\s*/Form\b")
_OBJECT_HEADER = re.compile(rb"(\d{1,10})\s+(\d{1,5})\s+obj$")
_HEADER_WINDOW = 1 << 16  # bytes searched back from /Subtype /Form for its "N G obj"
_RESOURCES = re.compile(rb"/Resources\s*(<<|\d+\s+\d+\s+R)")
_XOBJECTS = re.compile(rb"/XObject\s*(<<|\d+\s+\d+\s+R)")
_NAMED_REFERENCE = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*(\d+)\s+(\d+)\s+R")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/\w+)")
_MAX_CONTENT = 8 << 20  # a form's content past this is left to pypdf
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")
_MAX_DEPTH = 64
_LOOP = MAX_FORM_DRAWS + 1  # what a form that draws itself more than once counts for

Key = tuple[int, int]  # object number and generation


class FormCensus:
    """Which pages of one PDF draw a form bomb; pypdf opens it only when forms nest."""

    def __init__(self, source: Source, password: str | None = None) -> None:
        self.source = source
        self._reader: Any = None
        self._stream: BinaryIO | None = None
        self._counts: dict[tuple[Key, int], int] = {}
        try:
            self._open(password)
        except Exception as exc:  # pypdf cannot read it: PDFium's verdict stands alone
            log.debug("%s: forms not counted: %s", source.display_name, exc)
            self.close()

    def refusal(self, number: int) -> str | None:
        """Why page ``number`` (1-based) must not be loaded, or None."""
        if self._reader is None:
            return None
        try:
            with _quiet_pypdf():
                page = self._reader.pages[number - 1]
                draws = self._draws(page.get("/Resources"), _content(page), [])
        except Exception as exc:  # pypdf fails on what PDFium may still read: no verdict
            log.debug("%s: forms of page %d not counted: %s", self.source.display_name,
                      number, exc)
            return None
        finally:
            self._counts.clear()  # keyed by the identity of resources this page holds
        if draws <= MAX_FORM_DRAWS:
            return None
        return (f"page {number} draws form XObjects nested in each other more than "
                f"{MAX_FORM_DRAWS:,} times over (a form bomb); not loaded")

    def close(self) -> None:
        self._reader = None
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def __enter__(self) -> FormCensus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- finding the forms ---------------------------------------------------

    def _open(self, password: str | None) -> None:
        self._stream = self.source.open()
        references = _form_references(self._stream)
        if not references:
            self.close()
            return
        from pypdf import PdfReader

        self._stream.seek(0)
        with _quiet_pypdf():
            # a file object, not a path: pypdf would read a path whole into memory
            reader = PdfReader(self._stream, strict=False, password=password or None)
            if self._any_bomb(reader, references):
                self._reader = reader  # now count each page's forms before it loads
                return
        self.close()

    def _any_bomb(self, reader: Any, references: list[Key]) -> bool:
        """Whether some form may be a bomb: it draws too many forms with its own
        resources, or it draws with resources it inherits, which only a page settles.
        Forms are counted once here, so most PDFs with forms need no page counted."""
        from pypdf.generic import IndirectObject

        for key in references:
            form: Any = IndirectObject(key[0], key[1], reader).get_object()
            if not hasattr(form, "get_data") or form.get("/Subtype") != "/Form":
                continue
            own = form.get("/Resources")
            if own is not None and not _xobjects(own):
                continue  # nothing to draw with: its content need not be decoded
            if not _DO.search(form.get_data()):
                continue
            if own is None or self._form(key, form, own, [], 1) > MAX_FORM_DRAWS:
                return True
        self._counts.clear()
        return False

    # -- counting ------------------------------------------------------------

    def _draws(self, resources: Any, content: bytes, path: list[tuple[Key, int]]) -> int:
        """Forms drawn by ``content`` under ``resources``, each with the forms it draws;
        ``path`` holds the forms being drawn around it, each with how often it is."""
        xobjects = _xobjects(resources)
        if not xobjects or not content or len(path) > _MAX_DEPTH:
            return 0
        total = 0
        for name, times in Counter(_DO.findall(content)).items():
            reference = xobjects.get("/" + _name(name).decode("latin-1"))
            if reference is None or not hasattr(reference, "idnum"):
                continue
            form = reference.get_object()
            if not hasattr(form, "get") or form.get("/Subtype") != "/Form":
                continue
            key = (int(reference.idnum), int(reference.generation))
            total += times * self._form(key, form, resources, path, times)
            if total > MAX_FORM_DRAWS:
                return total
        return total

    def _form(self, key: Key, form: Any, inherited: Any, path: list[tuple[Key, int]],
              times: int) -> int:
        """One draw of ``form``: itself and the forms it draws."""
        keys = [k for k, _ in path]
        if key in keys:
            # It draws itself: the readers go round until their nesting limit, which
            # is harmless when each round draws it once and a bomb when more.
            rounds = times
            for _, more in path[keys.index(key) + 1:]:
                rounds *= more
            return _LOOP if rounds > 1 else 0
        own = form.get("/Resources")
        resources = own if own is not None else inherited
        memo = (key, id(resources))
        if memo not in self._counts:
            self._counts[memo] = 1 + self._draws(resources, form.get_data(),
                                                 [*path, (key, times)])
        return self._counts[memo]


def _form_references(stream: BinaryIO) -> list[Key]:
    """The forms pypdf must look at, as object number and generation; [] when the
    bytes alone show that no page can draw too many.

    Every object whose dictionary says /Subtype /Form is found in the bytes. A form
    whose inline resources name no other form draws none. The others are counted
    from the bytes too when that is plain: inline resources, a direct /Length, no
    filter or FlateDecode alone, and no form drawing itself. Anything else is left
    to pypdf.
    """
    try:
        view = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except (AttributeError, OSError, ValueError):  # not a real file (bytes in memory)
        stream.seek(0)
        data: Any = stream.read()
    else:
        data = view
    try:
        forms: dict[Key, tuple[bytes, int]] = {}  # dictionary bytes, where its stream starts
        for match in _FORM.finditer(data):
            # the last "obj" keyword before it, found from the end in C, then its numbers
            at = data.rfind(b"obj", max(0, match.start() - _HEADER_WINDOW), match.start())
            header = _OBJECT_HEADER.search(bytes(data[max(0, at - 24):at + 3])) if at >= 0 else None
            if header is not None:
                end = data.find(b"stream", match.end(), match.end() + _HEADER_WINDOW)
                stop = end if end >= 0 else match.end() + _HEADER_WINDOW
                forms[(int(header[1]), int(header[2]))] = (bytes(data[at:stop]), end)
        keys = set(forms)
        drawing = {key: names for key, (dictionary, _) in forms.items()
                   if (names := _form_names(dictionary, keys)) != {}
                   and not (names is None and _draws_nothing(data, *forms[key]))}
        if not drawing:
            return []
        if _bounded_in_bytes(data, forms, drawing):
            return []
        return list(drawing)
    finally:
        if isinstance(data, mmap.mmap):
            data.close()


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


def _bounded_in_bytes(data: Any, forms: dict[Key, tuple[bytes, int]],
                      drawing: dict[Key, dict[bytes, Key] | None]) -> bool:
    """Whether every form that names forms draws at most MAX_FORM_DRAWS, counted from
    the bytes; False whenever a step is not plain (pypdf then counts)."""
    counts: dict[Key, int] = {}

    def count(key: Key, path: tuple[Key, ...]) -> int | None:
        if key not in drawing:
            return 1  # names no form: itself alone
        if key in path:
            return None  # draws itself: pypdf decides how often
        if key in counts:
            return counts[key]
        names = drawing[key]
        content = _plain_content(data, *forms[key]) if names is not None else None
        if names is None or content is None:
            return None
        total = 1
        for name, times in Counter(_name(n) for n in _DO.findall(content)).items():
            child = names.get(name)
            inner = count(child, (*path, key)) if child is not None else 0
            if inner is None:
                return None
            total += times * inner
            if total > MAX_FORM_DRAWS:
                return total
        counts[key] = total
        return total

    for key in drawing:
        total = count(key, ())
        if total is None or total > MAX_FORM_DRAWS:
            return False
    return True


def _draws_nothing(data: Any, dictionary: bytes, stream_at: int) -> bool:
    """Whether a form's content, read from the bytes, has no Do operator at all (an
    annotation's appearance, which has no resources of its own, usually has none)."""
    content = _plain_content(data, dictionary, stream_at)
    return content is not None and _DO.search(content) is None


def _plain_content(data: Any, dictionary: bytes, stream_at: int) -> bytes | None:
    """A form's content from the bytes, when its /Length is direct and its filter is
    FlateDecode alone or none; None otherwise."""
    length = _LENGTH.search(dictionary)
    filters = _FILTER.search(dictionary)
    if length is None or stream_at < 0 or b"/DecodeParms" in dictionary:
        return None
    if filters is not None and filters[1].strip(b"[] \t\r\n") != b"/FlateDecode":
        return None
    start = stream_at + len(b"stream")
    start += 2 if data[start:start + 2] == b"\r\n" else 1
    raw = bytes(data[start:start + int(length[1])])
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
