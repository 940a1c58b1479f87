"""Characters an xlsx writes as ``_xHHHH_`` read as the characters in every engine.

Excel saves a carriage return in a cell (text pasted from Windows, an export's line
breaks) as ``_x000D_`` and a tab as ``_x0009_``. calamine reads them as the characters;
the openpyxl reader, which takes sparse sheets and those whose shared strings would
spell out too much text, left the escapes in the text: ``linha 1_x000D_``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from packages import xlsx_parts, zip_bytes

from goblin_core import Document

Read = Callable[..., Document]


def _workbook(far_corner: bool) -> bytes:
    far = ('<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>canto</t></is></c></row>'
           if far_corner else "")
    rows = ('<row r="1"><c r="A1" t="s"><v>0</v></c>'
            '<c r="B1" t="inlineStr"><is><t>coluna_x0009_valor</t></is></c>'
            '<c r="C1" t="str"><f>A1</f><v>Rua A, 12_x000D_\nCentro</v></c>'
            f"</row>{far}")
    return zip_bytes(xlsx_parts({"Cadastro": rows}, "<si><t>linha 1_x000D_\nlinha 2</t></si>"))


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
