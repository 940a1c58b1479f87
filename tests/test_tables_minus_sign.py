"""Numbers written with the typographic minus sign (U+2212) are numbers: a discount row
under an item is a row of its own, not a continuation of the item's description."""

from __future__ import annotations

from decimal import Decimal

from goblin_core.structured import parse_br_number
from goblin_core.table_repair import normalize_table_rows


def test_the_minus_sign_reads_as_a_negative_number() -> None:
    assert parse_br_number("\u22121.234,56") == Decimal("-1234.56")
    assert parse_br_number("R$ \u2212100,00") == Decimal("-100.00")
    assert parse_br_number("\uff0d5") == Decimal("-5")


def test_a_discount_row_is_not_folded_into_the_item_above() -> None:
    rows = normalize_table_rows([
        ["ITEM", "DESCRIÇÃO", "VALOR"],
        ["1", "Cimento", "389,00"],
        ["", "Desconto", "\u221238,90"],
    ])
    assert rows == (("ITEM", "DESCRIÇÃO", "VALOR"), ("1", "Cimento", "389,00"),
                    ("", "Desconto", "\u221238,90"))
