"""The fallback PDF parser: pypdf, pure Python, for files PDFium will not open.

pypdf is imported when a document reaches it: with its crypto providers it costs
a third of goblin's start-up, which every CLI run and worker process would pay for a
parser most documents never need.
"""

from __future__ import annotations

import logging
import re
import zlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from goblin_core.config import Config
from goblin_core.deadline import time_limit
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.errors import CorruptDocument, ExtractionTimeout, PasswordRequired
from goblin_core.executors.page_ranges import parse_page_range
from goblin_core.model import PageContent
from goblin_core.ranking import unmapped_chars
from goblin_core.source import Source
from goblin_pdf.outline import MAX_OUTLINE_ITEMS, outline_text
from goblin_pdf.page_selection import closing_page, pages_cut, pages_to_read
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import document_password, other_security_error, password_error
from goblin_pdf.pdf_metadata import document_metadata, pdf_version
from goblin_pdf.pdfium_page import added_text
from goblin_pdf.pdfium_parser import PDF_MIME
from goblin_pdf.pypdf_extras import outline_entries, page_extras
from goblin_pdf.pypdf_warnings import pypdf_warnings_held
from goblin_pdf.stray_marks import plain_ligatures
from goblin_pdf.stream_bombs import refuse_stream_bombs
from goblin_pdf.xmp import MAX_PACKET, fill_from_xmp

if TYPE_CHECKING:
    import pypdf

log = logging.getLogger(__name__)

#: Characters one byte of a shown string can become in pypdf's text: a ToUnicode map may
#: give one code up to 512 bytes of UTF-16 (pypdf refuses longer), 256 characters.
_MOST_CHARS_PER_BYTE = 256
#: Characters pypdf may add around one operator of its own (a space, a line break).
_CHARS_PER_OPERATOR = 2
#: Characters one byte can become in a font without a ToUnicode map (a glyph name such
#: as ``f_f_i``).
_PLAIN_CHARS_PER_BYTE = 4
_HEX_STRING = re.compile(rb"<([0-9A-Fa-f\s]*)>")
_SHOWING = frozenset({b"Tj", b"TJ", b"'", b'"'})


class PypdfParser(BaseEngine):
    """Text from pypdf when PDFium cannot open the document."""

    name = "pdf.pypdf"
    formats = (PDF_MIME,)
    priority = 50

    def open(self, source: Source, config: Config) -> PypdfDocument:
        refuse_stream_bombs(source, int(config.section("pdf").get("max_stream_size", 0)),
                            document_password(source, config))
        return PypdfDocument(source, config)


def open_pypdf(source: Source, password: str | None) -> pypdf.PdfReader:
    """A decrypted PdfReader; PasswordRequired or CorruptDocument when it cannot be had."""
    import pypdf
    from pypdf.errors import FileNotDecryptedError, PdfReadError, PyPdfError

    stream = source.open()
    try:
        with pypdf_warnings_held():
            reader = pypdf.PdfReader(stream, strict=False)
            if reader.is_encrypted and not reader.decrypt(password or ""):
                raise password_error(source.display_name, password)
        return reader
    except PasswordRequired:
        stream.close()
        raise
    except NotImplementedError as exc:  # pypdf has the standard password handler only
        stream.close()
        raise other_security_error(source.display_name) from exc
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        stream.close()
        if isinstance(exc, FileNotDecryptedError):
            raise password_error(source.display_name, password) from exc
        raise CorruptDocument(f"pypdf cannot read it ({type(exc).__name__}: {exc})",
                              file=source.display_name) from exc


