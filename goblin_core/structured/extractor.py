"""StructuredExtractor: item tables of PDFs, spreadsheets, CSV and DOCX files.

It runs the normal goblin pipeline with tables on and reads each page's
tables, so a PDF's tables come from the installed table engine and a
spreadsheet's, CSV's or DOCX's from its parser: every format goes through
the one Table model. Plain-text extraction is not changed by it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from goblin_core.errors import GoblinError
from goblin_core.model import Document, Page
from goblin_core.structured.full_md import to_full_md
from goblin_core.structured.model import StructuredDocument, TableBlock
from goblin_core.structured.quality import score_table
from goblin_core.table_repair import is_meaningful_table, normalize_table_rows

log = logging.getLogger(__name__)

PathLike = str | os.PathLike[str]

_OOXML = "application/vnd.openxmlformats-officedocument"
#: The formats StructuredExtractor reads, by detected MIME type, and their source label.
STRUCTURED_MIMES: dict[str, str] = {
    "application/pdf": "pdf",
    f"{_OOXML}.spreadsheetml.sheet": "xlsx",
    "application/vnd.ms-excel.sheet.macroenabled.12": "xlsm",
    "text/csv": "csv",
    f"{_OOXML}.wordprocessingml.document": "docx",
}
#: File name suffixes of those formats (GoblinTools' ``STRUCTURED_SUFFIXES``).
STRUCTURED_SUFFIXES = frozenset({".pdf", ".xlsx", ".xlsm", ".csv", ".docx"})
#: The sources whose tables are sheets: every row is a row as written.
SHEET_SOURCES = ("xlsx", "xlsm", "csv")


def source_label(mime: str, name: str) -> str | None:
    """pdf, xlsx, xlsm, csv or docx for a structured format, else None."""
    label = STRUCTURED_MIMES.get(mime.lower())
    if label == "xlsx" and name.lower().endswith(".xlsm"):
        return "xlsm"
    return label


def _prose(page: Page) -> str:
    if page.blocks:
        return "\n\n".join(b.text for b in page.blocks if b.kind != "table" and b.text.strip())
    return page.text


def _page_texts(pages: Iterable[Page]) -> tuple[str, ...]:
    """Each page's prose in the place of its number (page n's at n - 1), so full.md finds
    a table's page by its number; a page not read (outside ``page_range``) is ""."""
    by_number = {page.number: _prose(page) for page in pages}
    return tuple(by_number.get(n, "") for n in range(1, max(by_number, default=0) + 1))


def structure_document(document: Document, path: str | None = None) -> StructuredDocument:
    """The structured view of an extracted Document (its tables scored, its prose).

    A format StructuredExtractor does not read gives an empty document with
    ``ok_for_items`` False.
    """
    name = path or document.name
    label = source_label(document.mime, name)
    if label is None:
        return StructuredDocument(path=name)
    blocks: list[TableBlock] = []
    for table in document.tables:
        rows = normalize_table_rows(table.rows, continuations=label not in SHEET_SOURCES)
        if not is_meaningful_table(rows):
            continue
        blocks.append(TableBlock(
            index=len(blocks),
            source=label,
            rows=rows,
            quality=score_table(rows),
            page=table.page if label == "pdf" else None,
            sheet=(table.title or None) if label in SHEET_SOURCES else None,
        ))
    page_texts: tuple[str, ...] = ()
    prose = ""
    if label == "pdf":
        page_texts = _page_texts(document.pages)
        prose = "\n\n".join(t for t in page_texts if t.strip())
    elif label == "docx":
        prose = "\n\n".join(_prose(p) for p in document.pages if _prose(p).strip())
    ok = any(b.quality.ok_for_items for b in blocks)
    usable = ok or any(b.quality.has_usable_tables for b in blocks)
    return StructuredDocument(path=name, tables=tuple(blocks), prose=prose, ok_for_items=ok,
                              has_usable_tables=usable, page_texts=page_texts)


