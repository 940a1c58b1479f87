"""goblin's table repair keeps a cell holding 0, 0.0 or False: a value read from a
spreadsheet is its text, and a column of zeros is a column."""

from __future__ import annotations

from goblin_core.table_repair import clean_cell, is_meaningful_table, normalize_table_rows


def test_a_zero_cell_is_its_text() -> None:
    assert [clean_cell(v) for v in (0, 0.0, False, None, " ")] == ["0", "0.0", "False", "", ""]


def test_a_zero_in_a_table_never_vanishes() -> None:
    rows = normalize_table_rows([["Item", "Qtd", "Valor"], ["A", 0, 1.5], ["B", 5, 0.0]])
    assert rows == (("Item", "Qtd", "Valor"), ("A", "0", "1.5"), ("B", "5", "0.0"))


def test_a_column_of_zeros_is_kept_and_counts_as_filled() -> None:
    table = [["Item", "Desconto"], ["Cimento", 0], ["Areia", 0]]
    assert normalize_table_rows(table) == (("Item", "Desconto"), ("Cimento", "0"),
                                           ("Areia", "0"))
    assert is_meaningful_table(table)

