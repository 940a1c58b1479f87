"""The pdfplumber TableEngine: ruled tables of PDF pages as goblin Tables."""

from __future__ import annotations

import gc
import logging
from collections.abc import Sequence
from typing import Any

from goblin_core.config import Config
from goblin_core.deadline import time_limit
from goblin_core.engines import BaseEngine
from goblin_core.errors import CorruptDocument, PasswordRequired
from goblin_core.model import Table
from goblin_core.source import Source
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import document_password
from goblin_pdf.tables.detect import MAX_TABLE_OPERATORS, page_tables
from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.stitch import stitch

log = logging.getLogger(__name__)


class PdfPlumberTableEngine(BaseEngine):
    """Finds ruled tables with pdfplumber, cleans them and joins page-break continuations.

    Runs only when ``tables = true``; reads only the pages the pipeline asks
    for (so ``max_pages`` holds). A page pdfplumber cannot lay out is logged
    and skipped: tables are extra, the page's text is unaffected.
    """

    name = "pdf.tables.pdfplumber"
    formats = PDF_PAGES
    priority = 0

    def available(self) -> tuple[bool, str]:
        try:
            import pdfplumber  # noqa: F401
        except ImportError as exc:
            return False, f"pdfplumber is not installed ({exc}): pip install 'goblin-core[pdf]'"
        return True, ""

    def tables(
        self, source: Source, page_numbers: Sequence[int], config: Config
    ) -> dict[int, list[Table]]:
        """Tables per requested 1-based page number, each page's indexed from 0."""
        found = self._find(source, page_numbers, config)
        return {
            number: [t.to_table(i, self.name) for i, t in enumerate(tables)]
            for number, tables in stitch(found).items()
        }

    def _find(self, source: Source, page_numbers: Sequence[int],
              config: Config) -> dict[int, list[FoundTable]]:
        import pdfplumber
        from pdfminer.pdfdocument import PDFPasswordIncorrect

        try:
            password = document_password(source, config) or ""
            pdf = pdfplumber.open(str(source.path()), password=password)
        except Exception as exc:  # pdfminer raises many unrelated types on broken files
            # pdfplumber wraps pdfminer's errors: the password error is its first argument.
            if any(isinstance(a, PDFPasswordIncorrect) for a in (exc, *exc.args)):
                raise PasswordRequired("the PDF is encrypted: give its password (password = ...)",
                                       file=source.display_name) from exc
            raise CorruptDocument(f"pdfplumber cannot open it for tables: {exc!r}",
                                  file=source.display_name) from exc
        found: dict[int, list[FoundTable]] = {}
        with pdf, PageCensus.of(source, config) as census:
            pages = self._pages(pdf, source)
            for number in sorted(set(page_numbers)):
                if not 1 <= number <= len(pages):
                    continue
                refusal = census.refusal(number)
                if refusal:
                    # pdfminer lays a form or content bomb out as PDFium would, and keeps
                    # a Python object per glyph: far more memory than PDFium's page
                    log.warning("%s: tables not searched: %s", source.display_name, refusal)
                    continue
                found[number] = self._page(pages[number - 1], number, source, config)
        return found

    def _pages(self, pdf: Any, source: Source) -> list[Any]:
        try:
            return list(pdf.pages)
        except Exception as exc:  # pdfminer reads the page tree lazily and fails with any type
            raise CorruptDocument(f"pdfplumber cannot read its page tree for tables: {exc}",
                                  file=source.display_name) from exc

    def _page(self, page: object, number: int, source: Source,
              config: Config) -> list[FoundTable]:
        options = config.section("pdf")
        failed = False
        try:
            with time_limit(float(options.get("page_timeout", 30.0)),
                            f"the table search of page {number}"):
                return page_tables(page, number,
                                   borderless=bool(options.get("borderless_tables", True)),
                                   max_operators=int(options.get("max_table_operators",
                                                                 MAX_TABLE_OPERATORS)))
        except Exception as exc:  # one malformed page must not lose the other pages' tables
            failed = True
            log.warning("%s page %d: table detection failed: %s", source.display_name, number, exc)
            return []
        finally:
            # pdfplumber caches every laid-out page until the file closes; free it now.
            page.close()  # type: ignore[attr-defined]
            if failed:
                # an interrupted layout leaves a Python object per glyph in reference
                # cycles: collected now, not on the clock of the next page
                gc.collect()
