"""Scoring a table for item extraction: header, quantities and values that parse."""

from __future__ import annotations

import re
from collections.abc import Sequence

from goblin_core.structured.brazilian_numbers import is_figure, is_number
from goblin_core.structured.item_header import fold, header_columns, is_item_header
from goblin_core.structured.model import TableQuality
from goblin_core.table_repair import is_header_row, is_meaningful_table

#: Quantities and values must parse in at least this share of the rows that carry them.
MIN_PARSE_RATE = 0.5
#: A table with this many data rows is usable even without an item header.
USABLE_DATA_ROWS = 3
#: An item header is looked for in this many leading rows.
HEADER_SEARCH_ROWS = 10

_FOOTER = re.compile(r"^(?:valor\s+)?(?:sub)?total\b|^total\s+geral\b|^atencao\b|^obs\b")


def is_footer_row(row: Sequence[str]) -> bool:
    """True for total and note rows under the items (TOTAL GERAL, SUBTOTAL, VALOR TOTAL...)."""
    first = next((c for c in row if c.strip()), "")
    return bool(_FOOTER.match(fold(first).strip()))


def header_index(rows: Sequence[Sequence[str]]) -> int | None:
    """The row holding the column titles: an item header within the first rows
    (spreadsheets put a letterhead and a title above it), else a first row of
    titles, else None.
    """
    for i, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        if is_item_header(row):
            return i
    return 0 if rows and is_header_row(rows[0]) else None


def _rate(rows: Sequence[Sequence[str]], columns: Sequence[int]) -> tuple[float, int]:
    carrying = hits = 0
    for row in rows:
        cells = [row[c].strip() for c in columns if c < len(row) and row[c].strip()]
        if not cells:
            continue
        carrying += 1
        hits += any(is_number(c) for c in cells)
    return (hits / carrying if carrying else 0.0), carrying


def score_table(rows: Sequence[Sequence[str]]) -> TableQuality:
    """Quality of a clean table (``normalize_table_rows`` output) for item extraction.

    >>> q = score_table([("ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR UNIT.", "VALOR TOTAL"),
    ...                  ("1", "Areia média", "M3", "12,5", "R$ 100,00", "R$ 1.250,00")])
    >>> q.ok_for_items, q.qty_parse_rate, q.value_parse_rate
    (True, 1.0, 1.0)
    """
    meaningful = is_meaningful_table(rows)
    at = header_index(rows)
    header = list(rows[at]) if at is not None else []
    body = [list(r) for r in rows[(at + 1 if at is not None else 0):] if any(c.strip() for c in r)]
    data = [r for r in body if not is_footer_row(r)]
    itemish = bool(header) and is_item_header(header)
    columns = header_columns(header)
    qty_rate = value_rate = 0.0
    if columns.quantity is not None:
        qty_rate, _ = _rate(data, [columns.quantity])
    elif "lot" in columns.roles and data:
        qty_rate = 1.0  # an auction lot is one lot: its quantity goes without saying
    elif data:
        qty_rate = sum(any(is_figure(c) for c in r[1:]) for r in data) / len(data)
    has_value = bool(columns.values)
    if has_value:
        value_rate, _ = _rate(data, columns.values)
    ok = (meaningful and itemish and bool(data) and qty_rate >= MIN_PARSE_RATE
          and (not has_value or value_rate >= MIN_PARSE_RATE))
    return TableQuality(
        meaningful=meaningful,
        has_itemish_header=itemish,
        n_data_rows=len(data),
        qty_parse_rate=round(qty_rate, 3),
        value_parse_rate=round(value_rate if has_value else 1.0, 3),
        ok_for_items=ok,
        has_value_column=has_value,
        first_row_is_header=at == 0,
        has_usable_tables=meaningful and len(data) >= USABLE_DATA_ROWS,
    )
