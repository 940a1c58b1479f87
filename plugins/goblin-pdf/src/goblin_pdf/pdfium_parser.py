"""The default PDF parser: PDFium through pypdfium2, one page at a time.

PDFium is not thread-safe: goblin runs documents in worker processes, never
threads, and nothing here starts a thread. Native page and text-page objects
are closed as soon as a page is read, so a 2,000-page PDF never sits whole in
memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import logging
import os
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.internal as pdfium_internal
import pypdfium2.raw as pdfium_c

from goblin_core.config import Config
from goblin_core.deadline import time_left
from goblin_core.engines import ArchiveLimits, BaseEngine, BaseParsedDocument
from goblin_core.errors import CorruptDocument, ExtractionTimeout, FileTooLarge, UnsafeArchive
from goblin_core.executors.page_ranges import parse_page_range
from goblin_core.model import ImageRegion, PageContent
from goblin_core.source import Source
from goblin_pdf.control_ligatures import ControlLigatures
from goblin_pdf.damaged_pdf import (
    ContentCheck,
    RebuiltPdf,
    embedded_data,
    embedded_decodes_past,
    holds_page_objects,
    inflated_before_damage,
    may_hold_pages,
    page_tree_found,
    rebuilt_pdf,
)
from goblin_pdf.formats import PDF_MIME
from goblin_pdf.image_regions import untexted_images
from goblin_pdf.layout import LayoutSettings, PageLayout, TagOutcome, read_page_layout
from goblin_pdf.named_ligatures import NamedLigatures
from goblin_pdf.optional_content import HiddenLayers
from goblin_pdf.outline import outline_text, read_outline
from goblin_pdf.page_render import RenderTimeout, render_gray
from goblin_pdf.page_selection import closing_page, pages_cut, pages_to_read
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import (
    decrypted_copy,
    document_password,
    other_security_error,
    password_error,
)
from goblin_pdf.pdf_bytes import StreamTable
from goblin_pdf.pdf_metadata import document_metadata, pdf_version
from goblin_pdf.pdfium_page import (
    PageText,
    ShownOnly,
    added_text,
    appearance_texts,
    attached_files,
    document_info,
    form_field_texts,
    read_annotations,
    read_text,
    signature_boxes,
    signature_texts,
    utf16_text,
)
from goblin_pdf.stray_marks import repair
from goblin_pdf.stream_bombs import check_streams
from goblin_pdf.unshown_fields import unshown_field_texts
from goblin_pdf.word_gaps import WordGaps
from goblin_pdf.xfa import is_dynamic_xfa, xfa_text
from goblin_pdf.xmp import catalog_packet, fill_from_xmp, may_have_xmp

log = logging.getLogger(__name__)

_NO_ERROR = 0  # FPDF_ERR_SUCCESS
_PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD
_SECURITY_ERROR = 5  # FPDF_ERR_SECURITY: a security handler PDFium does not have
_FORMAT_ERROR = 3  # FPDF_ERR_FORMAT
_HEADER = b"%PDF-1.7\n"
_HEADER_WINDOW = 1024  # PDFium looks for the header this far into the file


class PdfiumParser(BaseEngine):
    """Text from PDFium, page by page, with glyph, image and unmapped counts."""

    name = "pdf.pypdfium2"
    formats = (PDF_MIME,)
    priority = 100

    def open(self, source: Source, config: Config) -> PdfiumDocument:
        damaged, streams = check_streams(source,
                                         int(config.section("pdf").get("max_stream_size", 0)),
                                         document_password(source, config))
        return PdfiumDocument(source, config, damaged, streams)


def open_pdfium(source: Source, password: str | None,
                rebuilt: list[RebuiltPdf] | None = None,
                decrypted: list[bytes] | None = None) -> pdfium.PdfDocument:
    """Open ``source`` with PDFium; PasswordRequired or CorruptDocument when it cannot.

    A file PDFium refuses as malformed is rebuilt by qpdf and the copy read; the
    rebuild is appended to ``rebuilt`` when given, for the caller to say so. A file
    only pypdf decrypts is read from pypdf's decrypted copy, appended to ``decrypted``
    when given: PDFium then sees no encryption in what it reads.
    """
    target: Any = str(source.path()) if source.is_file else source.bytes()
    try:
        return _loaded(target, password)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == _PASSWORD_ERROR:
            plain = decrypted_copy(source.bytes(), password)
            if plain is not None:
                if decrypted is not None:
                    decrypted.append(plain)
                return pdfium.PdfDocument(plain)
            raise password_error(source.display_name, password) from exc
        if code == _SECURITY_ERROR:
            raise other_security_error(source.display_name) from exc
        if code == _FORMAT_ERROR:
            repaired = _with_header(source, password)
            if repaired is not None:
                return repaired
            # qpdf rebuilds a file whose end is lost; a catalog past reading (its object
            # damaged, or no dictionary) it refuses too, and its pages are gathered
            for rebuild in (rebuilt_pdf, page_tree_found):
                if rebuild is page_tree_found and not may_hold_pages(source):
                    break
                copy = rebuild(source, password)
                if copy is None:
                    continue
                try:
                    document = pdfium.PdfDocument(copy.data)
                except pdfium.PdfiumError:
                    continue
                if rebuilt is not None:
                    rebuilt.append(copy)
                return document
        # PDFium sometimes fails without setting an error ("Success")
        reason = "it gives no reason" if code == _NO_ERROR else str(exc)
        raise CorruptDocument(
            f"PDFium cannot open it ({reason}); the file may be truncated or not a PDF",
            file=source.display_name,
        ) from exc


def _loaded(target: str | bytes, password: str | None) -> pdfium.PdfDocument:
    """The PDF at ``target`` (a path or the bytes) opened by PDFium, once; PdfiumError
    with PDFium's error code when it cannot be.

    pypdfium2 takes a page count of none for a failure to load, with whatever error an
    earlier call left (a wrong password, or none), so a PDF whose page tree holds no
    page read as a damaged or locked file; such a PDF is whole, and has nothing to
    read. Loading it here tells the two apart without loading the file a second time
    (PDFium's parse of a hostile file can take long, and cannot be interrupted)."""
    secret = (password + "\0").encode("utf-8") if password is not None else None
    if isinstance(target, str):
        # the file system's own bytes for the name: a name that is no UTF-8 opens too
        handle = pdfium_c.FPDF_LoadDocument(os.fsencode(target) + b"\0", secret)
    else:
        handle = pdfium_c.FPDF_LoadMemDocument64(target, len(target), secret)
    if not handle:
        code = pdfium_c.FPDF_GetLastError()
        raise pdfium.PdfiumError(
            f"Failed to load document (PDFium: {pdfium_internal.ErrorToStr.get(code)}).",
            err_code=code)
    document = pdfium.PdfDocument(handle)
    # PDFium reads a document held in memory from that memory for as long as it is open
    document._data_holder.append(target)
    return document


def _with_header(source: Source, password: str | None) -> pdfium.PdfDocument | None:
    """The PDF opened with a ``%PDF-`` header put in front, when its own is damaged or
    missing (a mangled download, a byte flipped): PDFium refuses such a file outright,
    though its objects and trailer are intact and it rebuilds the offsets itself."""
    with source.open() as stream:
        head = stream.read(_HEADER_WINDOW)
    if b"%PDF-" in head or b"obj" not in head:
        return None
    try:
        document = pdfium.PdfDocument(_HEADER + source.bytes(), password=password)
    except pdfium.PdfiumError:
        return None
    log.warning("%s: the PDF header is damaged or missing; read with one put in front",
                source.display_name)
    return document


@contextlib.contextmanager
def _quiet(logger: logging.Logger) -> Iterator[None]:
    """``logger`` silent for the block (extraction holds a process-wide lock)."""
    was = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = was


#: Field widgets past which PDFium's interactive form is not loaded: it lists the fields
#: on the first page load in time growing with the square of their number (20,000 took
#: 7.6 s, 100,000 would take minutes), where the busiest real forms have a few thousand.
MAX_FORM_WIDGETS = 10_000


class PdfiumDocument(BaseParsedDocument):
    """An open PDF: pages read lazily, rendering for OCR, embedded files as children."""

    def __init__(self, source: Source, config: Config,
                 damaged_streams: frozenset[int] = frozenset(),
                 streams: StreamTable | None = None) -> None:
        """``damaged_streams``: the objects the stream check found damaged part-way
        (page content streams and embedded files); ``streams``: the streams it found in
        the file's bytes, which the page census reads again."""
        self.source = source
        self.options = config.section("pdf")
        self.max_pixels = int(config.get("limits", "max_image_pixels", 178_956_970))
        self.limits = ArchiveLimits.from_config(config)
        # the core checks limits.timeout between pages; a render is one long native call,
        # so it stops itself at the document's deadline too (goblin_core.time_left)
        self._time_limit = float(config.get("limits", "timeout", 300.0))
        self._deadline = time.monotonic() + self._time_limit
        rebuilt: list[RebuiltPdf] = []
        password = document_password(source, config)
        decrypted: list[bytes] = []
        self.pdf = open_pdfium(source, password, rebuilt, decrypted)
        self._read_decrypted = bool(decrypted)
        if not rebuilt and (not len(self.pdf) or (
                len(self.pdf) == 1 and holds_page_objects(source, 1))):
            # no page, or one where the file spells out more: a catalog whose /Pages
            # names no page tree, or some other object PDFium then reads as the only page
            self._find_page_tree(source, password, rebuilt)
        self.lost_pages = rebuilt[0].lost_pages if rebuilt else frozenset()
        # what PDFium reads, the other readers (census, recovery, tables) read too
        self.repaired = (Source.from_bytes(rebuilt[0].data, source.display_name)
                         if rebuilt else None)
        readable = self.repaired or source
        # qpdf's copy numbers its objects anew: the check's findings are for the original
        self._content_check = ContentCheck(readable, None if rebuilt else password,
                                           frozenset() if rebuilt else damaged_streams)
        # the census of a rebuilt copy reads other bytes than the stream check did
        self.page_census = PageCensus.of(readable, config, None if rebuilt else streams)
        self._ligatures = NamedLigatures(readable, password)
        self._control_ligatures = ControlLigatures()
        self._word_gaps = WordGaps()
        self._layers = HiddenLayers(readable, None if rebuilt else password)
        self.warnings: list[tuple[str, str]] = []  # into the document's report
        if rebuilt:
            lost = f"; {len(self.lost_pages)} page(s) lost their content with it" \
                if self.lost_pages else ""
            self.warnings.append(("CorruptDocument", (
                f"the file is damaged ({rebuilt[0].damage}): read from a copy "
                f"{rebuilt[0].rebuilder} rebuilt from its objects{lost}")))
            log.warning("%s: %s", source.display_name, self.warnings[-1][1])
        self._labels_refused = False
        self.pages_in_file = self._pages_in_tree()  # page_count (optional in the base)
        if not self.pages_in_file:
            self.warnings.append(("NoPages", "the PDF has no pages: its page tree is empty"))
        self.page_count = self.pages_in_file
        self.page_range = parse_page_range(str(config.core.get("page_range", "")))
        self.closing_page = closing_page(self.page_range, self.pages_in_file,
                                         int(self.options.get("max_pages", 0)))
        self._field_values = bool(self.options.get("forms", True))
        # only auto OCR reads images on pages of text; the others OCR whole pages or none
        self._image_regions = (config.core.get("ocr") == "auto"
                               and bool(config.core.get("ocr_image_regions", True)))
        self._forms = self._field_values and self._init_forms()
        # the field lines the pages wrote: a button PDFium read with its page (one whose
        # widgets name their state but draw nothing) is not listed again after the last
        self._field_lines: set[str] = set()
        self._outline: list[dict[str, Any]] | None = None
        self._metadata = self._document_metadata(readable, None if rebuilt else password)
        self.layout_settings = LayoutSettings.from_options(self.options)
        self._tagged = bool(self._metadata.get("tagged")) or bool(self.pdf.is_tagged())
        self._metadata["layout"] = []  # one entry per page read: columns, order, tags
        self._pages_with_attached_files: list[int] = []
        self._dynamic_xfa = is_dynamic_xfa(self.pdf)
        if rebuilt:
            self._metadata["rebuilt"] = True
        self._metadata["xfa"] = self._dynamic_xfa or self.pdf.get_formtype() == \
            pdfium_c.FORMTYPE_XFA_FOREGROUND

    # -- document level ---------------------------------------------------

    def _find_page_tree(self, source: Source, password: str | None,
                        rebuilt: list[RebuiltPdf]) -> None:
        """Read the pages of a PDF whose catalog lost its page tree (PDFium then sees no
        page) from a copy that has it back; a PDF whose tree is truly empty stays so."""
        # pypdf logs each damaged object it meets, from loggers under "pypdf": the
        # warning below says it once
        pypdf_log = logging.getLogger("pypdf")
        level = pypdf_log.level
        pypdf_log.setLevel(logging.CRITICAL + 1)
        try:
            copy = page_tree_found(source, password)
        finally:
            pypdf_log.setLevel(level)
        if copy is None:
            return
        try:
            document = pdfium.PdfDocument(copy.data)
        except pdfium.PdfiumError:
            return
        self.pdf.close()
        self.pdf = document
        rebuilt.append(copy)

    def _pages_in_tree(self) -> int:
        """How many pages the page tree holds. PDFium's count is the root's ``/Count``,
        which a producer may leave too high (pages deleted, the count kept) or a loop
        in ``/Kids`` may inflate: the pages past the real ones do not exist, and read as
        failed pages they would make a whole document look damaged. A page's size is
        read from its dictionary without parsing its content, so the last page that
        exists is found in a few look-ups."""
        claimed = len(self.pdf)
        if not claimed or _page_exists(self.pdf, claimed - 1):
            return claimed
        if not _page_exists(self.pdf, 0):
            return claimed  # none can be found: each page fails with PDFium's reason
        found, missing = 0, claimed - 1  # page ``found`` exists, page ``missing`` does not
        while missing - found > 1:
            middle = (found + missing) // 2
            if _page_exists(self.pdf, middle):
                found = middle
            else:
                missing = middle
        held = found + 1
        message = (f"the page tree claims {claimed:,} pages but holds {held:,} (its /Count "
                   "is wrong or its /Kids loop back); the pages it holds are read")
        log.warning("%s: %s", self.source.display_name, message)
        self.warnings.append(("CorruptDocument", message))
        return held

    def _init_forms(self) -> bool:
        form_type = self.pdf.get_formtype()
        if form_type == pdfium_c.FORMTYPE_NONE:
            return False
        widgets = self.page_census.widgets
        if widgets > MAX_FORM_WIDGETS:
            message = (f"the form has {widgets:,} field widgets, more than {MAX_FORM_WIDGETS:,}; "
                       "it is not loaded: each field's value is read from its widget, "
                       "signature fields are not read and fields are not drawn")
            log.warning("%s: %s", self.source.display_name, message)
            self.warnings.append(("FormNotLoaded", message))
            return False
        if form_type in (pdfium_c.FORMTYPE_XFA_FULL, pdfium_c.FORMTYPE_XFA_FOREGROUND):
            # pypdfium2 warns that its build has no XFA and how to rebuild it: advice for
            # viewers; goblin reads the XFA packets itself (xfa.py)
            with _quiet(logging.getLogger("pypdfium2._helpers.document")):
                self.pdf.init_forms()
        else:
            self.pdf.init_forms()
        return self.pdf.formenv is not None

    @property
    def metadata(self) -> Mapping[str, Any]:
        """The document's metadata, its outline included once it has been read."""
        self.outline()
        return self._metadata

    @metadata.setter
    def metadata(self, value: Mapping[str, Any]) -> None:
        self._metadata = dict(value)

    def outline(self) -> list[dict[str, Any]]:
        """The bookmarks, read on first use: after the pages, a bookmark's page is
        found in PDFium's list of loaded pages instead of by walking the page tree
        (a walk per bookmark, a fifth of a 600-page report's time)."""
        if self._outline is None:
            self._outline = self._read_outline()
            if self._outline:
                self._metadata["outline"] = self._outline
        return self._outline

    def _read_outline(self) -> list[dict[str, Any]]:
        try:
            return read_outline(self.pdf, self.source.display_name)
        except Exception as exc:  # read after the pages: a broken outline must not cost them
            log.warning("%s: outline unreadable: %s", self.source.display_name, exc)
            return []

    def _document_metadata(self, readable: Source, password: str | None) -> dict[str, Any]:
        info = document_info(self.pdf, readable, password)
        encrypted = (pdfium_c.FPDF_GetSecurityHandlerRevision(self.pdf) != -1
                     or self._read_decrypted)
        metadata = document_metadata(info, page_count=self.pages_in_file, encrypted=encrypted,
                                     tagged=bool(self.pdf.is_tagged()),
                                     language=utf16_text(pdfium_c.FPDFCatalog_GetLanguage,
                                                         self.pdf))
        version = pdf_version(self.pdf.get_version())
        if version is not None:
            metadata["pdf_version"] = version
        fill_from_xmp(metadata, lambda: catalog_packet(readable, password)
                      if may_have_xmp(readable) else None)
        return metadata

    # -- pages ------------------------------------------------------------

    def pages(self) -> Iterator[PageContent]:
        # goblin.page_range: seek straight to the range (a split document's
        # other ranges are read by other workers).
        max_pages = int(self.options.get("max_pages", 0))
        for index in pages_to_read(self.page_range, self.pages_in_file, max_pages):
            yield self._page(index)
        cut = pages_cut(self.page_range, self.pages_in_file, max_pages)
        if cut:
            self.warnings.append(("PdfMaxPages", cut))

    def _page(self, index: int) -> PageContent:
        number = index + 1
        refusal = self.page_census.refusal(number)
        if refusal is not None:
            return PageContent(number, error=refusal)
        if number in self.lost_pages:
            return PageContent(number, error=(
                f"page {number} has no content in the damaged file: what it drew was "
                "probably in the part of the file that is lost"))
        try:
            page = self.pdf[index]
        except pdfium.PdfiumError as exc:
            return PageContent(number, error=f"PDFium cannot load page {number}: {exc}")
        try:
            textpage = page.get_textpage()
            try:
                read = read_text(page, int(self.options.get("count_images_below", 200)), textpage,
                                 lambda chars, text: {
                                     **self._control_ligatures.corrections(chars, text),
                                     **self._ligatures.corrections(chars, text, index)},
                                 self._layers.chars(page, textpage, index), self._word_gaps.edits)
                layout = self._layout(page, textpage, read, number)
                regions = self._untexted_images(page, textpage, read, number)
            finally:
                textpage.close()
            extra = self._page_extras(page, index, layout.text)
            signatures = self._signature_boxes(page)
        except pdfium.PdfiumError as exc:
            return PageContent(number, error=f"PDFium cannot read page {number}: {exc}")
        finally:
            page.close()
        if not (read.glyphs or read.images or read.path_segments or layout.text.strip()):
            damage = self._content_check.damage(index)
            if damage is not None:
                return PageContent(number, error=f"page {number} draws nothing: {damage}",
                                   label=self._label(index))
        else:
            self._warn_partial(number, self._content_check.partial(index))
        # rebuilt text gets the same stray-mark repair PDFium's own text had
        text = repair(layout.text) if layout.reordered else layout.text
        if signatures:
            extra[:0] = self._signatures(index, signatures)
        if index == 0 and self._dynamic_xfa:
            extra[:0] = self._xfa()
        if number == self.closing_page and self._field_values and not self._dynamic_xfa \
                and self.pdf.get_formtype() != pdfium_c.FORMTYPE_NONE:
            extra.extend(self._unshown_fields())
        if number == self.closing_page and self.options.get("outline", True) and self.outline():
            extra.append(outline_text(self.outline()))
        return PageContent(number, text=text, glyphs=read.glyphs, images=read.images,
                           unmapped=read.unmapped, blocks=layout.blocks, label=self._label(index),
                           path_segments=read.path_segments, hidden_chars=read.hidden,
                           image_regions=regions, unread=read.unread,
                           added_text=added_text(extra))

    def _untexted_images(self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage,
                         read: PageText, number: int) -> tuple[ImageRegion, ...]:
        """Images of a page of text that OCR may read (auto OCR only): a page with little
        text is OCR'd whole, and a page the census refused is never drawn."""
        walked = read.glyphs < int(self.options.get("count_images_below", 200))
        if not self._image_regions or (walked and read.images == 0):
            return ()  # the object census walked the page and found no image
        try:
            return untexted_images(page, textpage)
        except Exception as exc:  # the regions are an extra: never lose the page's text
            log.warning("%s: page %d's images unreadable: %s", self.source.display_name,
                        number, exc)
            return ()

    def _layout(self, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, read: PageText,
                number: int) -> PageLayout:
        """Reading order and structure of the page; PDFium's own text if that fails."""
        text = read.text
        try:
            layout = read_page_layout(page, textpage, text, self.layout_settings, self._tagged,
                                      read.joined, read.corrected, read.rects)
        except Exception as exc:  # the layout is an improvement: never lose the page's text
            log.warning("%s: page %d layout unreadable: %s", self.source.display_name, number, exc)
            self._metadata["layout"].append({"page": number, "error": str(exc)})
            return PageLayout(text, (), 1, False, TagOutcome.skipped(f"layout failed: {exc}"))
        self._metadata["layout"].append({"page": number, "columns": layout.columns,
                                        "reading_order": layout.reordered,
                                        "tags": layout.tags.describe()})
        return layout

    def _page_extras(self, page: pdfium.PdfPage, index: int, text: str) -> list[str]:
        extra: list[str] = []
        try:
            annotations = read_annotations(page, bool(self.options.get("annotations", True)))
            extra.extend(annotations.texts)
            # Tika lists link targets too; only the ones the page does not print are news.
            links = annotations.unseen_links(text)
            if links:
                extra.append("\n".join(links))
            if annotations.attached_files:
                self._pages_with_attached_files.append(index)
            shown_only = list(annotations.shown_only)
            if self._field_values:
                fields = form_field_texts(page, self.pdf.formenv if self._forms else None,
                                          shown_only)
                extra.extend(fields)
                self._field_lines.update(fields)
            if shown_only:
                extra.extend(self._appearances(index, shown_only, text))
        except Exception as exc:  # annotations and fields are extras: never lose the page text
            log.warning("%s: annotations or form fields unreadable: %s",
                        self.source.display_name, exc)
        return extra

    def _appearances(self, index: int, shown_only: list[ShownOnly], text: str) -> list[str]:
        """What annotations with no text of their own show (a stamp, an unfilled field's
        appearance), unless drawing them is refused."""
        undrawn = self.page_census.drawing_refusal(index + 1)
        if undrawn is not None:  # flattening draws the appearances
            self._warn_undrawn(f"{undrawn}; what its annotations show is not read")
            return []
        return appearance_texts(self.pdf, index, shown_only, text)

    def _unshown_fields(self) -> list[str]:
        """The values of form fields no page shows (no widget on any page)."""
        pdf = self._content_check.document()
        if pdf is None:
            return []
        try:
            return [line for line in unshown_field_texts(pdf) if line not in self._field_lines]
        except Exception as exc:  # the form's fields are an extra: never lose the page
            log.warning("%s: form fields unreadable: %s", self.source.display_name, exc)
            return []

    def _xfa(self) -> list[str]:
        """A dynamic XFA form's text: its page is only a placeholder PDFium draws."""
        try:
            text = xfa_text(self.pdf, self.source.display_name)
        except Exception as exc:  # the form's XML is an extra: never lose the page
            log.warning("%s: XFA form unreadable: %s", self.source.display_name, exc)
            return []
        return [text] if text else []

    def _signature_boxes(self, page: pdfium.PdfPage) -> list[tuple[float, ...]]:
        if not (self._forms and self.options.get("annotations", True)):
            return []
        try:
            return signature_boxes(page, self.pdf.formenv)
        except Exception as exc:  # the signatures are extras: never lose the page
            log.warning("%s: signature fields unreadable: %s", self.source.display_name, exc)
            return []

    def _signatures(self, index: int, boxes: list[tuple[float, ...]]) -> list[str]:
        """What the page's signature fields show, one line each."""
        undrawn = self.page_census.drawing_refusal(index + 1)
        if undrawn is not None:  # flattening draws the appearances into the page
            self._warn_undrawn(f"{undrawn}; its signature fields are not read")
            return []
        try:
            lines = signature_texts(self.pdf, index, boxes)
        except Exception as exc:  # the signatures are extras: never lose the page
            log.warning("%s: page %d signature appearances unreadable: %s",
                        self.source.display_name, index + 1, exc)
            return []
        return ["\n".join(lines)] if lines else []

    def _warn_partial(self, number: int, damage: str | None) -> None:
        """A page whose drawing stops part-way: its text is what came before the damage."""
        if damage is not None:
            message = f"page {number}: {damage}; its text may be incomplete"
            log.warning("%s: %s", self.source.display_name, message)
            self.warnings.append(("CorruptDocument", message))

    def _warn_undrawn(self, message: str) -> None:
        log.warning("%s: %s", self.source.display_name, message)
        self.warnings.append(("AnnotationsNotDrawn", message))

    def _label(self, index: int) -> str:
        if self._labels_refused:
            return ""

        def refuse(length: int) -> None:
            # PDFium spells a label out whole to say how long it is: a file can give every
            # page one label of tens of megabytes for a few kilobytes of compressed object,
            # so one label too long to keep ends the labels of the document
            self._labels_refused = True
            log.warning("%s: page %d's label runs to %d characters; page labels are not "
                        "read", self.source.display_name, index + 1, length)

        # the tolerant reader: pypdfium2's raises on a label that is not valid UTF-16
        return utf16_text(pdfium_c.FPDF_GetPageLabel, self.pdf, index, too_long=refuse)

    # -- images and attachments --------------------------------------------

    def render(self, page: int, dpi: int) -> Any:
        """Page ``page`` (1-based) as a grayscale PIL image at ``dpi``."""
        dpi = int(dpi or self.options.get("render_dpi", 300))
        refusal = self.page_census.refusal(page)
        if refusal is not None:
            raise CorruptDocument(refusal, file=self.source.display_name)
        native = self.pdf[page - 1]
        try:
            # the page's own content is weighed; its annotations' appearances only now,
            # when it has any
            undrawn = (self.page_census.drawing_refusal(page)
                       if pdfium_c.FPDFPage_GetAnnotCount(native) > 0 else None)
            if undrawn is not None:
                self._warn_undrawn(f"{undrawn}; the page is rendered without its annotations")
            width, height = native.get_size()
            scale = dpi / 72
            pixels = width * scale * height * scale
            if pixels > self.max_pixels:
                scale *= (self.max_pixels / pixels) ** 0.5
            timeout = float(self.options.get("render_timeout", 30.0))
            limit = "pdf.render_timeout"
            # what the extraction has left; the parser's own count when used outside one
            left = time_left()
            if left is None:
                left = self._deadline - time.monotonic()
            if left < timeout:
                timeout, limit = max(left, 0.0), "limits.timeout"
            try:
                return render_gray(native, scale, timeout=timeout,
                                   draw_annotations=undrawn is None,
                                   form_env=self.pdf.formenv if self._forms and undrawn is None
                                   else None)
            except RenderTimeout as exc:
                reason = (str(exc) if limit == "pdf.render_timeout" else
                          f"the document's time limit of {self._time_limit:g} s ran out "
                          "while drawing the page")
                raise ExtractionTimeout(f"page {page}: {reason} ({limit}); it is not rendered",
                                        file=self.source.display_name) from exc
        finally:
            native.close()

    def attachments(self) -> Iterator[Source]:
        """Embedded files and PDF portfolio members, as child Sources.

        Each is measured before it is copied out of PDFium (a bomb costs one
        transient decode, not three copies) and checked against the limits. A file
        specification met again (one attached from a thousand pages) is not decoded
        again, and every decode counts against limits.max_members and
        limits.max_total_bytes, the copies that turn out the same included.
        """
        seen = _SeenAttachments()
        listed = self.pdf.count_attachments()
        for index in range(listed):
            try:
                attachment = self.pdf.get_attachment(index)
            except pdfium.PdfiumError as exc:  # a name-tree entry that leads nowhere
                self.warnings.append(("CorruptDocument", (
                    f"embedded file {index + 1} of the {listed} the file lists cannot be "
                    f"read ({exc}); left out")))
                continue
            child = self._attachment(attachment, f"attachment-{index + 1}", seen)
            if child is not None:
                yield child
        # Files attached to annotations (Tika's annotationFileAttachment), found on the
        # pages read; one also listed among the embedded files is not read twice.
        for index in self._pages_with_attached_files:
            page = self.pdf[index]
            try:
                for number, attachment in enumerate(attached_files(page, self.pdf), start=1):
                    child = self._attachment(
                        attachment, f"page-{index + 1}-attachment-{number}", seen)
                    if child is not None:
                        yield child
            finally:
                page.close()

    def _attachment(self, attachment: pdfium.PdfAttachment, fallback: str,
                    seen: _SeenAttachments) -> Source | None:
        # the handle is PDFium's file specification object, alive as long as the document
        if not seen.first_time(ctypes.cast(attachment.raw, ctypes.c_void_p).value):
            return None
        # read with the tolerant reader: pypdfium2's raises on a name that is not UTF-16
        listed = utf16_text(pdfium_c.FPDFAttachment_GetName, attachment)
        name = listed.strip() or fallback
        self._check_stream_bound(listed, name, seen)
        size = self._check_attachment_size(name, attachment)
        self._check_decoded(name, size, seen)
        try:
            data = _attachment_data(attachment, size)
        except pdfium.PdfiumError as exc:
            read = self._attachment_by_qpdf(listed, name, exc)
            if read is None:
                return None
            data = read
        else:
            if self._content_check.damaged_attachment(name):
                data = self._before_damage(name)
                if not data:
                    self._warn_attachment(f"attachment {name!r}: its stream is damaged from "
                                          "its start, and nothing of it decodes; left out")
                    return None
                self._warn_attachment(f"attachment {name!r}: its stream is damaged part-way; "
                                      f"only the {len(data):,} bytes before the damage are read")
            elif not _matches_checksum(attachment, data):
                self._warn_attachment(f"attachment {name!r}: its {len(data):,} bytes do not "
                                      "match the MD5 checksum the PDF gives for it; it may be "
                                      "damaged")
            else:
                self._warn_flaw(name, len(data), self._content_check.attachment_flaw(name))
        key = (name, len(data), hashlib.sha256(data).hexdigest())
        if key in seen.contents:
            return None
        seen.contents.add(key)
        return self.source.child(name, data)

    def _warn_flaw(self, name: str, size: int, flaw: str | None) -> None:
        if flaw == "checksum":
            self._warn_attachment(f"attachment {name!r}: its {size:,} bytes do not match the "
                                  "checksum of its compressed stream; it may be damaged")
        elif flaw == "cut":
            self._warn_attachment(f"attachment {name!r}: its compressed stream stops before "
                                  f"its end; only its first {size:,} bytes are read")

    def _before_damage(self, name: str) -> bytes:
        """The bytes of the damaged attachment ``name`` that decode before its damage
        (PDFium gives the raw stream for one damaged at its start)."""
        stream = self._content_check.embedded_file(name)
        if stream is None:
            return b""
        try:
            return inflated_before_damage(stream, self.limits.max_member_size)
        except Exception as exc:  # qpdf's errors reading the stream: nothing to hand on
            log.debug("%s: attachment %r unread: %s", self.source.display_name, name, exc)
            return b""

    def _attachment_by_qpdf(self, listed: str, name: str, failure: Exception) -> bytes | None:
        """An attachment PDFium cannot give (a file specification naming its file by
        ``/UF`` alone, or by an empty name, which PDFium takes for no file), read by
        qpdf, found by the name it is ``listed`` under; None, with a warning, when that
        fails too."""
        stream = self._content_check.embedded_file(listed)
        if stream is None and self._content_check.refers_outside(listed):
            log.debug("%s: %r names a file outside the PDF", self.source.display_name, name)
            return None
        if stream is None:
            self._warn_attachment(f"attachment {name!r} cannot be read ({failure}); left out")
            return None
        try:
            return embedded_data(stream, self.limits.max_member_size)
        except Exception as exc:  # zlib's errors, qpdf's, a filter not decoded: left out
            self._warn_attachment(f"attachment {name!r} cannot be read ({exc}); left out")
            return None

    def _warn_attachment(self, message: str) -> None:
        log.warning("%s: %s", self.source.display_name, message)
        self.warnings.append(("CorruptDocument", message))

    def _check_stream_bound(self, listed: str, name: str, seen: _SeenAttachments) -> None:
        """Refuse the attachment before PDFium decodes it when its stream decodes past
        the limits. PDFium decodes an attached file whole even to say how large it is,
        holding about twice its size: a 3 MB PDF attaching 3 GB of zeros took 4.3 GB.
        So its stream (every stream named as it is, or every attached stream when qpdf
        knows none by that name) is counted through its filters first, keeping nothing,
        up to the most the limits let it decode to. A file qpdf cannot open is left to
        PDFium's measure."""
        limits = self.limits
        whole = max(self.source.size, 1)
        by_ratio = max(limits.ratio_grace_bytes, int(limits.max_ratio * whole))
        left = max(limits.max_total_bytes - seen.decoded_bytes, 0)
        bound = min(limits.max_member_size, by_ratio, left)
        streams = self._content_check.embedded_streams(listed)
        for stream in streams or ():
            if seen.bounded.get(stream.objgen, -1) >= bound:
                continue  # counted already, under as strict a bound
            try:
                past = embedded_decodes_past(stream, bound)
            except Exception as exc:  # qpdf cannot read it: PDFium gives the verdict
                log.debug("%s: attached stream not counted: %s", self.source.display_name, exc)
                continue
            if not past:
                seen.bounded[stream.objgen] = bound
                continue
            after = "it and the attachments after it are not read"
            if bound == limits.max_member_size:
                raise FileTooLarge(
                    f"attachment {name!r} decodes to more than limits.max_member_size "
                    f"({limits.max_member_size:,} bytes); {after}",
                    file=self.source.display_name)
            if bound == by_ratio:
                raise UnsafeArchive(
                    f"attachment {name!r} decodes to more than {bound:,} bytes from a PDF "
                    f"of {whole:,}, a compression ratio over limits.max_ratio "
                    f"({limits.max_ratio:g}:1); a bomb? {after}",
                    file=self.source.display_name)
            raise UnsafeArchive(f"attached files decode to more than limits.max_total_bytes "
                                f"({limits.max_total_bytes:,}) in all; {after}",
                                file=self.source.display_name)

    def _check_attachment_size(self, name: str, attachment: pdfium.PdfAttachment) -> int:
        """The attachment's decoded size. Refuse an attachment over limits.max_member_size
        (FileTooLarge), or one that decodes to more than limits.max_ratio times the whole
        PDF (UnsafeArchive): its own stream is smaller still, so its ratio is higher, as
        in a zip bomb."""
        measured = ctypes.c_ulong()
        pdfium_c.FPDFAttachment_GetFile(attachment, None, 0, measured)
        size, limits = measured.value, self.limits
        after = "it and the attachments after it are not read"
        if size > limits.max_member_size:
            raise FileTooLarge(
                f"attachment {name!r} decodes to {size:,} bytes, over limits.max_member_size "
                f"({limits.max_member_size:,}); {after}",
                file=self.source.display_name,
            )
        whole = max(self.source.size, 1)
        if size > limits.ratio_grace_bytes and size > limits.max_ratio * whole:
            raise UnsafeArchive(
                f"attachment {name!r} decodes to {size:,} bytes from a PDF of {whole:,}, a "
                f"compression ratio over limits.max_ratio ({limits.max_ratio:g}:1); a bomb? "
                f"{after}",
                file=self.source.display_name,
            )
        return size

    def _check_decoded(self, name: str, size: int, seen: _SeenAttachments) -> None:
        """Count one more decode of ``size`` bytes; UnsafeArchive past limits.max_members
        decodes or limits.max_total_bytes decoded in all (distinct file specifications
        may all name one large stream: each is decoded before it is known the same)."""
        seen.decodes += 1
        seen.decoded_bytes += size
        limits, after = self.limits, f"attachment {name!r} and those after it are not read"
        if seen.decodes > limits.max_members:
            raise UnsafeArchive(f"more than limits.max_members ({limits.max_members:,}) "
                                f"attached files decoded; {after}",
                                file=self.source.display_name)
        if seen.decoded_bytes > limits.max_total_bytes:
            raise UnsafeArchive(f"attached files decode to more than limits.max_total_bytes "
                                f"({limits.max_total_bytes:,}) in all; {after}",
                                file=self.source.display_name)

    def close(self) -> None:
        self.outline()  # metadata read after closing still has it
        if self._forms:
            self.pdf.close_forms()
        self.pdf.close()
        self.page_census.close()
        self._ligatures.close()
        self._layers.close()
        self._content_check.close()
        if self.repaired is not None:
            self.repaired.cleanup()


class _SeenAttachments:
    """What one listing of a document's attachments has met: the file specifications
    (by PDFium's handle), the contents given out, and how much has been decoded."""

    def __init__(self) -> None:
        self.specifications: set[int | None] = set()
        self.contents: set[tuple[str, int, str]] = set()
        self.decodes = 0
        self.decoded_bytes = 0
        #: attached streams counted through their filters, by (object, generation): the
        #: bound each was found to stay under
        self.bounded: dict[tuple[int, int], int] = {}

    def first_time(self, specification: int | None) -> bool:
        if specification in self.specifications:
            return False
        self.specifications.add(specification)
        return True


def _page_exists(pdf: pdfium.PdfDocument, index: int) -> bool:
    """Whether page ``index`` (0-based) is in the page tree, its content left unparsed."""
    return bool(pdfium_c.FPDF_GetPageSizeByIndexF(pdf, index, pdfium_c.FS_SIZEF()))


def _matches_checksum(attachment: pdfium.PdfAttachment, data: bytes) -> bool:
    """False when the embedded file's parameters give an MD5 checksum its bytes do not
    have (a stream damaged in a way its filters do not notice); True without one."""
    if not pdfium_c.FPDFAttachment_HasKey(attachment, b"CheckSum"):
        return True
    # PDFium gives the checksum's 16 bytes as hexadecimal between angle brackets
    given = utf16_text(pdfium_c.FPDFAttachment_GetStringValue, attachment, b"CheckSum")
    given = given.strip().strip("<>").lower()
    if len(given) != 32 or any(c not in "0123456789abcdef" for c in given):
        return True  # no MD5 to compare with
    return hashlib.md5(data, usedforsecurity=False).hexdigest() == given


def _attachment_data(attachment: pdfium.PdfAttachment, size: int) -> bytes:
    """The attachment's bytes, ``size`` of them as measured, in one more decode
    (pypdfium2's get_data measures it again first)."""
    if size <= 0:
        raise pdfium.PdfiumError("Failed to extract attachment (no data).")
    buffer = ctypes.create_string_buffer(size)
    written = ctypes.c_ulong()
    if not pdfium_c.FPDFAttachment_GetFile(attachment, buffer, size, written):
        raise pdfium.PdfiumError("Failed to extract attachment (error status).")
    if written.value > size:
        raise pdfium.PdfiumError(f"Failed to extract attachment (expected {size} bytes, but "
                                 f"got {written.value}).")
    return buffer.raw[:written.value]