class PypdfDocument(BaseParsedDocument):
    """Pages from pypdf; glyph counts are the text's characters (pypdf does not count glyphs)."""

    def __init__(self, source: Source, config: Config) -> None:
        self.source = source
        self.options = config.section("pdf")
        self.reader = open_pypdf(source, document_password(source, config))
        try:
            self.pages_in_tree = len(self.reader.pages)
        except _read_errors() as exc:
            raise CorruptDocument(f"pypdf finds no page tree ({exc})",
                                  file=source.display_name) from exc
        self.page_count = self.pages_in_tree
        self.page_range = parse_page_range(str(config.core.get("page_range", "")))
        self.closing_page = closing_page(self.page_range, self.pages_in_tree,
                                         int(self.options.get("max_pages", 0)))
        self._outline_read: list[dict[str, Any]] | None = None  # read once, when asked
        self.metadata = self._metadata()
        self.max_page_chars = int(config.get("limits", "max_output_chars", 100_000_000))
        self.warnings: list[tuple[str, str]] = []  # into the document's report
        # pypdf expands a content or form bomb as PDFium would, and slower
        self.page_census = PageCensus.of(source, config)

    @property
    def metadata(self) -> Mapping[str, Any]:
        """The document's metadata, its outline included (as pdf.pypdfium2 gives it)."""
        self._outline(float(self.options.get("page_timeout", 30.0)))
        return self._document_metadata

    @metadata.setter
    def metadata(self, value: Mapping[str, Any]) -> None:
        self._document_metadata = dict(value)

    def _metadata(self) -> dict[str, Any]:
        try:
            info = {str(k): str(v) for k, v in (self.reader.metadata or {}).items()}
        except _read_errors() as exc:
            log.warning("%s: pypdf cannot read the document info: %s",
                        self.source.display_name, exc)
            info = {}
        try:
            language = self.reader.root_object.get("/Lang")
            language = language.get_object() if language is not None else ""
        except _read_errors():
            language = ""
        metadata = document_metadata(info, page_count=self.pages_in_tree,
                                     encrypted=self.reader.is_encrypted,
                                     tagged="/StructTreeRoot" in self.reader.root_object,
                                     # a name (/en), read leniently as PDFium does
                                     language=language.removeprefix("/")
                                     if isinstance(language, str) else "")
        try:
            version = pdf_version(self.reader.pdf_header)
        except _read_errors():
            version = None
        if version is not None:
            metadata["pdf_version"] = version
        fill_from_xmp(metadata, self._xmp_packet)
        return metadata

    def _xmp_packet(self) -> bytes | None:
        from pypdf.generic import StreamObject

        try:
            stream = self.reader.root_object.get("/Metadata")
            stream = stream.get_object() if stream is not None else None
            if not isinstance(stream, StreamObject):
                return None
            # the stream check before the file opened bounds what this inflates to
            packet = stream.get_data()
        except (*_read_errors(), *_decode_errors()) as exc:
            log.debug("%s: no XMP packet read: %s", self.source.display_name, exc)
            return None
        return packet if len(packet) <= MAX_PACKET else None

    def pages(self) -> Iterator[PageContent]:
        # goblin.page_range: the pages before the range are not read (a document split
        # into ranges has each read by another worker)
        max_pages = int(self.options.get("max_pages", 0))
        for index in pages_to_read(self.page_range, self.pages_in_tree, max_pages):
            yield self._page(index)
        cut = pages_cut(self.page_range, self.pages_in_tree, max_pages)
        if cut:
            self.warnings.append(("PdfMaxPages", cut))

    def _page(self, index: int) -> PageContent:
        number = index + 1
        refusal = self.page_census.refusal(number)
        if refusal is not None:
            return PageContent(number, error=refusal)
        try:
            with time_limit(float(self.options.get("page_timeout", 30.0)),
                            f"pypdf on page {number}"), pypdf_warnings_held():
                page = self.reader.pages[index]
                text = plain_ligatures(self._bounded_text(page, number))
                images = _image_count(page)
        except ExtractionTimeout as exc:
            return PageContent(number, error=f"{exc} (pdf.page_timeout)")
        except _TextBoundReached as exc:
            return PageContent(number, error=f"pypdf stopped on page {number}: {exc}")
        except Exception as exc:  # pypdf raises many types on broken pages: each is a page error
            return PageContent(number, error=f"pypdf cannot read page {number}: "
                                             f"{type(exc).__name__}: {exc}")
        glyphs = sum(1 for c in text if not c.isspace())
        extras = self._page_extras(page, text, number)
        return PageContent(number, text=text, glyphs=glyphs, images=images,
                           unmapped=unmapped_chars(text), added_text=added_text(extras))

    def _page_extras(self, page: Any, text: str, number: int) -> list[str]:
        """The page's comments, links and field values, and after the last page the
        outline, as ``pdf.pypdfium2`` writes them (pdf.annotations, pdf.forms and
        pdf.outline say which)."""
        extras: list[str] = []
        seconds = float(self.options.get("page_timeout", 30.0))
        try:
            with time_limit(seconds, f"pypdf on page {number}'s annotations"), \
                    pypdf_warnings_held():
                extras.extend(page_extras(page, text,
                                          bool(self.options.get("annotations", True)),
                                          bool(self.options.get("forms", True))))
        except Exception as exc:  # annotations and fields are extras: never lose the page
            log.warning("%s: annotations or form fields unreadable: %s",
                        self.source.display_name, exc)
        if number == self.closing_page and self.options.get("outline", True):
            outline = self._outline(seconds)
            if outline:
                extras.append(outline_text(outline))
        return extras

    def _outline(self, seconds: float) -> list[dict[str, Any]]:
        if self._outline_read is None:
            self._outline_read = []
            try:
                with time_limit(seconds, "pypdf on the outline"), pypdf_warnings_held():
                    self._outline_read = outline_entries(self.reader, MAX_OUTLINE_ITEMS)
            except Exception as exc:  # a broken outline must not cost the page
                log.warning("%s: outline unreadable: %s", self.source.display_name, exc)
            if self._outline_read:
                self._document_metadata["outline"] = self._outline_read
        return self._outline_read

    def _bounded_text(self, page: Any, number: int) -> str:
        """pypdf's text of the page, at most ``limits.max_output_chars`` of it.

        A page within the census can still make pypdf write gigabytes: a ToUnicode map
        turning each byte of a string into 256 characters makes 512 million of 2 MB of
        content. pypdf is stopped before the operator that could take its text past the
        limit; what it had written by then is the page's text, with a warning, and a
        page stopped before it wrote anything is a page error (recovery engines, with
        their own bounds, may read it).
        """
        bound = _TextBound(self.max_page_chars, _FontGrowth(page))
        try:
            text: str = page.extract_text(visitor_operand_before=bound.before_operator,
                                          visitor_text=bound.text_written) or ""
        except _TextBoundReached:
            text = "".join(bound.pieces)
        if not bound.reached and len(text) <= self.max_page_chars:
            return text
        kept = text[:self.max_page_chars]
        if not kept.strip():
            raise _TextBoundReached(
                f"its text could pass limits.max_output_chars ({self.max_page_chars:,} "
                "characters) within one run of text; not read")
        message = (f"page {number}'s text would pass limits.max_output_chars "
                   f"({self.max_page_chars:,} characters); pypdf stopped after {len(kept):,}")
        log.warning("%s: %s", self.source.display_name, message)
        self.warnings.append(("Truncated", message))
        return kept

    def attachments(self) -> Iterator[Source]:
        """Embedded files, decoded one at a time: one that cannot be decoded (a filter
        pypdf does not have, a damaged stream) is left out with a warning, the rest
        still read. pypdf's ``attachments`` mapping is not used: it decodes every file
        up front, and lists a file once more under its other name."""
        try:
            entries = list(self.reader.attachment_list)
        except _read_errors() as exc:
            log.warning("%s: pypdf cannot list attachments: %s", self.source.display_name, exc)
            return
        for number, entry in enumerate(entries, start=1):
            try:
                name = entry.alternative_name or entry.name or f"attachment-{number}"
                with pypdf_warnings_held():  # what it works around: the report says it
                    data = entry.content
            except _decode_errors() as exc:
                message = (f"attachment {number} cannot be decoded "
                           f"({type(exc).__name__}: {exc}); left out")
                log.warning("%s: %s", self.source.display_name, message)
                self.warnings.append(("CorruptDocument", message))
                continue
            if not data and _flate_broken_at_start(entry):
                # pypdf gives nothing, with no error, for data its filter cannot decode
                message = (f"attachment {name!r}: its stream does not decode through its "
                           "filter; left out")
                log.warning("%s: %s", self.source.display_name, message)
                self.warnings.append(("CorruptDocument", message))
                continue
            yield self.source.child(str(name), data)

    def close(self) -> None:
        # metadata read after closing has the outline, whether or not the text has it
        self._outline(float(self.options.get("page_timeout", 30.0)))
        self.page_census.close()
        stream = getattr(self.reader, "stream", None)
        if stream is not None:
            stream.close()


