"""A CSV with Windows line ends reads as many rows as it has, wherever its lines fall.

The reader hands the csv module the text a slice of about a mebibyte at a time, each
slice ending after a line end. A slice that ended between the CR and the LF of one line
end left the LF to open the next, and the csv module read it as a line of its own: a
blank row in the middle of the table.
"""

from __future__ import annotations

from goblin_core import extract
from goblin_office import delimited

ROW = "abcdefgh,1\r\n"


def _crlf_csv_split_at_a_slice_end() -> tuple[str, int]:
    """A CRLF CSV whose CR is the last character of the reader's first slice, and its
    number of rows."""
    rows = delimited._CHUNK // len(ROW) + 10
    header_width = (delimited._CHUNK - 1) % len(ROW)  # header line and its CR end there
    header = "h" * (header_width - len(",v")) + ",v\r\n"
    text = header + ROW * rows
    assert text[delimited._CHUNK - 1 : delimited._CHUNK + 1] == "\r\n"
    return text, rows + 1


def test_no_blank_row_where_a_crlf_line_end_meets_the_slice_end() -> None:
    text, expected_rows = _crlf_csv_split_at_a_slice_end()
    rows = delimited.BoundedRows(",", max_cells=10_000_000, max_chars=10_000_000).read(text)
    assert len(rows) == expected_rows
    assert all(rows), "a blank row was read where the file has none"


def test_the_whole_file_reads_the_same() -> None:
    text, expected_rows = _crlf_csv_split_at_a_slice_end()
    document = extract(text.encode(), name="export.csv")
    table = document.pages[0].tables[0]
    assert len(table.rows) == expected_rows
    assert [row for row in table.rows if not any(row)] == []
