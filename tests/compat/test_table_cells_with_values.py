"""normalize_table_rows keeps every cell that holds a value: a 0, 0.0 or False read
from a spreadsheet is its text, as GoblinTools 0.13.4 renders it (``str()``), never
an empty cell."""

from __future__ import annotations

from typing import Any

import goblin_core.compat as compat

NUMBERS = [["Item", "Qtd", "Valor"], ["A", 0, 1.5], ["B", 5, 0.0], ["C", None, 2]]
BOOLEANS = [["Nome", "Ativo"], ["x", False], ["y", True], ["z", False]]


def test_a_zero_cell_keeps_its_text() -> None:
    rows = compat.normalize_table_rows(NUMBERS)
    assert ["A", "0", "1.5"] in rows and ["B", "5", "0.0"] in rows
    assert ["C", None, "2"] in rows


def test_cells_are_only_cleaned_as_in_goblintools(goblintools: Any) -> None:
    for table in (NUMBERS, BOOLEANS):
        ours = compat.normalize_table_rows(table, collapse_headers=False,
                                           merge_continuations=False)
        theirs = goblintools.normalize_table_rows(table, collapse_headers=False,
                                                  merge_continuations=False)
        assert ours == theirs


def test_a_column_of_false_is_not_an_empty_column() -> None:
    assert compat.normalize_table_rows(BOOLEANS) == [
        ["Nome", "Ativo"], ["x", "False"], ["y", "True"], ["z", "False"]]
