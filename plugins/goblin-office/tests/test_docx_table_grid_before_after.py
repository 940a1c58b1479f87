"""A Word table row that starts or ends short of the table's grid (``w:gridBefore``,
``w:gridAfter``) keeps its cells in their columns."""

from __future__ import annotations

from packages import docx, para


def _row(cells: list[str], props: str = "") -> str:
    row_props = f"<w:trPr>{props}</w:trPr>" if props else ""
    return f"<w:tr>{row_props}" + "".join(f"<w:tc>{para(c)}</w:tc>" for c in cells) + "</w:tr>"


def test_cells_land_in_their_grid_columns(read) -> None:  # type: ignore[no-untyped-def]
    body = (
        "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>"
        + _row(["Item", "Qtd", "Preço", "Nota"])
        + _row(["10", "9,99"], '<w:gridBefore w:val="1"/><w:gridAfter w:val="1"/>')
        + _row(["Caneta", "3"], '<w:gridAfter w:val="2"/>')
        + _row(["fim"], '<w:gridBefore w:val="3"/>')
        + "</w:tbl>"
    )
    document = read(docx(body), "grade.docx")
    assert document.tables[0].rows == (
        ("Item", "Qtd", "Preço", "Nota"),
        ("", "10", "9,99", ""),
        ("Caneta", "3", "", ""),
        ("", "", "", "fim"),
    )
    assert "\t10\t9,99" in document.text
    assert "\t\t\tfim" in document.text


def test_an_unbelievable_grid_offset_is_ignored(read) -> None:  # type: ignore[no-untyped-def]
    too_far = '<w:gridBefore w:val="99999999"/>'
    body = "<w:tbl>" + _row(["a", "b"]) + _row(["c"], too_far) + "</w:tbl>"
    assert read(docx(body), "grade.docx").tables[0].rows == (("a", "b"), ("c", ""))
