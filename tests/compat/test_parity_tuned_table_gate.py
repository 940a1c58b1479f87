"""``is_meaningful_table`` with thresholds of the caller's own still refuses a grid in
which no row fills two cells (one value per row, padded into columns: a text block),
as GoblinTools 0.13.4 does; only ``min_cols=1`` asks for one-column tables."""

from __future__ import annotations

from typing import Any

import pytest

import goblin_core.compat as compat

PADDED_COLUMN: list[list[Any]] = [["Objeto", ""], ["", "Aquisição de material"],
                                  ["Prazo", None], ["30 dias", " "]]
TABLE = [["Item", "Qtd"], ["Caneta", "10"], ["Lápis", "5"]]
TUNINGS: list[dict[str, Any]] = [{"min_filled_cells": 2}, {"min_rows": 3},
                                 {"min_cols": 2, "min_rows": 2, "min_filled_cells": 3},
                                 {"max_word_split_ratio": 0.5}]


@pytest.mark.parametrize("tuning", TUNINGS)
def test_one_value_per_row_is_no_table(tuning: dict[str, Any]) -> None:
    assert compat.is_meaningful_table(PADDED_COLUMN, **tuning) is False
    assert compat.is_meaningful_table(TABLE, **tuning) is True


def test_min_cols_one_still_accepts_a_one_column_table() -> None:
    assert compat.is_meaningful_table([["Objeto"], ["Prazo"], ["Local"], ["Valor"]],
                                      min_cols=1) is True


@pytest.mark.parametrize("tuning", TUNINGS)
def test_same_verdict_as_goblintools(goblintools: Any, tuning: dict[str, Any]) -> None:
    for rows in (PADDED_COLUMN, TABLE):
        assert compat.is_meaningful_table(rows, **tuning) == goblintools.is_meaningful_table(
            rows, **tuning)