class StructuredExtractor:
    """Item-oriented tables of PDF, XLSX, XLSM, CSV and DOCX files.

    ``max_pdf_pages`` reads at most that many pages of a PDF (other files are read
    whole: a workbook's sheets are its pages); ``ocr_tables`` lets the
    pipeline OCR pages whose text layer is missing or broken (their prose;
    tables are read from the text layer). Other goblin options (``password``,
    ``timeout``...) pass through ``options``. Usage::

        extractor = StructuredExtractor()
        doc = extractor.extract_from_file("edital.pdf")
        if doc.ok_for_items:
            extractor.write_full_md(doc, "out/edital/full.md")
    """

    def __init__(
        self,
        *,
        max_pdf_pages: int | None = None,
        ocr_tables: bool = False,
        ocr_processor: Any = None,
        registry: Any = None,
        **options: Any,
    ) -> None:
        self.max_pdf_pages = max_pdf_pages
        self.ocr_tables = ocr_tables
        # Accepted for GoblinTools compatibility: OCR runs through goblin's OCR backends.
        self.ocr_processor = ocr_processor
        self.registry = registry
        self.options = options

    def _options(self, mime: str) -> dict[str, Any]:
        options: dict[str, Any] = {"ocr": "auto" if self.ocr_tables else "never"}
        options.update(self.options)
        options["tables"] = True
        # goblin.max_pages caps any document's pages: a workbook's sheets, a CSV's one page
        if self.max_pdf_pages and mime == "application/pdf":
            options["max_pages"] = int(self.max_pdf_pages)
        return options

    def _mime(self, path: Path) -> str | None:
        from goblin_core.detect import detect
        from goblin_core.registry import default_registry
        from goblin_core.source import Source

        registry = self.registry or default_registry()
        try:
            return detect(registry, registry.config(), Source.from_path(path)).mime
        except GoblinError as exc:
            log.warning("structured extraction skipped %s: %s", path, exc)
            return None

    def extract_from_file(self, file_path: PathLike) -> StructuredDocument:
        """The structured view of one file; never raises for a bad or unsupported file."""
        from goblin_core.api import extract

        path = Path(file_path)
        if not path.is_file():
            return StructuredDocument(path=str(path))
        mime = self._mime(path)
        if mime is None or source_label(mime, path.name) is None:
            return StructuredDocument(path=str(path))
        try:
            document = extract(path, registry=self.registry, **self._options(mime))
        except (GoblinError, OSError) as exc:
            log.warning("structured extraction failed for %s: %s", path, exc)
            return StructuredDocument(path=str(path))
        return structure_document(document, str(path))

    def extract_from_folder(self, folder_path: PathLike) -> list[StructuredDocument]:
        """Structured views of every supported file under a folder, in path order."""
        root = Path(folder_path)
        if not root.is_dir():
            return []
        files = sorted(p for p in root.rglob("*") if p.is_file() and self.supports(p))
        return [self.extract_from_file(p) for p in files]

    def extract_ok_files(self, files: Iterable[PathLike]) -> list[StructuredDocument]:
        """The structured views of the files whose tables pass ``ok_for_items``."""
        docs = (self.extract_from_file(f) for f in files if self.supports(f))
        return [d for d in docs if d.ok_for_items]

    def supports(self, file_path: PathLike) -> bool:
        """True when the file's suffix is one StructuredExtractor reads."""
        return Path(file_path).suffix.lower() in STRUCTURED_SUFFIXES

    def to_full_md(self, doc: StructuredDocument) -> str:
        """MinerU-compatible ``full.md`` text: prose plus HTML ``<table>`` blocks."""
        return to_full_md(doc)

    def write_full_md(self, doc: StructuredDocument, dest: PathLike) -> bool:
        """Write ``full.md`` to ``dest`` (folders created); False when there is nothing to write."""
        content = self.to_full_md(doc)
        if not content.strip():
            return False
        target = Path(dest)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        return True
