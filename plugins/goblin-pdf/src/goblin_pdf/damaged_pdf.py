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
from dataclasses import dataclass
from typing import Any

from goblin_core.source import Source

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RebuiltPdf:
    """A damaged PDF rewritten by qpdf, decrypted, and the pages that lost their content."""

    data: bytes
    page_count: int
    #: 1-based numbers of the pages whose content stream the damaged file no longer holds
    lost_pages: frozenset[int]


def rebuilt_pdf(source: Source, password: str | None) -> RebuiltPdf | None:
    """``source`` reconstructed from its objects by qpdf, or None when qpdf finds no page
    either (not a PDF at all, or a password it is not given)."""
    import pikepdf  # loaded only for a file PDFium refused

    try:
        with pikepdf.open(io.BytesIO(source.bytes()), password=password or "",
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


class ContentCheck:
    """Tells a page that draws nothing because it is blank from one whose content
    stream does not decode; qpdf opens the file only when such a page turns up."""

    def __init__(self, data: Source | bytes, password: str | None) -> None:
        self._data = data
        self._password = password
        self._pdf: Any = None
        self._failed = False

    def damage(self, index: int) -> str | None:
        """Why page ``index`` (0-based) drew nothing when it is damaged, else None."""
        pdf = self._open()
        if pdf is None or index >= len(pdf.pages):
            return None
        import pikepdf

        contents = pdf.pages[index].obj.get("/Contents")
        streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
        for stream in streams:
            if not isinstance(stream, pikepdf.Stream):
                continue
            try:
                stream.read_bytes()
            except pikepdf.PdfError as exc:
                return f"its content stream cannot be decoded ({_short(exc)}); its text is lost"
        return None

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


def _short(exc: Exception) -> str:
    """qpdf's message without the file name and offset it starts with."""
    text = str(exc)
    return text.rsplit("): ", 1)[-1] if "): " in text else text
