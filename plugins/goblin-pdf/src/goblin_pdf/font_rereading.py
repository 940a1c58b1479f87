"""Recovery engines that read a page's characters again with PDFium, font by font.

Some text layers are wrong in a way that belongs to one font and can be undone once
it is known which characters that font drew: glyph numbers of a font that names no
glyph (``glyph_order``), a ToUnicode map written with its bytes swapped
(``byte_order``). Each engine here gets the page's character codes with the font of
each, and gives the page's text back, or None when none of its fonts is of its kind.
"""

from __future__ import annotations

import ctypes
import logging
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_core.config import Config
from goblin_core.engines import BaseEngine
from goblin_core.source import Source
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import document_password
from goblin_pdf.pdfium_parser import open_pdfium
from goblin_pdf.stray_marks import plain_ligatures

log = logging.getLogger(__name__)


@dataclass
class PageCharacters:
    """A page's characters as PDFium reads them: ``codes`` (what PDFium took for the
    character), ``font_keys`` the font of each (0 for characters PDFium generated, such
    as line breaks and the spaces it puts in gaps), ``fonts`` the font handles by key
    (valid while the page is open)."""

    codes: list[int] = field(default_factory=list)
    font_keys: list[int] = field(default_factory=list)
    fonts: dict[int, pdfium_c.FPDF_FONT] = field(default_factory=dict)


class PdfiumRereading(BaseEngine):
    """A recovery engine reading the asked pages' characters with PDFium and handing
    them to ``reread``."""

    formats = PDF_PAGES

    def reread(self, chars: PageCharacters) -> str | None:
        raise NotImplementedError

    def recover(
        self, source: Source, page_numbers: Sequence[int], config: Config
    ) -> dict[int, str]:
        password = document_password(source, config)
        texts: dict[int, str] = {}
        pdf = open_pdfium(source, password)
        try:
            with PageCensus.of(source, config) as census:
                for number in page_numbers:
                    if not 1 <= number <= len(pdf) or census.refusal(number):
                        continue
                    try:
                        text = self._page_text(pdf, number - 1)
                    except pdfium.PdfiumError as exc:  # one bad page must not lose the others
                        log.warning("%s: page %d unreadable for %s: %s",
                                    source.display_name, number, self.name, exc)
                        continue
                    if text is not None:
                        texts[number] = text
        finally:
            pdf.close()
        return texts

    def _page_text(self, pdf: pdfium.PdfDocument, index: int) -> str | None:
        page = pdf[index]
        try:
            textpage = page.get_textpage()
            try:
                return self.reread(page_characters(textpage))
            finally:
                textpage.close()
        finally:
            page.close()


def page_characters(textpage: pdfium.PdfTextPage) -> PageCharacters:
    chars = PageCharacters()
    for index in range(textpage.count_chars()):
        chars.codes.append(pdfium_c.FPDFText_GetUnicode(textpage, index))
        key = 0
        if not pdfium_c.FPDFText_IsGenerated(textpage, index):
            obj = pdfium_c.FPDFText_GetTextObject(textpage, index)
            font = pdfium_c.FPDFTextObj_GetFont(obj) if obj else None
            key = (ctypes.cast(font, ctypes.c_void_p).value or 0) if font else 0
            if key and key not in chars.fonts:
                chars.fonts[key] = font
        chars.font_keys.append(key)
    return chars


def joined_text(parts: list[str]) -> str:
    """Characters as page text: PDFium's line breaks as ``\\n``, NFC, ligatures spelled out."""
    text = "".join(parts).replace("\r\n", "\n").replace("\r", "\n")
    return plain_ligatures(unicodedata.normalize("NFC", text))
