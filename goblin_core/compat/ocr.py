"""GoblinTools' OCRProcessor: OCR of PDFs and images through goblin's OCR backends.

Each call runs the goblin pipeline with ``ocr="always"``, so pages are
rendered one at a time, every backend's output is validated, and OCR text
that validates as garbage is not returned as if it were text.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from goblin_core.compat.logging_policy import goblintools_logger
from goblin_core.compat.report import missing_engines
from goblin_core.compat.settings import TEXTRACT_ENGINE, GoblinConfig, OCRConfig, goblin_options
from goblin_core.config import Config
from goblin_core.errors import CorruptDocument, FileTooLarge, GoblinError
from goblin_core.model import Document, Page
from goblin_core.registry import EngineEntry, Registry, default_registry

log = goblintools_logger("ocr_parser")


def trusted_ocr_text(page: Page) -> str:
    """A page's OCR text, or "" when its validators call it garbage."""
    if page.verdict == "garbage" or page.status in ("corrupt", "failed"):
        if page.text.strip():
            log.warning("page %d: OCR output rejected as garbage (%s)", page.number,
                        ", ".join(page.reasons) or "validator verdict")
        return ""
    return page.text


def available_with(registry: Registry, entry: EngineEntry, config: Config) -> bool:
    """Whether an engine can run with this config: credentials given in the call
    count for a backend that checks them (``available_for``), as in the pipeline."""
    check = getattr(entry.engine, "available_for", None)
    if check is None:
        return registry.availability(entry)[0]
    try:
        return bool(check(config)[0])
    except Exception as exc:  # a plugin's bug makes it unavailable, not the caller fail
        log.warning("%s: available_for() raised %s: %s", entry.name, type(exc).__name__, exc)
        return False


class OCRProcessor:
    """OCR with local Tesseract, or AWS Textract when ``config.use_aws`` and credentials say so."""

    def __init__(self, config: OCRConfig) -> None:
        self.config = config or OCRConfig()
        if self.config.use_aws and not self.config.has_aws_credentials:
            # GoblinTools says so once, when the processor is made.
            log.warning("use_aws=True but AWS credentials not found (no keys, "
                        "use_default_aws_credentials off): falling back to local OCR")

    @property
    def registry(self) -> Registry:
        return default_registry()

    @property
    def use_aws(self) -> bool:
        """True when pages go to Textract: asked for, credentials given, plugin available
        (the credentials of this config count, not only those of the environment)."""
        if not (self.config.use_aws and self.config.has_aws_credentials):
            return False
        registry = self.registry
        entry = registry.get(TEXTRACT_ENGINE)
        return entry is not None and available_with(registry, entry, self._config())

    @property
    def textract_client(self) -> Any:
        """The goblin Textract engine, or None when it is not installed."""
        entry = self.registry.get(TEXTRACT_ENGINE)
        return entry.engine if entry is not None else None

    def _config(self, max_pages: int = 0) -> Config:
        registry = self.registry
        options = goblin_options(GoblinConfig(ocr=self.config), ocr=True,
                                 namespaces=registry.namespaces)
        options["ocr"] = "always"
        cap = self.config.max_ocr_pages
        pages = max_pages or (int(cap) if cap else 0)
        if pages:
            options["max_pages"] = pages
        return registry.config(**options)

    def _document(self, source: Any, name: str | None, max_pages: int = 0) -> Document | None:
        from goblin_core.api import extract

        try:
            document = extract(source, name=name, config=self._config(max_pages),
                               registry=self.registry)
        except (GoblinError, OSError, TypeError, ValueError) as exc:
            # GoblinTools' OCR methods never raise: a bad input gives no text.
            log.error("OCR failed: %s", exc)
            return None
        for missing in missing_engines(document):
            # GoblinTools says so when OCR cannot run: the text is missing, not absent.
            log.warning("%s", missing)
        return document

    def extract_text_from_image(self, image: Any) -> str:
        """OCR text of a PIL image or a numpy array (or a path or bytes of an image file)."""
        source, name = image, None
        try:
            if hasattr(image, "__array_interface__") and not hasattr(image, "save"):
                from PIL import Image

                image = Image.fromarray(image)
            if hasattr(image, "save"):
                source, name = png_bytes(image), "image.png"
        except (OSError, TypeError, ValueError) as exc:
            # As GoblinTools: an image that cannot be encoded gives no text, not an error.
            log.error("Error during image OCR: %s: %s", type(exc).__name__, exc)
            return ""
        document = self._document(source, name)
        if document is None:
            return ""
        return "\n\n".join(t for t in (trusted_ocr_text(p) for p in document.pages) if t).strip()

    def extract_text_from_pdf(self, pdf_path: str) -> str:
        """OCR text of every page of a PDF, pages separated by a blank line."""
        return "\n\n".join(t for t in self.extract_text_from_pdf_by_pages(pdf_path) if t)

    def extract_text_from_pdf_by_pages(self, pdf_path: str) -> list[str]:
        """OCR text of each page (\"\" for a page OCR could not read)."""
        document = self._document(pdf_path, None)
        if document is None:
            return []
        return [trusted_ocr_text(p) for p in document.pages]

    def extract_text_from_pdf_page_indices(
        self, pdf_path: str, page_indices: Sequence[int]
    ) -> dict[int, str]:
        """OCR text of the given 0-based pages, keyed by index."""
        wanted = sorted({int(i) for i in page_indices if int(i) >= 0})
        if not wanted:
            return {}
        document = self._document(pdf_path, None, max_pages=wanted[-1] + 1)
        if document is None:
            return {}
        by_index = {p.number - 1: trusted_ocr_text(p) for p in document.pages}
        return {i: by_index[i] for i in wanted if i in by_index}


