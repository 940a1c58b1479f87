"""Excel 2003 XML workbooks are held to what every other spreadsheet reader keeps.

The SpreadsheetML 2003 reader cut a sheet at office.max_sheet_cells without a word (no
Truncated warning, nothing in the metadata: the document read as clean), read hidden
worksheets whatever office.hidden_sheets said and never counted them hidden, showed
and booleans as 1 and 0 where every other reader shows TRUE and FALSE.
"""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document

Read = Callable[..., Document]


def _workbook(hidden_state: str = "SheetHidden") -> bytes:
    rows = "".join(f'<Row><Cell><Data ss:Type="String">Lote {row}</Data></Cell>'
                   f'<Cell><Data ss:Type="Number">{row}</Data></Cell></Row>'
                   for row in range(1, 51))
    return f"""<?xml version="1.0"?>
<?mso-application progid="Excel.Sheet"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"
 xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet"
 xmlns:x="urn:schemas-microsoft-com:office:excel">
 <Worksheet ss:Name="Lotes"><Table>{rows}</Table></Worksheet>
 <Worksheet ss:Name="Conferido"><Table>
  <Row><Cell><Data ss:Type="Boolean">1</Data></Cell><Cell><Data ss:Type="Boolean">0</Data></Cell>
   <Cell><Data ss:Type="String">revisar</Data>
    <Comment ss:Author="Ana"><ss:Data>Conferir o lote 7</ss:Data></Comment></Cell></Row>
 </Table></Worksheet>
 <Worksheet ss:Name="Custos internos"><Table>
  <Row><Cell><Data ss:Type="String">margem secreta</Data></Cell></Row></Table>
  <WorksheetOptions xmlns="urn:schemas-microsoft-com:office:excel">
   <Visible>{hidden_state}</Visible></WorksheetOptions>
 </Worksheet>
</Workbook>""".encode()


def test_a_sheet_cut_at_the_cell_limit_is_reported(read: Read) -> None:
    document = read(_workbook(), "lotes.xml", office={"max_sheet_cells": 40})
    assert document.parsed_by == ("office.spreadsheetml2003",)
    assert "Lote 20" in document.text and "Lote 21" not in document.text
    cuts = [w.message for w in document.report.warnings if w.kind == "Truncated"]
    assert len(cuts) == 1 and "sheet 'Lotes' cut at office.max_sheet_cells (40 cells)" in cuts[0]
    assert document.raw_metadata["truncated_sheets"] == ["Lotes"]
    assert not [w for w in read(_workbook(), "lotes.xml").report.warnings
                if w.kind == "Truncated"]


def test_hidden_worksheets_follow_office_hidden_sheets(read: Read) -> None:
    for state in ("SheetHidden", "SheetVeryHidden"):
        document = read(_workbook(state), "lotes.xml")
        hidden = document.pages[2]
        assert hidden.label == "Custos internos" and "margem secreta" in hidden.text
        assert hidden.hidden_chars == len(hidden.text) > 0
        assert document.pages[0].hidden_chars == 0
        assert document.raw_metadata["hidden_sheets"] == ["Custos internos"]
        left = read(_workbook(state), "lotes.xml", office={"hidden_sheets": False})
        assert [page.label for page in left.pages] == ["Lotes", "Conferido"]
        assert "margem secreta" not in left.text


def test_booleans_read_as_the_other_readers_give_them(read: Read) -> None:
    document = read(_workbook(), "lotes.xml")
    assert document.tables[1].rows[0] == ("TRUE", "FALSE", "revisar")
    assert "Comment: Conferir o lote 7" in document.pages[1].text


def test_a_sheet_of_values_far_apart_is_read_as_a_list_of_its_cells(read: Read) -> None:
    # a cell at the last row and column: the grid around it was spelled out, a million
    # empty lines and sixteen thousand tabs
    data = b"""<?xml version="1.0"?>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"
 xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
 <Worksheet ss:Name="Esparsa"><Table>
  <Row><Cell><Data ss:Type="String">Capa</Data></Cell></Row>
  <Row ss:Index="1048576"><Cell ss:Index="16384"><Data ss:Type="String">Canto</Data></Cell>
  </Row></Table></Worksheet>
</Workbook>"""
    document = read(data, "esparsa.xml")
    assert document.tables[0].rows == (("A1", "Capa"), ("XFD1048576", "Canto"))
    assert len(document.text) < 100
    assert not document.report.warnings
