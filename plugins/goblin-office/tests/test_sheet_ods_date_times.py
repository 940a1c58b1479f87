"""An ODS date cell with a time of day is written as every other workbook reader writes
one (``2024-03-15 10:30:00``), not with ODF's ``T`` between day and time."""

from __future__ import annotations

from collections.abc import Callable

import samples
from goblin_core import Document

Read = Callable[..., Document]

_DATES = (
    '<table:table table:name="Datas"><table:table-row>'
    '<table:table-cell office:value-type="date" office:date-value="2024-03-15T10:30:00">'
    "<text:p>15/03/2024 10:30</text:p></table:table-cell>"
    '<table:table-cell office:value-type="date" office:date-value="2024-03-16T00:00:00">'
    "<text:p>16/03/2024</text:p></table:table-cell>"
    '<table:table-cell office:value-type="date" office:date-value="2024-03-17">'
    "<text:p>17/03/2024</text:p></table:table-cell>"
    "</table:table-row></table:table>"
)


def test_a_date_with_its_time_is_written_as_the_other_readers_write_it(read: Read) -> None:
    document = read(samples.flat_odf("spreadsheet", _DATES), "datas.fods")
    assert document.tables[0].rows[0] == ("2024-03-15 10:30:00", "2024-03-16", "2024-03-17")
