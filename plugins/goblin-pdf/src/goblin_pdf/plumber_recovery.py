"""Recovery through pdfplumber (pdfminer.six), which decodes some fonts differently.

pdfminer maps glyphs of identity-encoded TrueType fonts through the embedded
font's own cmap table where PDFium falls back to raw glyph codes, so pages
PDFium turns into shifted codes often come back readable here.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source, spooled
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import configured_password
from goblin_pdf.pdfium_parser import PDF_MIME
from goblin_pdf.stray_marks import plain_ligatures

log = logging.getLogger(__name__)


class PdfplumberRecovery(BaseEngine):
    """Re-reads garbage or failed pages with pdfplumber."""

    name = "pdf.pdfplumber"
    formats = (PDF_MIME,)
    priority = 60

    def recover(
        self, source: Source, page_numbers: Sequence[int], config: Config
    ) -> dict[int, str]:
        # pdfplumber (and pdfminer under it) loads on first recovery, not with
        # the plugin: every worker and goblin command would pay for it otherwise.
        import pdfplumber

        texts: dict[int, str] = {}
        with spooled(source) as path:
            try:
                pdf = pdfplumber.open(path, password=configured_password(config) or "")
            except Exception as exc:  # pdfminer raises many types on broken files
                raise CorruptDocument(f"pdfplumber cannot open it ({type(exc).__name__}: {exc})",
                                      file=source.display_name) from exc
            try:
                try:
                    # The page tree is parsed lazily, on first access: a broken
                    # tree fails here, not in open().
                    pages = pdf.pages
                except Exception as exc:  # pdfminer raises many types on broken files
                    raise CorruptDocument(
                        f"pdfplumber cannot read its page tree ({type(exc).__name__}: {exc})",
                        file=source.display_name,
                    ) from exc
                with PageCensus.of(source, config) as census:
                    texts.update(_page_texts(pages, page_numbers, census, source.display_name))
            finally:
                _close(pdf, source.display_name)
        return texts


def _page_texts(pages: Sequence[Any], page_numbers: Sequence[int], census: PageCensus,
                name: str) -> dict[int, str]:
    """pdfplumber's text of the pages asked for; pdfminer would expand a form bomb as
    PDFium would, so pages the census refuses are left out."""
    texts: dict[int, str] = {}
    for number in page_numbers:
        if not 1 <= number <= len(pages) or census.refusal(number):
            continue
        page = pages[number - 1]
        try:
            texts[number] = plain_ligatures(page.extract_text() or "")
        except Exception as exc:  # one bad page must not lose the others
            log.warning("%s: pdfplumber failed on page %s: %s", name, number, exc)
        finally:
            page.close()
    return texts


def _close(pdf: object, name: str) -> None:
    """Close pdfplumber's document; its close() walks the page tree, which may be broken."""
    try:
        pdf.close()  # type: ignore[attr-defined]
    except Exception as exc:  # the pages read (or the error raised) matter more than this
        log.debug("%s: pdfplumber could not close cleanly: %s", name, exc)
