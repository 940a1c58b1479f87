"""``TextExtractor(extract_tables=True)`` embeds the tables of PDFs, as GoblinTools 0.13.4
documents it ("detect PDF tables and embed them"): a CSV's, a workbook's or a DOCX's
text already holds every row, and the Markdown copy gave each cell twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_parity_display_path import require_parser

from goblin_core.compat import TextExtractor

ROWS = [["Item", "Descrição", "Valor"], ["1", "Caneta azul", "2,50"], ["2", "Lápis", "1,00"]]


def test_a_csv_is_given_once_with_extract_tables(tmp_path: Path) -> None:
    require_parser("text/csv", "office")
    path = tmp_path / "itens.csv"
    path.write_text("\n".join(";".join(r) for r in ROWS) + "\n", encoding="utf-8")
    plain = TextExtractor().extract_from_file(str(path))
    with_tables = TextExtractor(extract_tables=True).extract_from_file(str(path))
    assert with_tables == plain
    assert with_tables.count("Caneta azul") == 1


def test_a_workbook_is_given_once_with_extract_tables(tmp_path: Path) -> None:
    require_parser("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                   "office")
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in ROWS:
        book.active.append(row)
    path = tmp_path / "itens.xlsx"
    book.save(path)
    with_tables = TextExtractor(extract_tables=True).extract_from_file(str(path))
    assert with_tables == TextExtractor().extract_from_file(str(path))
    assert with_tables.count("Caneta azul") == 1
