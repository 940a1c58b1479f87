"""A CSV exported by a DOS program ends with the end-of-file mark (Ctrl-Z), which was
read as one more row of the table, of empty cells."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def test_the_end_of_file_mark_is_no_row(read: Callable[..., Any]) -> None:
    document = read(b"CODIGO;NOME\r\n1;ANA\r\n2;RUI\r\n\x1a", "clientes.csv")
    rows = [list(row) for row in document.pages[0].tables[0].rows]
    assert rows == [["CODIGO", "NOME"], ["1", "ANA"], ["2", "RUI"]]
    assert document.raw_metadata["rows"] == 3
