"""Characters an xlsx writes as ``_xHHHH_`` read as the characters in every engine.

Excel saves a carriage return in a cell (text pasted from Windows, an export's line
breaks) as ``_x000D_`` and a tab as ``_x0009_``. calamine reads them as the characters;
the openpyxl reader, which takes sparse sheets and those whose shared strings would
spell out too much text, left the escapes in the text: ``linha 1_x000D_``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from packages import zip_bytes

from goblin_core import Document

Read = Callable[..., Document]

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def _workbook(far_corner: bool) -> bytes:
    far = ('<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>canto</t></is></c></row>'
           if far_corner else "")
    sheet = (f'<worksheet xmlns="{_MAIN}"><sheetData><row r="1">'
             '<c r="A1" t="s"><v>0</v></c>'
             '<c r="B1" t="inlineStr"><is><t>coluna_x0009_valor</t></is></c>'
             '<c r="C1" t="str"><f>A1</f><v>Rua A, 12_x000D_\nCentro</v></c>'
             f"</row>{far}</sheetData></worksheet>")
    return zip_bytes({
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{_TYPE}.sheet.main+xml"/>'
            f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{_TYPE}.worksheet+xml"/>'
            f'<Override PartName="/xl/sharedStrings.xml" '
            f'ContentType="{_TYPE}.sharedStrings+xml"/></Types>'),
        "_rels/.rels": (
            f'<Relationships xmlns="{_PACKAGE_REL}"><Relationship Id="rId1" '
            f'Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (
            f'<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><sheets>'
            '<sheet name="Cadastro" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{_PACKAGE_REL}">'
            f'<Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>'
            f'<Relationship Id="rId2" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/>'
            '</Relationships>'),
        "xl/worksheets/sheet1.xml": sheet,
        "xl/sharedStrings.xml": (f'<sst xmlns="{_MAIN}"><si><t>linha 1_x000D_\nlinha 2</t></si>'
                                 "</sst>"),
    })


@pytest.mark.parametrize("far_corner", [False, True])
def test_escaped_characters_read_as_the_characters(read: Read, far_corner: bool) -> None:
    document = read(_workbook(far_corner), "cadastro.xlsx")
    # a cell at XFD1048576 makes the sheet sparse: the streaming openpyxl reader takes it
    engine = "office.openpyxl" if far_corner else "office.calamine"
    assert document.parsed_by == (engine,)
    assert "_x00" not in document.text
    cells = [cell for row in document.tables[0].rows for cell in row]
    assert "linha 1\r\nlinha 2" in cells
    assert "coluna\tvalor" in cells
    assert "Rua A, 12\r\nCentro" in cells
