"""An Excel 2003 XML cell after a merge wider than 64 columns keeps its column.

A cell that names no ``ss:Index`` sits right after the cell before it and the columns
that cell's ``ss:MergeAcross`` covers. The reader spelled out at most 64 merged columns,
so a value after a title merged across 100 columns landed 36 columns to the left of
the value below it; a merge is now counted to the sheet's last column, and spelled out
only before a value after it.
"""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document

Read = Callable[..., Document]


def _workbook(rows: str) -> bytes:
    return f"""<?xml version="1.0"?>
<?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"
 xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
 <Worksheet ss:Name="Painel"><Table>{rows}</Table></Worksheet>
</Workbook>""".encode()


def test_a_value_after_a_wide_merge_keeps_its_column(read: Read) -> None:
    rows = ('<Row><Cell ss:MergeAcross="99"><Data ss:Type="String">Resumo anual</Data></Cell>'
            '<Cell><Data ss:Type="String">Total</Data></Cell></Row>'
            '<Row><Cell ss:Index="101"><Data ss:Type="Number">1234</Data></Cell></Row>')
    document = read(_workbook(rows), "painel.xml")
    title, values = document.tables[0].rows
    assert title[0] == "Resumo anual" and title.index("Total") == 100
    assert values.index("1234") == 100


def test_merges_past_the_last_column_stay_within_the_sheet(read: Read) -> None:
    cells = '<Cell ss:MergeAcross="99999"><Data ss:Type="String">x</Data></Cell>' * 2000
    document = read(_workbook(f"<Row>{cells}</Row>"), "painel.xml")
    (row,) = document.tables[0].rows
    assert row.count("x") == 2000
    # the first merge reaches the sheet's last column; the cells after it follow on
    assert len(row) == 16_384 + 1999