def _flate_broken_at_start(entry: Any) -> bool:
    """Whether an attachment's stream is Flate data that breaks at its start, which pypdf
    decodes to nothing with no error (an empty file compressed decodes to nothing too,
    without breaking)."""
    try:
        files = entry.pdf_object["/EF"].get_object()
        stream = (files.get("/UF") or files.get("/F")).get_object()
        # pypdf keeps a stream's bytes as read (decrypted, not decoded) there alone
        raw = getattr(stream, "_data", b"")
        if stream.get("/Filter") != "/FlateDecode" or not isinstance(raw, bytes) or not raw:
            return False
        zlib.decompressobj().decompress(raw[:_FLATE_PROBE], 1)
    except zlib.error:
        return True
    except Exception:  # pypdf's errors on a damaged specification: no verdict
        return False
    return False


#: Bytes of an attachment's Flate data inflated to see whether it breaks at its start
_FLATE_PROBE = 1024


class _TextBoundReached(Exception):
    """pypdf's text of a page could pass the limit with the next operator."""


class _TextBound:
    """Watches pypdf's text extraction of one page through its visitor callbacks.

    pypdf builds a string's text whole inside one operator and hands it to
    ``visitor_text`` only when a line or text object ends, so each showing operator is
    charged beforehand at the most its bytes can become; what pypdf then writes
    replaces that charge (so the text may pass the limit by one operator's worth, cut
    afterwards). Once the charge could pass ``limit``, every operator raises:
    pypdf swallows the error inside a form, not on the page.
    """

    def __init__(self, limit: int, growth: _FontGrowth) -> None:
        self.limit = limit
        self.growth = growth
        self.per_byte = _MOST_CHARS_PER_BYTE  # until a font is set
        self.pieces: list[str] = []
        self.written = 0
        self.pending = 0  # the most the operators since the last piece can have added
        self.reached = False

    def before_operator(self, operator: bytes, operands: Any, *_: Any) -> None:
        if self.reached:
            raise _TextBoundReached
        self.pending += _CHARS_PER_OPERATOR
        if operator == b"Tf" and operands:
            self.per_byte = self.growth.per_byte(operands[0])
        elif operator in _SHOWING:
            self.pending += self.per_byte * _shown_bytes(operands)
        if self.written + self.pending > self.limit:
            self.reached = True
            raise _TextBoundReached

    def text_written(self, text: str, *_: Any) -> None:
        if text and self.written < self.limit:
            self.pieces.append(text)
        self.written += len(text)
        # pypdf hands over all it holds: only the operator now running can add more, and
        # it was charged within the limit
        self.pending = 0


