"""Form XObjects drawn inside each other into billions of copies, found before a page loads.

PDFium, like pdfminer, parses a form XObject again each time it is drawn. Forty
forms that each draw the next one twice make 2^40 parses; so does a single form
without resources of its own that draws itself twice through the page's, until
PDFium's nesting limit. It all happens inside the page load, which nothing can
interrupt, and memory grows until the process dies.

So a PDF whose forms draw anything is looked at with pypdf, which reads the
object graph without drawing it, before any of its pages is loaded. A page is
refused when the forms it draws, nested ones included, exceed
``MAX_FORM_DRAWS``, or when a form on it draws itself (directly or through
others) more than once per round. Each form's count is kept once known, so the
census is linear in the number of forms. A PDF with no form XObject costs one
scan of its bytes for ``/Form``: stream dictionaries are never compressed
(PDF 32000-1, 7.5.7), so every form's ``/Subtype /Form`` is there in the clear,
and a form whose inline resources name no other form is settled without pypdf.
"""

from __future__ import annotations

import contextlib
import logging
import mmap
import re
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
_REFERENCE = re.compile(rb"(\d+)\s+(\d+)\s+R")
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
            self._counts.clear()  # keyed by the identity of resources this page holds
        except Exception as exc:  # pypdf fails on what PDFium may still read: no verdict
            log.debug("%s: forms of page %d not counted: %s", self.source.display_name,
                      number, exc)
            return None
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
            reference = xobjects.get("/" + name.decode("latin-1"))
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
    """The forms that may draw another form, as object number and generation.

    Read from the bytes: every object whose dictionary says /Subtype /Form, then
    those whose resources are inline and name none of them are left out. A form
    without resources, or with resources given by reference, stays in (pypdf
    settles it).
    """
    try:
        view = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except (AttributeError, OSError, ValueError):  # not a real file (bytes in memory)
        stream.seek(0)
        data: Any = stream.read()
    else:
        data = view
    try:
        dictionaries: dict[Key, bytes] = {}
        for match in _FORM.finditer(data):
            # the last "obj" keyword before it, found from the end in C, then its numbers
            at = data.rfind(b"obj", max(0, match.start() - _HEADER_WINDOW), match.start())
            header = _OBJECT_HEADER.search(bytes(data[max(0, at - 24):at + 3])) if at >= 0 else None
            if header is not None:
                end = data.find(b"stream", match.end(), match.end() + _HEADER_WINDOW)
                dictionaries[(int(header[1]), int(header[2]))] = bytes(
                    data[at:end if end >= 0 else match.end() + _HEADER_WINDOW])
        forms = set(dictionaries)
        return [key for key, dictionary in dictionaries.items()
                if _may_draw_forms(dictionary, forms)]
    finally:
        if isinstance(data, mmap.mmap):
            data.close()


def _may_draw_forms(dictionary: bytes, forms: set[Key]) -> bool:
    """Whether a form's dictionary (its bytes) may draw one of ``forms``."""
    resources = _RESOURCES.search(dictionary)
    if resources is None or resources[1] != b"<<":
        return True  # none of its own (it draws with its parent's) or by reference
    xobjects = _XOBJECTS.search(dictionary, resources.end())
    if xobjects is None:
        return False
    if xobjects[1] != b"<<":
        return True  # by reference
    names = dictionary[xobjects.end():dictionary.find(b">>", xobjects.end())]
    return any((int(number), int(generation)) in forms
               for number, generation in _REFERENCE.findall(names))


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