def png_bytes(image: Any) -> bytes:
    """A PIL image encoded as PNG for goblin's OCR backends.

    A mode PNG cannot hold is converted as a viewer shows it: CMYK, YCbCr and the
    like to RGB; 32-bit integer and float pixels (a 16-bit scan's) to 8-bit grey
    across their range, so the text does not clip to white.
    """
    buffer = io.BytesIO()
    try:
        image.save(buffer, format="PNG")
        return buffer.getvalue()
    except OSError:
        if not hasattr(image, "convert"):
            raise  # no PIL image: nothing to convert, the caller says it gives no text
    if image.mode in ("I", "F"):
        low, high = image.getextrema()
        if low < 0 or high > 255:
            span = float(high - low) or 1.0
            image = image.point(lambda value: (value - low) * 255.0 / span)
        image = image.convert("L")
    else:
        image = image.convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def reads_images_its_own_way(handler: Any) -> bool:
    """True when ``handler.extract_text_from_image`` is not goblin's own: a caller's
    OCR object, a subclass overriding it, or a patched method. GoblinTools calls it
    for every image frame, so such a handler must be the one that reads them."""
    method = getattr(handler, "extract_text_from_image", None)
    return method is not None and getattr(method, "__func__", None) is not _OWN_IMAGE_OCR


_OWN_IMAGE_OCR = OCRProcessor.extract_text_from_image
_OWN_PDF_OCR = (OCRProcessor.extract_text_from_pdf,
                OCRProcessor.extract_text_from_pdf_page_indices)


def reads_pdfs_its_own_way(handler: Any) -> bool:
    """True when the handler's PDF OCR is not goblin's own (a caller's object, a
    subclass overriding it): GoblinTools hands it the PDFs that need OCR."""
    for name, own in zip(("extract_text_from_pdf", "extract_text_from_pdf_page_indices"),
                         _OWN_PDF_OCR, strict=True):
        method = getattr(handler, name, None)
        if method is not None and getattr(method, "__func__", None) is not own:
            return True
    return False


