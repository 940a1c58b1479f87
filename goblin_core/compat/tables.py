"""GoblinTools' table helpers over goblin's table engines and table repair."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from goblin_core.compat.logging_policy import goblintools_logger
from goblin_core.errors import GoblinError
from goblin_core.model import Table

log = goblintools_logger("table_extractor")

DEFAULT_MAX_PAGE_CONTENT_BYTES = 10_000_000

TableRows = list[list[str | None]]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def table_to_markdown(rows: Sequence[Sequence[Any]] | None, *, header: bool = True) -> str:
    """A GitHub Markdown table of a cell matrix (pipes and line breaks escaped);
    "" for no rows (None included, as in GoblinTools).

    >>> print(table_to_markdown([["a", "b"], ["1", None]]))
    | a | b |
    | --- | --- |
    | 1 |  |
    >>> table_to_markdown(None), table_to_markdown([[]])
    ('', '')
    """
    if not rows:
        return ""
    matrix = tuple(tuple(_text(c) for c in row) for row in rows if row is not None)
    if not matrix:
        return ""
    if not header:
        # Markdown needs a header row: GoblinTools names the columns Col 1, Col 2...
        width = max(len(r) for r in matrix)
        matrix = (tuple(f"Col {n}" for n in range(1, width + 1)), *matrix)
    return Table(rows=matrix, header_rows=1).to_markdown()


def normalize_table_rows(
    rows: Sequence[Sequence[Any]],
    *,
    collapse_headers: bool = True,
    merge_continuations: bool = True,
) -> TableRows:
    """Drop empty rows, collapse split headers, merge continuation rows.

    ``collapse_headers=False`` and ``merge_continuations=False`` only clean
    cells and drop empty rows and columns; ``merge_continuations=False`` alone
    keeps every data row and still collapses a header split over two rows.
    """
    from goblin_core import table_repair

    # Rows read once, as GoblinTools reads them: goblin's repair walks them several
    # times, and a generator of rows would be empty after the first walk.
    rows = list(rows)
    if collapse_headers:
        return _none_for_empty(table_repair.normalize_table_rows(
            rows, continuations=merge_continuations))
    cleaned: list[list[table_repair.RawCell]] = [
        [table_repair.clean_cell(c) for c in row] for row in rows]
    cleaned = table_repair.drop_empty_columns(table_repair.drop_empty_rows(cleaned))
    if merge_continuations:
        cleaned = table_repair.merge_continuation_rows(cleaned)
    return _none_for_empty(cleaned)


def _none_for_empty(rows: Sequence[Sequence[str | float | None]]) -> TableRows:
    """GoblinTools' cell convention: an empty cell is None, never "" (a cell
    reading ``0`` is not empty)."""
    from goblin_core.table_repair import has_text

    return [[str(cell) if has_text(cell) else None for cell in row] for row in rows]


def is_meaningful_table(
    rows: Sequence[Sequence[Any]],
    *,
    min_cols: int = 2,
    min_rows: int = 2,
    min_filled_cells: int = 4,
    max_word_split_ratio: float = 0.7,
    min_word_split_sample: int = 8,
) -> bool:
    """True for a real table, False for one-column boxes, tiny fragments and
    text split into cells word by word."""
    from goblin_core import table_repair

    if not rows:
        return False
    rows = list(rows)  # measured several times below: a generator would be spent
    defaults = (min_cols, min_rows, min_filled_cells, max_word_split_ratio,
                min_word_split_sample) == (2, 2, 4, 0.7, 8)
    if defaults:
        return bool(table_repair.is_meaningful_table(rows))
    # The caller tuned the gate: apply its thresholds to the same measures.
    matrix = [[_text(c).strip() for c in row] for row in rows]
    width = max((len(r) for r in matrix), default=0)
    filled_rows = [r for r in matrix if any(r)]
    filled = sum(1 for r in matrix for c in r if c)
    if width < min_cols or len(filled_rows) < min_rows or filled < min_filled_cells:
        return False
    if min_cols >= 2 and not any(sum(1 for c in r if c) >= 2 for r in filled_rows):
        # As GoblinTools: one value per row, padded into columns, is a text block;
        # only min_cols=1 asks for one-column tables.
        return False
    ratio, sample = table_repair.word_split_ratio(rows)
    return not (ratio is not None and sample >= min_word_split_sample
                and ratio > max_word_split_ratio)


def extract_pdf_tables(
    pdf_path: str,
    *,
    max_pages: int | None = None,
    min_cols: int = 2,
    min_rows: int = 2,
    min_filled_cells: int = 4,
    normalize: bool = True,
    dual_strategy: bool = True,
    max_page_content_bytes: int | None = DEFAULT_MAX_PAGE_CONTENT_BYTES,
) -> list[dict[str, Any]]:
    """Tables of a PDF as ``[{"page": 1-based, "index": 0-based, "rows": [[...]]}]``.

    goblin's table engines choose the detection strategy and skip pages too
    heavy to parse, so ``dual_strategy`` and ``max_page_content_bytes`` are
    accepted for compatibility. Errors are logged; the result is then [].
    """
    from goblin_core.api import extract

    options: dict[str, Any] = {"tables": True, "ocr": "never"}
    if max_pages is not None:
        try:
            pages = int(max_pages)
        except (TypeError, ValueError) as exc:
            log.error("Failed to extract tables from %s: %s", pdf_path, exc)
            return []
        if pages <= 0:
            # GoblinTools reads the first max_pages pages: here, none at all.
            return []
        options["max_pages"] = pages
    try:
        document = extract(pdf_path, **options)
    except (GoblinError, OSError, TypeError, ValueError) as exc:
        # GoblinTools logs any failure (a missing file, None) and returns no tables.
        log.error("Failed to extract tables from %s: %s", pdf_path, exc)
        return []
    from goblin_core.structured.extractor import SHEET_SOURCES, source_label

    sheet = source_label(document.mime, document.name) in SHEET_SOURCES
    found: list[dict[str, Any]] = []
    for table in document.tables:
        rows: list[list[Any]] = [list(r) for r in table.rows]
        if normalize:
            # a sheet's or a CSV's rows are rows as written: only a split header is
            # folded, as StructuredExtractor reads them
            rows = normalize_table_rows(rows, merge_continuations=not sheet)
        if not is_meaningful_table(rows, min_cols=min_cols, min_rows=min_rows,
                                   min_filled_cells=min_filled_cells):
            continue
        index = sum(1 for t in found if t["page"] == table.page)
        found.append({"page": table.page, "index": index, "rows": rows})
    return found
