"""normalize_table_rows' two switches act apart, as in GoblinTools: turning off the
merging of continuation rows still collapses a header split over two rows."""

from __future__ import annotations

from goblin_core.compat import normalize_table_rows

SPLIT_HEADER = [
    ["ITEM", "DESCRIÇÃO", "VALOR", None],
    [None, None, "UNIT.", "TOTAL"],
    ["1", "Areia e\npedra", "10,00", "20,00"],
    ["", "lavada", "", ""],
]


def test_headers_collapse_without_merging_continuations() -> None:
    assert normalize_table_rows(SPLIT_HEADER, merge_continuations=False) == [
        ["ITEM", "DESCRIÇÃO", "VALOR UNIT.", "VALOR TOTAL"],
        ["1", "Areia e pedra", "10,00", "20,00"],
        [None, "lavada", None, None],
    ]


def test_continuations_merge_without_collapsing_headers_as_goblintools_does() -> None:
    # GoblinTools' continuation merge takes the header's second line in too.
    assert normalize_table_rows(SPLIT_HEADER, collapse_headers=False) == [
        ["ITEM", "DESCRIÇÃO", "VALOR UNIT.", "TOTAL"],
        ["1", "Areia e pedra lavada", "10,00", "20,00"],
    ]
