"""GoblinTools' StructuredExtractor, StructuredDocument, TableBlock and TableQuality.

goblin_core.structured computes the tables and their quality; its documents are
immutable, with tuples for tables and rows. GoblinTools hands out plain
dataclasses holding lists, which its users compare with lists
(``doc.tables == []``, ``block.rows == [["Item", "Qtd"]]``), append to and set
fields on. StructuredDocument and TableBlock here have GoblinTools' fields, in its
order, with its mutable containers, and StructuredExtractor returns them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from goblin_core.structured import model
from goblin_core.structured.extractor import PathLike
from goblin_core.structured.extractor import StructuredExtractor as _CoreExtractor

__all__ = ["StructuredDocument", "StructuredExtractor", "TableBlock", "TableQuality"]


#: Scalars only, so goblin's own immutable one serves: it compares, converts to a dict
#: and prints as GoblinTools' does.
TableQuality = model.TableQuality


@dataclass
class TableBlock:
    """One table: its rows of cells, where it came from and its quality."""

    index: int
    source: str
    rows: list[list[str | None]]
    quality: TableQuality
    page: int | None = None
    sheet: str | None = None


@dataclass
class StructuredDocument:
    """One file's tables and prose; ``page_texts`` (goblin's addition) holds each
    page's prose, so ``full.md`` places every table after the text of its page."""

    path: str
    tables: list[TableBlock] = field(default_factory=list)
    prose: str = ""
    ok_for_items: bool = False
    has_usable_tables: bool = False
    used_ocr_tables: bool = False
    page_texts: list[str] = field(default_factory=list)


class StructuredExtractor(_CoreExtractor):
    """goblin's StructuredExtractor, its documents in GoblinTools' shapes.

    As in GoblinTools, ``max_pdf_pages`` caps the pages of PDFs only (a workbook keeps
    all its sheets), and a cap of 0 or less reads no page of a PDF.
    """

    def extract_from_file(self, file_path: PathLike) -> StructuredDocument:  # type: ignore[override]
        path = Path(file_path)
        if self.max_pdf_pages is None or not path.is_file():
            return _compat_document(super().extract_from_file(file_path))
        if self._mime(path) != "application/pdf":
            reader = copy.copy(self)
            reader.max_pdf_pages = None
            return _compat_document(_CoreExtractor.extract_from_file(reader, file_path))
        if int(self.max_pdf_pages) <= 0:
            return StructuredDocument(path=str(path))
        return _compat_document(super().extract_from_file(file_path))

    def extract_from_folder(self, folder_path: PathLike) -> list[StructuredDocument]:  # type: ignore[override]
        return [_compat_document(d) for d in super().extract_from_folder(folder_path)]

    def extract_ok_files(self, files: Iterable[PathLike]) -> list[StructuredDocument]:  # type: ignore[override]
        return [_compat_document(d) for d in super().extract_ok_files(files)]

    def to_full_md(self, doc: StructuredDocument | model.StructuredDocument) -> str:
        return super().to_full_md(_core_document(doc))

    def write_full_md(self, doc: StructuredDocument | model.StructuredDocument,
                      dest: PathLike) -> bool:
        return super().write_full_md(_core_document(doc), dest)


def _compat_document(doc: model.StructuredDocument | StructuredDocument) -> StructuredDocument:
    """``doc`` with lists where goblin keeps tuples and None where it has an empty
    cell, as GoblinTools' tables have (one already converted is returned as it is)."""
    if isinstance(doc, StructuredDocument):
        return doc
    return StructuredDocument(
        path=doc.path,
        tables=[TableBlock(index=t.index, source=t.source,
                           rows=[[cell if cell else None for cell in r] for r in t.rows],
                           quality=t.quality, page=t.page, sheet=t.sheet) for t in doc.tables],
        prose=doc.prose,
        ok_for_items=doc.ok_for_items,
        has_usable_tables=doc.has_usable_tables,
        used_ocr_tables=doc.used_ocr_tables,
        page_texts=list(doc.page_texts),
    )


def _core_document(doc: StructuredDocument | model.StructuredDocument) -> model.StructuredDocument:
    """goblin's immutable form of ``doc``, which its renderers take; a missing cell
    (None in GoblinTools' rows) is an empty one."""
    if isinstance(doc, model.StructuredDocument):
        return doc
    return model.StructuredDocument(
        path=doc.path,
        tables=tuple(model.TableBlock(
            index=t.index, source=t.source,
            rows=tuple(tuple("" if c is None else str(c) for c in r) for r in t.rows),
            quality=t.quality,
            page=t.page, sheet=t.sheet) for t in doc.tables),
        prose=doc.prose,
        ok_for_items=doc.ok_for_items,
        has_usable_tables=doc.has_usable_tables,
        used_ocr_tables=doc.used_ocr_tables,
        page_texts=tuple(doc.page_texts),
    )
