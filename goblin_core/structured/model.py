"""The structured view of a document: scored tables for item extraction."""

from __future__ import annotations

from dataclasses import dataclass

#: Table rows as every format hands them over: rows of cell strings.
Rows = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class TableQuality:
    """How usable a table is for reading procurement items.

    ``ok_for_items`` is the gate: a real table (``meaningful``) with an item
    header (ITEM / DESCRIÇÃO / UND / QUANT / VALOR...), at least one data row,
    and quantities and values that parse as numbers in at least half the
    rows that carry them. ``has_usable_tables`` is the soft signal: a real
    table with three or more data rows, whatever its header.
    """

    meaningful: bool
    has_itemish_header: bool
    n_data_rows: int
    qty_parse_rate: float
    value_parse_rate: float
    ok_for_items: bool
    has_value_column: bool = False
    first_row_is_header: bool = True
    has_usable_tables: bool = False


@dataclass(frozen=True)
class TableBlock:
    """One table with where it came from and its quality.

    ``source`` is the format it came from (pdf, xlsx, xlsm, csv, docx);
    ``page`` the 1-based page for PDFs, ``sheet`` the worksheet name for
    spreadsheets; ``index`` the table's position in the document.
    """

    index: int
    source: str
    rows: Rows
    quality: TableQuality
    page: int | None = None
    sheet: str | None = None


@dataclass(frozen=True)
class StructuredDocument:
    """One file's tables and prose, for item-extraction pipelines.

    ``page_texts`` holds each page's prose (PDF and DOCX) so ``full.md`` can
    place every table after the text of its page.
    """

    path: str
    tables: tuple[TableBlock, ...] = ()
    prose: str = ""
    ok_for_items: bool = False
    has_usable_tables: bool = False
    used_ocr_tables: bool = False
    page_texts: tuple[str, ...] = ()