def pdf_pages_through(handler: Any, document: Document, path: str) -> Document:
    """A PDF whose unreadable pages the caller's ``handler`` read, as GoblinTools asks it:
    the whole file through ``extract_text_from_pdf`` when no page has text, else those
    pages through ``extract_text_from_pdf_page_indices`` (0-based).

    A page it gives text for becomes an ``ocr`` page; a handler that fails or answers
    nothing usable leaves the pages as they were (its error logged, never raised).
    """
    unread = [p for p in document.pages if p.status in ("corrupt", "failed")]
    if not unread:
        return document
    texts: dict[int, str] = {}
    try:
        if all(p.status in ("corrupt", "failed", "empty") for p in document.pages):
            whole = handler.extract_text_from_pdf(path)
            # One text for the whole file, as GoblinTools returns it: on the first page.
            if isinstance(whole, str) and whole.strip():
                texts = {unread[0].number: whole}
                texts.update({p.number: "" for p in unread[1:]})
        else:
            found = handler.extract_text_from_pdf_page_indices(
                path, [p.number - 1 for p in unread])
            if isinstance(found, dict):
                texts = {int(i) + 1: t for i, t in found.items()
                         if isinstance(t, str) and t.strip()}
    except Exception as exc:  # a caller's OCR may raise anything: GoblinTools logs it
        log.error("%s: OCR handler failed: %s: %s", document.name, type(exc).__name__, exc)
        return document
    if not texts:
        return document
    pages = tuple(
        replace(p, text=texts[p.number], engine="ocr", status="ocr", confidence=1.0,
                reason="", verdict="ok", reasons=())
        if p.number in texts else p
        for p in document.pages
    )
    return replace(document, pages=pages)


def frames_through(handler: Any, source: Any, name: str, mime: str,
                   max_frames: int, max_pixels: int = 0) -> Document:
    """An image (path or bytes) read frame by frame by ``handler.extract_text_from_image``:
    one page per frame, ``ocr`` when it gave text, ``corrupt`` when it gave none.

    Frames are found one at a time and no further than ``max_frames`` (0: all), so a
    file of countless tiny frames costs what is read of it.

    Raises FileTooLarge for a frame over ``max_pixels`` (limits.max_image_pixels; 0: only
    Pillow's own limit), checked before its pixels are decoded; CorruptDocument when the
    image cannot be opened or the handler fails.
    """
    from PIL import Image, ImageSequence, UnidentifiedImageError

    pages: list[Page] = []
    try:
        with Image.open(io.BytesIO(source) if isinstance(source, bytes) else source) as image:
            for number, frame in enumerate(ImageSequence.Iterator(image), start=1):
                if max_frames and number > max_frames:
                    log.warning("%s: only the first %d frames are OCR'd (limits.max_pages)",
                                name, max_frames)
                    break
                if max_pixels and frame.width * frame.height > max_pixels:
                    raise FileTooLarge(
                        f"frame {number} of {frame.width}x{frame.height} pixels is over "
                        f"limits.max_image_pixels ({max_pixels:,}); it may be a "
                        "decompression bomb", file=name)
                text = str(handler.extract_text_from_image(frame.convert("RGB")) or "")
                read = bool(text.strip())
                pages.append(Page(number=number, text=text if read else "", engine="ocr",
                                  status="ocr" if read else "corrupt",
                                  confidence=1.0 if read else 0.0,
                                  reason="" if read else "needs_ocr"))
    except FileTooLarge:
        raise
    except Image.DecompressionBombError as exc:
        # Pillow checks every frame it seeks to, past its own Image.MAX_IMAGE_PIXELS
        raise FileTooLarge(f"Pillow refused a frame as a possible decompression bomb ({exc})",
                           file=name) from exc
    except (OSError, UnidentifiedImageError) as exc:
        raise CorruptDocument(f"the image cannot be read: {exc}", file=name) from exc
    except Exception as exc:  # a caller's OCR handler may raise anything: report it
        raise CorruptDocument(f"the OCR handler failed: {type(exc).__name__}: {exc}",
                              file=name) from exc
    return Document(name=name, mime=mime, pages=tuple(pages))
