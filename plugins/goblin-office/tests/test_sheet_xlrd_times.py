"""A time-of-day cell of an .xls read by xlrd (the engine after calamine) shows its time.

xlrd turns a date serial into a datetime counted from the workbook's first day, so a
time of day (a serial under 1) came out as ``1899-12-31 12:00:00``, or in a workbook of
the 1904 system as ``1904-01-01 12:00:00``, where calamine gives ``12:00:00``.
"""

from __future__ import annotations

import pytest
import xlrd
from xlrd.sheet import Cell

from goblin_office.spreadsheet import _xlrd_cell


@pytest.mark.parametrize("datemode", [0, 1])
@pytest.mark.parametrize(("serial", "shown"), [
    (0.5, "12:00:00"), (0.0, "00:00:00"), (0.75, "18:00:00"),
])
def test_a_time_of_day_shows_no_date(datemode: int, serial: float, shown: str) -> None:
    assert _xlrd_cell(Cell(xlrd.XL_CELL_DATE, serial), datemode) == shown


@pytest.mark.parametrize(("datemode", "serial", "shown"), [
    (0, 45366.25, "2024-03-15 06:00:00"),
    (0, 45366.0, "2024-03-15"),
    (1, 43904.0, "2024-03-15"),
])
def test_a_date_keeps_its_day(datemode: int, serial: float, shown: str) -> None:
    assert _xlrd_cell(Cell(xlrd.XL_CELL_DATE, serial), datemode) == shown
