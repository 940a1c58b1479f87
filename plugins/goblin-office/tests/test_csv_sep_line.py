"""A CSV opening with Excel's ``sep=`` line: the line names the delimiter and is not
a row, as Excel reads it."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("data", "delimiter"),
    [
        (b"sep=;\nnome;valor,total\nx;1,5\n", ";"),
        (b"sep=\t\r\nnome\tvalor;total\r\nx\t1;5\r\n", "\t"),
        (b"\xef\xbb\xbfsep=,\nnome,valor;total\nx,1;5\n", ","),
        (b"SEP=|\nnome|valor\tb\nx|1\t5\n", "|"),
    ],
)
def test_sep_line_names_the_delimiter_and_is_not_data(read, data: bytes, delimiter: str) -> None:  # type: ignore[no-untyped-def]
    document = read(data, "excel.csv")
    table = document.tables[0]
    assert table.rows[0][0] == "nome" and len(table.rows) == 2
    assert all(len(row) == 2 for row in table.rows)
    assert "sep=" not in document.text.lower()
    assert document.raw_metadata["delimiter"] == delimiter
    assert document.raw_metadata["delimiter_declared"] is True


def test_a_first_row_that_only_starts_like_a_sep_line_is_data(read) -> None:  # type: ignore[no-untyped-def]
    document = read(b"sep=;;\na;b\n", "dados.csv")
    assert document.tables[0].rows[0] == ("sep=", "")
    assert "delimiter_declared" not in document.raw_metadata
