"""The fallback PDF parser: pypdf, pure Python, for files PDFium will not open.

pypdf is imported when a document reaches it: with its crypto providers it costs
a third of goblin's start-up, which every CLI run and worker process would pay for a
parser most documents never need.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.errors import CorruptDocument, PasswordRequired
from goblin_core.model import PageContent
from goblin_core.ranking import unmapped_chars
from goblin_core.source import Source
from goblin_pdf.passwords import configured_password, other_security_error, password_error
from goblin_pdf.pdf_metadata import document_metadata
from goblin_pdf.pdfium_parser import PDF_MIME
from goblin_pdf.stray_marks import plain_ligatures
from goblin_pdf.stream_bombs import refuse_stream_bombs

if TYPE_CHECKING:
    import pypdf

log = logging.getLogger(__name__)


class PypdfParser(BaseEngine):
    """Text from pypdf when PDFium cannot open the document."""

    name = "pdf.pypdf"
    formats = (PDF_MIME,)
    priority = 50

    def open(self, source: Source, config: Config) -> PypdfDocument:
        refuse_stream_bombs(source, int(config.section("pdf").get("max_stream_size", 0)),
                            configured_password(config))
        return PypdfDocument(source, config)


def open_pypdf(source: Source, password: str | None) -> pypdf.PdfReader:
    """A decrypted PdfReader; PasswordRequired or CorruptDocument when it cannot be had."""
    import pypdf
    from pypdf.errors import FileNotDecryptedError, PdfReadError, PyPdfError

    stream = source.open()
    try:
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
        self.reader = open_pypdf(source, configured_password(config))
        try:
            self.pages_in_tree = len(self.reader.pages)
        except _read_errors() as exc:
            raise CorruptDocument(f"pypdf finds no page tree ({exc})",
                                  file=source.display_name) from exc
        self.page_count = self.pages_in_tree
        self.metadata = self._metadata()

    def _metadata(self) -> dict[str, Any]:
        try:
            info = {str(k): str(v) for k, v in (self.reader.metadata or {}).items()}
        except _read_errors() as exc:
            log.warning("%s: pypdf cannot read the document info: %s",
                        self.source.display_name, exc)
            info = {}
        return document_metadata(info, page_count=self.pages_in_tree,
                                 encrypted=self.reader.is_encrypted,
                                 tagged="/StructTreeRoot" in self.reader.root_object)

    def pages(self) -> Iterator[PageContent]:
        limit = int(self.options.get("max_pages", 0)) or self.pages_in_tree
        for index in range(min(self.pages_in_tree, limit)):
            yield self._page(index)

    def _page(self, index: int) -> PageContent:
        number = index + 1
        try:
            page = self.reader.pages[index]
            text = plain_ligatures(page.extract_text() or "")
            images = _image_count(page)
        except Exception as exc:  # pypdf raises many types on broken pages: each is a page error
            return PageContent(number, error=f"pypdf cannot read page {number}: "
                                             f"{type(exc).__name__}: {exc}")
        glyphs = sum(1 for c in text if not c.isspace())
        return PageContent(number, text=text, glyphs=glyphs, images=images,
                           unmapped=unmapped_chars(text))

    def attachments(self) -> Iterator[Source]:
        try:
            items = list(self.reader.attachments.items())
        except _read_errors() as exc:
            log.warning("%s: pypdf cannot list attachments: %s", self.source.display_name, exc)
            return
        for name, contents in items:
            for data in contents:
                yield self.source.child(name, data)

    def close(self) -> None:
        stream = getattr(self.reader, "stream", None)
        if stream is not None:
            stream.close()


def _read_errors() -> tuple[type[Exception], ...]:
    """What pypdf raises on a damaged structure (imported once a document got here)."""
    from pypdf.errors import PdfReadError, PyPdfError

    return (PdfReadError, PyPdfError, KeyError, TypeError, ValueError)


def _image_count(page: Any) -> int:
    """Image XObjects in the page resources, without decoding them."""
    resources = page.get("/Resources") or {}
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    if not xobjects:
        return 0
    xobjects = xobjects.get_object()
    return sum(1 for ref in xobjects.values() if ref.get_object().get("/Subtype") == "/Image")