class _FontGrowth:
    """How many characters one byte of a string can become in each font of a page: the
    longest destination of the font's ToUnicode map, in UTF-16 units. A font the page's
    own resources do not name (one of a form's) gets the most any map can give."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.known: dict[str, int] = {}

    def per_byte(self, name: Any) -> int:
        key = str(name)
        if key not in self.known:
            try:
                self.known[key] = self._measure(key)
            except Exception:  # a damaged font: charged the most
                self.known[key] = _MOST_CHARS_PER_BYTE
        return self.known[key]

    def _measure(self, name: str) -> int:
        resources = self.page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
        font = fonts.get_object().get(name) if fonts is not None else None
        if font is None:
            return _MOST_CHARS_PER_BYTE
        to_unicode = font.get_object().get("/ToUnicode")
        if to_unicode is None or not hasattr(to_unicode.get_object(), "get_data"):
            return _PLAIN_CHARS_PER_BYTE
        longest = max((len(b"".join(digits.split()))
                       for digits in _HEX_STRING.findall(to_unicode.get_object().get_data())),
                      default=0)
        return max(min(longest // 4, _MOST_CHARS_PER_BYTE), _PLAIN_CHARS_PER_BYTE)


def _shown_bytes(operands: Any) -> int:
    """Bytes of the strings a text-showing operator's operands hold (a TJ array's too)."""
    total = 0
    for operand in operands or ():
        items = operand if isinstance(operand, list) else (operand,)
        # a string pypdf decoded (UTF-16 with a byte order mark) keeps its bytes
        total += sum(len(getattr(item, "original_bytes", item)) for item in items
                     if isinstance(item, (str, bytes)))
    return total


def _read_errors() -> tuple[type[Exception], ...]:
    """What pypdf raises on a damaged structure (imported once a document got here)."""
    from pypdf.errors import PdfReadError, PyPdfError

    return (PdfReadError, PyPdfError, KeyError, TypeError, ValueError)


def _decode_errors() -> tuple[type[Exception], ...]:
    """What pypdf raises on a stream it cannot decode: a damaged structure, or a filter it
    does not have (NotImplementedError)."""
    return (*_read_errors(), NotImplementedError)


def _image_count(page: Any) -> int:
    """Image XObjects in the page resources, without decoding them."""
    resources = page.get("/Resources") or {}
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    if not xobjects:
        return 0
    xobjects = xobjects.get_object()
    return sum(1 for ref in xobjects.values() if ref.get_object().get("/Subtype") == "/Image")
