"""Document dates as producers write them, right or wrong: a date that names no moment
costs the document nothing, and one written another way is read as it was meant."""

from __future__ import annotations

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved

import goblin_core


def _dated(creation: str, modification: str = "") -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (The body of a dated report.) Tj ET")
    pdf.docinfo[pikepdf.Name.CreationDate] = creation
    if modification:
        pdf.docinfo[pikepdf.Name.ModDate] = modification
    return saved(pdf)


@pytest.mark.parametrize("written", ["D:20200101120000+25'00'", "D:20200101120000-07'75'",
                                     "D:20201341120000Z"])
def test_a_date_naming_no_moment_is_kept_as_written_and_the_text_read(written: str) -> None:
    document = goblin_core.extract(_dated(written), name="dated.pdf", ocr="never")
    assert "The body of a dated report." in document.text
    assert document.metadata["created"] == written


@pytest.mark.parametrize(("written", "read"), [
    ("D:2021-05-17", "2021-05-17T00:00:00"),
    ("2021-05-17T10:20:30Z", "2021-05-17T10:20:30+00:00"),
    ("D:20060524132802-07'00'", "2006-05-24T13:28:02-07:00"),
    ("D:990101", "D:990101"),  # a two-digit year: no year 9901
])
def test_a_date_is_read_as_its_producer_meant_it(written: str, read: str) -> None:
    document = goblin_core.extract(_dated("D:20200101", written), name="dated.pdf",
                                   ocr="never")
    assert document.metadata["modified"] == read
