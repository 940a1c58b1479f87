"""GoblinTools' table helpers over goblin's table model and table repair."""

from __future__ import annotations

from goblin_core.compat import is_meaningful_table, normalize_table_rows, table_to_markdown

SPLIT_HEADER = [
    ["ITEM", "DESCRIÇÃO", "VALOR", None],
    [None, None, "UNIT.", "TOTAL"],
    ["1", "Areia e\npedra", "10,00", "20,00"],
    ["", "lavada", "", ""],
    [None, None, None, None],
]


def test_table_to_markdown_escapes_pipes_and_fills_blanks() -> None:
    markdown = table_to_markdown([["ITEM", "DESCRIÇÃO"], ["1", "Areia | pedra"], ["2", None]])
    assert markdown.splitlines() == [
        "| ITEM | DESCRIÇÃO |",
        "| --- | --- |",
        "| 1 | Areia \\| pedra |",
        "| 2 |  |",
    ]
    assert table_to_markdown([]) == ""


def test_table_to_markdown_without_header_keeps_every_row_as_data() -> None:
    lines = table_to_markdown([["1", "a"], ["2", "b"]], header=False).splitlines()
    assert lines == ["| Col 1 | Col 2 |", "| --- | --- |", "| 1 | a |", "| 2 | b |"]


def test_normalize_collapses_split_headers_and_merges_continuations() -> None:
    assert normalize_table_rows(SPLIT_HEADER) == [
        ["ITEM", "DESCRIÇÃO", "VALOR UNIT.", "VALOR TOTAL"],
        ["1", "Areia e pedra lavada", "10,00", "20,00"],
    ]


def test_normalize_can_only_clean() -> None:
    rows = normalize_table_rows(SPLIT_HEADER, collapse_headers=False, merge_continuations=False)
    assert len(rows) == 4
    assert rows[2][1] == "Areia e pedra"


def test_is_meaningful_table() -> None:
    assert is_meaningful_table([["ITEM", "VALOR"], ["1", "10,00"]])
    assert not is_meaningful_table([["Um parágrafo longo numa caixa"], ["e a segunda linha"]])
    assert not is_meaningful_table([["a", "b"]])
    assert is_meaningful_table([["a"], ["b"]], min_cols=1, min_filled_cells=2)


def test_normalized_empty_cells_are_none() -> None:
    rows = [["ITEM", "DESCRIÇÃO", "VALOR"], ["1", "Areia", ""], ["2", None, "20,00"]]
    expected = [["ITEM", "DESCRIÇÃO", "VALOR"], ["1", "Areia", None], ["2", None, "20,00"]]
    assert normalize_table_rows(rows) == expected
    assert normalize_table_rows(rows, collapse_headers=False, merge_continuations=False) == expected


def test_default_gate_wants_two_rows_using_two_columns() -> None:
    # GoblinTools' gate took this for a table: one two-cell row is layout in goblin's.
    assert not is_meaningful_table([["ITEM", "VALOR"], ["1", None], ["2", None], ["3", None]])
    assert is_meaningful_table([["ITEM", "VALOR"], ["1", "10,00"], ["2", None]])
