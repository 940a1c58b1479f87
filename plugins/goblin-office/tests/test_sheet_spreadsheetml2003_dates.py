"""Excel 2003 XML date cells are written as every other workbook reader writes them.

Cells are written one way for every engine; the Excel 2003 XML reader wrote a date with
its time as ``2024-03-15T10:30:00``, where the readers of xlsx, xlsb, xls and ods cells
write ``2024-03-15 10:30:00``, so the same workbook saved two ways read two ways.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable

import openpyxl

from goblin_core import Document

Read = Callable[..., Document]

_MOMENTS = [dt.datetime(2024, 3, 15, 10, 30), dt.datetime(2024, 3, 15),
            dt.datetime(2024, 3, 15, 10, 30, 0, 500_000), dt.time(12, 0)]


def _spreadsheetml(values: list[str]) -> bytes:
    cells = "".join(f'<Cell><Data ss:Type="DateTime">{value}</Data></Cell>' for value in values)
    return f"""<?xml version="1.0"?>
<?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"
 xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
 <Worksheet ss:Name="Agenda"><Table><Row>{cells}</Row></Table></Worksheet>
</Workbook>""".encode()


def _xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Agenda"
    sheet.append(_MOMENTS)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_dates_read_as_the_same_workbook_saved_as_xlsx(read: Read) -> None:
    # as Excel 2003 writes them: a time of day on its day 0, 31 December 1899
    written = ["2024-03-15T10:30:00.000", "2024-03-15T00:00:00.000",
               "2024-03-15T10:30:00.500", "1899-12-31T12:00:00.000"]
    xml = read(_spreadsheetml(written), "agenda.xml")
    xlsx = read(_xlsx(), "agenda.xlsx")
    assert xml.tables[0].rows == xlsx.tables[0].rows == (
        ("2024-03-15 10:30:00", "2024-03-15", "2024-03-15 10:30:00.500000", "12:00:00"),)
