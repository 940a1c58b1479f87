"""A CSV file with stray NUL characters is read, its NULs dropped.

One NUL anywhere made the whole file "binary content" and no text came out: a CSV padded
with zeros where its writer stopped (a preallocated or crashed export), or a field holding
one NUL from a database, lost every row. Spreadsheet programs open such files. Data
that is mostly NULs (UTF-16 read as bytes, a binary file) is still refused.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import goblin_core
from goblin_core import Document

Read = Callable[..., Document]

ROWS = b"nome;cidade\r\nJos\xc3\xa9;S\xc3\xa3o Paulo\r\nAna;Recife\r\n"


def _dropped(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if "NUL" in w.message]


@pytest.mark.parametrize(("data", "nuls"), [
    (ROWS + b"\x00" * 8192, 8192),  # zeros after the last line, as a preallocated file
    (ROWS.replace(b"Recife", b"Rec\x00ife"), 1),  # one inside a field
])
def test_stray_nuls_are_dropped_and_the_rows_read(read: Read, data: bytes, nuls: int) -> None:
    document = read(data, "cidades.csv")
    assert document.parsed_by == ("office.csv",)
    assert [list(row) for row in document.tables[0].rows] == [
        ["nome", "cidade"], ["José", "São Paulo"], ["Ana", "Recife"]]
    assert document.raw_metadata["nul_characters_dropped"] == nuls
    assert len(_dropped(document)) == 1


def test_a_file_of_mostly_nuls_is_still_refused(read: Read) -> None:
    # numbers stored as 32-bit integers, as a binary export writes them
    data = b"nome;idade\n" + b"".join(number.to_bytes(4, "little") for number in range(300))
    with pytest.raises(goblin_core.CorruptDocument, match="binary content"):
        read(data, "cidades.csv")


def test_a_csv_without_nuls_says_nothing_of_them(read: Read) -> None:
    document = read(ROWS, "cidades.csv")
    assert "nul_characters_dropped" not in document.raw_metadata
    assert not _dropped(document)
