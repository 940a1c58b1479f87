"""Cleaning raw cell grids into table rows, and telling tables from text boxes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goblin_core.table_repair import (
    clean_cell,
    header_rows,
    is_meaningful_table,
    normalize_table_rows,
)

HEADER = ("ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR UNIT.", "VALOR TOTAL")


def test_line_breaks_inside_a_cell_become_single_spaces() -> None:
    assert clean_cell("Areia e\npedra\r\n  lavada ") == "Areia e pedra lavada"


def test_hyphen_at_a_line_break_is_kept_not_glued() -> None:
    assert clean_cell("bloco pré-\nmoldado") == "bloco pré-moldado"


def test_control_characters_are_dropped() -> None:
    assert clean_cell("R$\x00 10,00\x0b") == "R$ 10,00"


@given(st.lists(st.text(alphabet="abcdeçãé", min_size=1, max_size=6), min_size=1, max_size=8),
       st.sampled_from(["\n", " ", "\n ", "\t", " \n  "]))
def test_cell_repair_never_glues_words(words: list[str], separator: str) -> None:
    assert clean_cell(separator.join(words)).split(" ") == words


def test_header_split_over_two_rows_with_a_merged_cell() -> None:
    rows = normalize_table_rows([
        ["ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR", None],
        [None, None, None, None, "UNIT.", "TOTAL"],
        ["1", "Areia e pedra", "M3", "12,50", "R$ 110,00", "R$ 1.375,00"],
    ])
    assert rows[0] == HEADER
    assert rows[1] == ("1", "Areia e pedra", "M3", "12,50", "R$ 110,00", "R$ 1.375,00")


def test_header_split_over_two_text_lines() -> None:
    rows = normalize_table_rows([
        ["ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR", "VALOR"],
        ["", "", "", "", "UNIT.", "TOTAL"],
        ["1", "Cimento", "SC", "10", "38,90", "389,00"],
    ])
    assert rows[0] == HEADER and len(rows) == 2


def test_continuation_lines_join_the_item_above() -> None:
    rows = normalize_table_rows([
        list(HEADER),
        ["1", "Tijolo cerâmico furado", "MIL", "8", "850,00", "6.800,00"],
        ["", "de seis furos", "", "", "", ""],
        [None, "9 x 14 x 19 cm", None, None, None, None],
        ["2", "Cimento", "SC", "10", "38,90", "389,00"],
    ])
    assert rows[1] == ("1", "Tijolo cerâmico furado de seis furos 9 x 14 x 19 cm", "MIL", "8",
                       "850,00", "6.800,00")
    assert rows[2][0] == "2" and len(rows) == 3


def test_spreadsheet_rows_stay_rows_but_a_split_header_is_still_joined() -> None:
    rows = normalize_table_rows([
        ["ITEM", "DESCRIÇÃO", "VALOR", "VALOR"],
        ["", "", "UNIT.", "TOTAL"],
        ["1", "Maçã", "3,00", "6,00"],
        ["", "Pera", "", ""],
    ], continuations=False)
    assert rows == (("ITEM", "DESCRIÇÃO", "VALOR UNIT.", "VALOR TOTAL"),
                    ("1", "Maçã", "3,00", "6,00"), ("", "Pera", "", ""))


def test_a_row_with_figures_but_no_key_is_kept() -> None:
    rows = normalize_table_rows([
        list(HEADER),
        ["1", "Cimento", "SC", "10", "38,90", "389,00"],
        ["", "Subtotal", "", "", "", "389,00"],
    ])
    assert rows[-1] == ("", "Subtotal", "", "", "", "389,00")


def test_empty_rows_and_columns_are_dropped() -> None:
    rows = normalize_table_rows([
        ["", "A", None, "B"],
        [None, None, None, ""],
        ["", "1", "", "2"],
    ])
    assert rows == (("A", "B"), ("1", "2"))


def test_stacked_records_in_one_grid_row_are_split() -> None:
    rows = normalize_table_rows([
        ["State", "Permit", "Handgun"],
        ["Alabama\nAlaska\nArizona", "18,870\n209\n2,303", "23,022\n3,062\n12,382"],
    ])
    assert rows == (("State", "Permit", "Handgun"), ("Alabama", "18,870", "23,022"),
                    ("Alaska", "209", "3,062"), ("Arizona", "2,303", "12,382"))


def test_wrapped_text_cells_are_not_mistaken_for_stacked_records() -> None:
    rows = normalize_table_rows([
        ["Nome", "Endereço", "Cargo"],
        ["Maria\nda Silva", "Rua das\nFlores", "Engenheira\ncivil"],
    ])
    assert rows[1] == ("Maria da Silva", "Rua das Flores", "Engenheira civil")


def test_rows_come_out_padded_to_one_width() -> None:
    rows = normalize_table_rows([["a", "b", "c"], ["1", "2"]])
    assert {len(r) for r in rows} == {3}


@pytest.mark.parametrize("rows", [
    [["Observação: os preços incluem BDI."], ["Responsável técnico: engenheiro."]],
    [["Assinatura", ""]],
    [["a", "b"]],
    [["x", ""], ["", ""], ["y", ""]],
    [["ZAVA AUTO REPAIR, 123 Main Street", ""], ["Preliminary Estimate (ID: EST-1008)", ""],
     ["Customer Information", "Vehicle Information"]],
    [],
])
def test_text_boxes_and_fragments_are_not_tables(rows: list[list[str]]) -> None:
    assert not is_meaningful_table(rows)


def test_a_grid_that_cuts_through_words_is_not_a_table() -> None:
    rows = [["os preç", "os incl", "uem bd", "i de v"], ["alor e", "ncarg", "os so", "ciais d"],
            ["a plan", "ilha s", "egue a", "tabela"]]
    assert not is_meaningful_table(rows)


def test_a_small_real_table_is_a_table() -> None:
    assert is_meaningful_table([["This is a table.", "After running tabula."],
                                ["You should see…", "… a 2x2 matrix"]])


def test_header_rows_counts_a_title_row_only_above_data() -> None:
    assert header_rows([list(HEADER), ["1", "Cimento", "SC", "10", "38,90", "389,00"]]) == 1
    assert header_rows([["1", "Cimento"], ["2", "Areia"]]) == 0
    assert header_rows([list(HEADER)]) == 0


def test_a_row_under_a_merged_key_cell_stays_a_row_of_its_own() -> None:
    # "Norte" spans two grid rows: the finder marks the cell it covers None, and the
    # second row fills cells of its own, text only, as a record does.
    rows = normalize_table_rows([
        ["Região", "Cidade", "Bioma"],
        ["Norte", "Belém", "Amazônia"],
        [None, "Manaus", "Floresta"],
        ["Sul", "Curitiba", "Pampa"],
    ])
    assert rows == (("Região", "Cidade", "Bioma"), ("Norte", "Belém", "Amazônia"),
                    ("", "Manaus", "Floresta"), ("Sul", "Curitiba", "Pampa"))


def test_a_wrapped_description_under_a_merged_key_cell_still_joins_its_item() -> None:
    rows = normalize_table_rows([
        ["Região", "Cidade", "Bioma"],
        ["Norte", "Belém do", "Amazônia"],
        [None, "Pará", ""],
    ])
    assert rows == (("Região", "Cidade", "Bioma"), ("Norte", "Belém do Pará", "Amazônia"))
