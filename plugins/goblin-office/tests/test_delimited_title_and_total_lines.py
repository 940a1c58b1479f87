"""A CSV with a title line above its table, or a total line below it, is split by its
delimiter. Such a line holds no delimiter; the csv module's sniffer gave up on the file,
and the fallback, which wanted the delimiter on every line, took the comma: each row of
a semicolon or tab file read as one cell ("Ana;Porto;1")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from goblin_office.delimited import sniff_delimiter

TABLE = [["nome", "cidade", "valor"], ["Ana", "Porto", "1"], ["Rui", "Braga", "2"]]


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
@pytest.mark.parametrize(
    ("before", "after"),
    [("Relatório de vendas 2024\n", ""), ("Relatório de vendas\n\n", ""),
     ("", "Total geral\n")],
    ids=["title", "title-and-blank-line", "total"],
)
def test_the_table_under_a_title_or_over_a_total_is_split(
        read: Callable[..., Any], delimiter: str, before: str, after: str) -> None:
    table = "".join(delimiter.join(row) + "\n" for row in TABLE)
    document = read((before + table + after).encode(), "vendas.csv")
    assert document.raw_metadata["delimiter"] == delimiter
    rows = [list(row) for row in document.pages[0].tables[0].rows if any(row)]
    assert TABLE[0] in rows and TABLE[2] in rows


@pytest.mark.parametrize(
    ("sample", "delimiter"),
    [
        ("a,b\n1,2\n", ","),
        ("One sentence, with a comma.\nAnother, and another; the end.\n", ","),
        ("name\nAna\nBob\n", ","),  # one column: the default
        ("Title\nnote: a;b\nx\ny\nz\n", ","),  # one line in five is no table
    ],
)
def test_a_delimiter_on_few_lines_is_not_taken(sample: str, delimiter: str) -> None:
    assert sniff_delimiter(sample) == delimiter
