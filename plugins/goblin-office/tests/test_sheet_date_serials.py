"""Date cells whose serial no calendar day stands for read as Excel shows them.

calamine turns every serial under 1 into a time of day, so a negative serial under a
date format (a date difference gone below zero, which Excel shows as ``#####``) read as
a wrong time: -0.25 as ``18:00:00``, -1 and -400 as ``00:00:00``. Serial 60, the 29
February 1900 Excel keeps from Lotus 1-2-3, read as the 28th, as serial 59 does. Shown
with its date (``office.cell_dates = "display"``), a time of day read as 30 December
1899, where Excel shows 0 January 1900, or 1 January 1904 in the 1904 date system.
An .xls or .xlsb read by calamine misread the same serials, an .xls read by xlrd counted
a negative serial back from 1899 and read serial 60 as the 28th too, and so did openpyxl
for an xlsx calamine refuses. goblin's own .xlsb record reader read no styles at all: a
date read as its serial number (``45366``, not ``2024-03-15``).
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
import xlrd
from openpyxl.utils.datetime import CALENDAR_MAC_1904
from packages import _record, libreoffice_saved, rewrite, xlsb
from xlrd.sheet import Cell

from goblin_core import Document
from goblin_core.testing.corpus import require_binary
from goblin_office.spreadsheet import _xlrd_cell

Read = Callable[..., Document]

_FORMATS = ("yyyy-mm-dd", "dd/mm/yyyy hh:mm", "h:mm")


def _workbook(serials: list[float], *, date1904: bool = False) -> bytes:
    """A sheet of one row per serial: the serial as stored, then under each of _FORMATS."""
    book = openpyxl.Workbook()
    if date1904:
        book.epoch = CALENDAR_MAC_1904
    sheet = book.active
    assert sheet is not None
    sheet.title = "Prazos"
    for row, serial in enumerate(serials, start=1):
        sheet.cell(row, 1, serial)
        for column, code in enumerate(_FORMATS, start=2):
            sheet.cell(row, column, serial).number_format = code
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _rows(document: Document) -> list[list[str]]:
    assert [page.status for page in document.pages] == ["clean"]
    assert document.parsed_by == ("office.calamine",)
    return [line.split("\t") for line in document.pages[0].text.splitlines()[1:]]


@pytest.mark.parametrize("dates", ["iso", "display"])
@pytest.mark.parametrize("values", ["display", "raw"])
def test_a_negative_serial_under_a_date_format_reads_as_its_number(
    read: Read, dates: str, values: str
) -> None:
    serials = [-0.25, -1.0, -400.5]
    document = read(_workbook(serials), "prazos.xlsx",
                    office={"cell_dates": dates, "cell_values": values})
    for row, serial in zip(_rows(document), serials, strict=True):
        shown = f"{serial:g}"
        assert row == [shown] * 4, row


def test_serial_60_is_the_29th_of_february_1900(read: Read) -> None:
    document = read(_workbook([59, 60, 60.5, 61]), "prazos.xlsx")
    assert [row[1:3] for row in _rows(document)] == [
        ["1900-02-28", "1900-02-28"],
        ["1900-02-29", "1900-02-29"],
        ["1900-02-29 12:00:00", "1900-02-29 12:00:00"],
        ["1900-03-01", "1900-03-01"],
    ]


def test_serial_60_shown_under_its_format(read: Read) -> None:
    document = read(_workbook([59, 60.75, 61]), "prazos.xlsx",
                    office={"cell_dates": "display"})
    assert [row[1:] for row in _rows(document)] == [
        ["1900-02-28", "28/02/1900 00:00", "0:00"],
        ["1900-02-29", "29/02/1900 18:00", "18:00"],
        ["1900-03-01", "01/03/1900 00:00", "0:00"],
    ]


@pytest.mark.parametrize(("date1904", "day"), [(False, "00/01/1900"), (True, "01/01/1904")])
def test_a_time_of_day_shown_with_its_date_counts_from_the_workbooks_first_day(
    read: Read, date1904: bool, day: str
) -> None:
    document = read(_workbook([0.5, 0.75], date1904=date1904), "prazos.xlsx",
                    office={"cell_dates": "display"})
    assert [row[2:] for row in _rows(document)] == [
        [f"{day} 12:00", "12:00"], [f"{day} 18:00", "18:00"]]


def test_a_time_of_day_keeps_its_iso_reading(read: Read) -> None:
    document = read(_workbook([0.5, 0.999]), "prazos.xlsx")
    assert [row[1:] for row in _rows(document)] == [
        ["12:00:00"] * 3, ["23:58:33.600000"] * 3]


def test_a_formula_gone_negative_reads_as_its_cached_number(read: Read) -> None:
    data = _workbook([-0.25, 0.25])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        part = archive.read("xl/worksheets/sheet1.xml")
    # the result cached beside a formula, as Excel saves it
    with_formulas = part.replace(b"<v>-0.25</v>", b"<f>A2-1.5+1</f><v>-0.25</v>")
    assert with_formulas != part
    document = read(rewrite(data, {"xl/worksheets/sheet1.xml": with_formulas}), "prazos.xlsx")
    assert _rows(document) == [["-0.25"] * 4, ["0.25", "06:00:00", "06:00:00", "06:00:00"]]


def test_an_xls_reads_its_serials_as_excel_shows_them(read: Read, tmp_path: Path) -> None:
    soffice = require_binary("soffice", "libreoffice-calc-nogui")
    source = tmp_path / "prazos.xlsx"
    source.write_bytes(_workbook([-0.25, -400.5, 59, 60, 60.5, 0.25]))
    document = read(libreoffice_saved(soffice, source, "xls"), "prazos.xls")
    assert [row[:3] for row in _rows(document)] == [
        ["-0.25", "-0.25", "-0.25"],
        ["-400.5", "-400.5", "-400.5"],
        ["59", "1900-02-28", "1900-02-28"],
        ["60", "1900-02-29", "1900-02-29"],
        ["60.5", "1900-02-29 12:00:00", "1900-02-29 12:00:00"],
        ["0.25", "06:00:00", "06:00:00"],
    ]


@pytest.mark.parametrize(("datemode", "serial", "shown"), [
    (0, -0.25, "-0.25"), (1, -0.25, "-0.25"), (0, -400.5, "-400.5"),
    (0, 59.0, "1900-02-28"), (0, 60.0, "1900-02-29"), (0, 60.5, "1900-02-29 12:00:00"),
    (0, 61.0, "1900-03-01"), (1, 60.0, "1904-03-01"),
])
def test_xlrd_reads_a_serial_as_excel_shows_it(datemode: int, serial: float, shown: str) -> None:
    assert _xlrd_cell(Cell(xlrd.XL_CELL_DATE, serial), datemode) == shown


def _xlsb(serial: float, number_format: int = 14) -> bytes:
    """A one-sheet .xlsb: ``texto`` in A1, ``serial`` in B1, whose style (the only one)
    shows a built-in number format: 14 (m/d/yyyy) unless told."""
    data = xlsb("Prazos", "texto", serial)
    xf = struct.pack("<HHHHHBBHBB", 0xFFFF, number_format, 0, 0, 0, 0, 0, 0, 0, 0)  # BrtXF
    styles = (_record(0x0116) + _record(0x0269, struct.pack("<I", 1)) + _record(0x002F, xf)
              + _record(0x026A) + _record(0x0117))  # the style sheet, its cell formats
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(buffer, "w") as copy:
        for info in source.infolist():
            copy.writestr(info, source.read(info))
        copy.writestr("xl/styles.bin", styles)
    return buffer.getvalue()


@pytest.mark.parametrize(("serial", "shown"), [
    (-0.25, "-0.25"), (-400.5, "-400.5"), (59, "1900-02-28"), (60, "1900-02-29"),
    (60.75, "1900-02-29 18:00:00"), (45366, "2024-03-15"), (0.25, "06:00:00"),
])
def test_an_xlsb_reads_its_serials_as_excel_shows_them(
    read: Read, serial: float, shown: str
) -> None:
    document = read(_xlsb(serial), "prazos.xlsb")
    assert _rows(document) == [["texto", shown]]


@pytest.mark.parametrize("date1904", [False, True])
def test_openpyxl_reads_a_negative_serial_as_its_number(read: Read, date1904: bool) -> None:
    document = read(_workbook([-0.25, -400.5, 2.5], date1904=date1904), "prazos.xlsx",
                    engines={"office.openpyxl": {"priority": 1000}})
    assert document.parsed_by == ("office.openpyxl",)
    day = "1904-01-03" if date1904 else "1900-01-02"
    assert [line.split("\t")[:3] for line in document.pages[0].text.splitlines()[1:]] == [
        ["-0.25"] * 3, ["-400.5"] * 3, ["2.5", day + " 12:00:00", day + " 12:00:00"]]


@pytest.mark.parametrize(("serial", "number_format", "shown"), [
    (45366.25, 14, "2024-03-15 06:00:00"), (45366, 14, "2024-03-15"), (0.25, 20, "06:00:00"),
    (1.75, 46, "42:00:00"), (-0.25, 14, "-0.25"), (60, 14, "1900-02-29"), (59, 14, "1900-02-28"),
    (45366.25, 2, "45366.25"),
])
def test_the_xlsb_record_reader_reads_dates_as_calamine_does(
    read: Read, serial: float, number_format: int, shown: str
) -> None:
    data = _xlsb(serial, number_format)
    calamine = read(data, "prazos.xlsb")
    records = read(data, "prazos.xlsb", engines={"office.xlsb_records": {"priority": 1000}})
    assert records.parsed_by == ("office.xlsb_records",)
    assert _rows(calamine) == [["texto", shown]]
    assert records.pages[0].text.splitlines()[1:] == [f"texto\t{shown}"]
