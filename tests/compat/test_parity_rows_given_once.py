"""Table helpers given rows as a generator read them as GoblinTools 0.13.4 does: once,
losing none (``normalize_table_rows`` gave ``[]``)."""

from __future__ import annotations

from collections.abc import Iterator

from goblin_core.compat import is_meaningful_table, normalize_table_rows

ROWS = [["Item", "Descrição", "Qtd"], ["1", "Caneta azul", "10"], ["2", "Lápis", "5"]]


def rows() -> Iterator[list[str]]:
    yield from (list(r) for r in ROWS)


def test_normalize_reads_a_generator_of_rows_whole() -> None:
    assert normalize_table_rows(rows()) == normalize_table_rows(ROWS) == ROWS
    assert normalize_table_rows(rows(), merge_continuations=False) == ROWS


def test_a_tuned_gate_measures_a_generator_of_rows_whole() -> None:
    # Every border cuts a word: the gate refuses the grid, given as a list or not.
    split = [["Constr", "ução", "civi", "l"], ["Engen", "haria", "elét", "rica"],
             ["Mate", "riais", "diver", "sos"]]
    tuned = {"min_cols": 2, "min_rows": 2, "min_filled_cells": 4, "min_word_split_sample": 4}
    assert is_meaningful_table(split, **tuned) is False
    assert is_meaningful_table(iter(split), **tuned) is False
    assert is_meaningful_table(iter(ROWS), min_cols=3) is True
