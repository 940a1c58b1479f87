"""GoblinTools 0.13.4's answers at the edges of its table helpers: no rows give no
Markdown table, and ``max_pages=0`` reads no page, so finds no table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import goblin_core.compat as compat


@pytest.mark.parametrize("rows", [None, [], [[]], [[], []], ()])
@pytest.mark.parametrize("header", [True, False])
def test_no_rows_make_no_markdown_table(goblintools: Any, rows: Any, header: bool) -> None:
    assert compat.table_to_markdown(rows, header=header) == ""
    assert goblintools.table_to_markdown(rows, header=header) == ""


@pytest.mark.parametrize("max_pages", [0, -1])
def test_no_pages_to_read_find_no_tables(tmp_path: Path, max_pages: int) -> None:
    # goblin finds a CSV's table too (goblin-office reads it), so the answer shows
    # that no page was read, not that there was nothing to find.
    sheet = tmp_path / "planilha.csv"
    sheet.write_text("Item,Qtd,Valor\nCimento,10,\"35,00\"\nAreia,5,\"80,00\"\n", "utf-8")
    assert compat.extract_pdf_tables(str(sheet)) != []
    assert compat.extract_pdf_tables(str(sheet), max_pages=max_pages) == []
    assert compat.TextExtractor().extract_tables_from_pdf(str(sheet), max_pages=max_pages) == []
