"""A CSV delimited by semicolons whose numbers have decimal commas reads as its columns.

Spreadsheets in Brazil and most of Europe save CSV so: "1,5;2,5". With no header row
(or none the sniffer sees apart), commas and semicolons both stood on every line, the
csv module's sniffer preferred the comma, and each row read as "1", "5;2", "5".
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document
from goblin_office.delimited import sniff_delimiter


@pytest.mark.parametrize(
    ("data", "rows"),
    [
        (b"1,5;2,5\n3,1;4,25\n10,0;0,75\n", [["1,5", "2,5"], ["3,1", "4,25"], ["10,0", "0,75"]]),
        ("Café;1.234,56\nAçúcar;12,30\n".encode("cp1252"),
         [["Café", "1.234,56"], ["Açúcar", "12,30"]]),
    ],
    ids=["numbers", "names-and-amounts"],
)
def test_decimal_commas_stay_in_their_fields(
        read: Callable[..., Document], data: bytes, rows: list[list[str]]) -> None:
    document = read(data, "valores.csv")
    assert document.raw_metadata["delimiter"] == ";"
    assert [list(row) for row in document.pages[0].tables[0].rows] == rows


@pytest.mark.parametrize(
    ("sample", "delimiter"),
    [
        ("a,b\n1,2\n", ","),  # commas alone
        ("1,5\n2,5\n", ","),  # no semicolon: a comma-delimited pair of numbers
        ("name,note\nAna,see a; b\nBob,x; y\n", ","),  # semicolons inside text fields
        ("1,5;2,5\n3,1;4,2\n", ";"),
    ],
)
def test_commas_between_letters_keep_the_comma(sample: str, delimiter: str) -> None:
    assert sniff_delimiter(sample) == delimiter
