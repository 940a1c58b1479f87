"""A web page's table keeps each cell in its column when a cell above spans rows
(``rowspan``): the cells of the rows below it move right of it, as a browser draws them,
instead of sliding left under it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]


def test_cells_under_a_row_spanning_cell_keep_their_columns(read: Read) -> None:
    page = ("<html><body><table><tr><th>Ano</th><th>Mês</th><th>Valor</th></tr>"
            '<tr><td rowspan="2">2024</td><td>jan</td><td>10</td></tr>'
            "<tr><td>fev</td><td>20</td></tr>"
            '<tr><td colspan="2">Total</td><td>30</td></tr>'
            '<tr><td>A</td><td rowspan="2">meio</td><td>C</td></tr>'
            "<tr><td>D</td><td>F</td></tr></table></body></html>")
    document = read(page.encode(), "tabela.html")
    assert document.tables[0].rows == (
        ("Ano", "Mês", "Valor"), ("2024", "jan", "10"), ("", "fev", "20"),
        ("Total", "", "30"), ("A", "meio", "C"), ("D", "", "F"))
    assert document.tables[0].header_rows == 1
    assert "\tfev\t20" in document.text


def test_a_huge_rowspan_costs_no_more_than_its_table(read: Read) -> None:
    page = ('<table><tr><td rowspan="999999999">a</td><td>b</td></tr>'
            + "<tr><td>c</td></tr>" * 2000 + "</table>")
    rows = read(page.encode(), "alta.html").tables[0].rows
    assert len(rows) == 2001
    assert rows[1] == ("", "c")
