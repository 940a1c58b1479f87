"""Joining tables over page breaks, and keeping one copy of a table seen twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.stitch import continues, stitch

HEADER = ("ITEM", "DESCRIÇÃO", "QUANT")
A4 = (595.0, 842.0)
FULL = (50.0, 100.0, 545.0, 800.0)
TOP = (50.0, 40.0, 545.0, 400.0)


def _table(page: int, rows: list[tuple[str, ...]], bbox: tuple[float, float, float, float] = FULL
           ) -> FoundTable:
    return FoundTable(page=page, rows=tuple(rows), bbox=bbox, page_size=A4)


def test_repeated_header_is_dropped_and_a_wrapped_line_joins_its_item() -> None:
    first = _table(1, [HEADER, ("1", "Areia", "10"), ("2", "Cimento Portland", "5")])
    second = _table(2, [HEADER, ("", "CP II-E-32", ""), ("3", "Tijolo", "8")], TOP)

    joined = stitch({1: [first], 2: [second]})

    assert joined[2] == []
    assert joined[1][0].rows == (HEADER, ("1", "Areia", "10"),
                                 ("2", "Cimento Portland CP II-E-32", "5"), ("3", "Tijolo", "8"))
    assert joined[1][0].ends_on == 2


def test_a_header_repeated_below_a_title_row_is_recognised() -> None:
    title = ("PLANILHA ORÇAMENTÁRIA - REFORMA DA ESCOLA", "", "")
    first = _table(1, [title, HEADER, ("1", "Areia", "10")])
    only_header = _table(2, [HEADER, ("2", "Cimento", "5")], TOP)
    title_and_header = _table(2, [title, HEADER, ("2", "Cimento", "5")], TOP)

    for second in (only_header, title_and_header):
        joined = stitch({1: [first], 2: [second]})
        assert joined[1][0].rows == (title, HEADER, ("1", "Areia", "10"), ("2", "Cimento", "5"))
        assert joined[2] == []


def test_a_table_runs_over_three_pages() -> None:
    pages = {1: [_table(1, [HEADER, ("1", "a", "1")])],
             2: [_table(2, [("2", "b", "2")], (50.0, 40.0, 545.0, 800.0))],
             3: [_table(3, [("3", "c", "3")], TOP)]}

    joined = stitch(pages)

    assert [len(joined[p]) for p in (1, 2, 3)] == [1, 0, 0]
    assert [r[0] for r in joined[1][0].rows] == ["ITEM", "1", "2", "3"]


@pytest.mark.parametrize("second", [
    _table(2, [("Nome", "Cidade", "Idade"), ("Ana", "Recife", "30")], TOP),   # another header
    _table(2, [("2", "b"), ("3", "c")], TOP),                                   # other columns
    _table(2, [("2", "b", "2")], (150.0, 40.0, 545.0, 400.0)),                  # not aligned
    _table(2, [("2", "b", "2")], (50.0, 500.0, 545.0, 800.0)),                  # starts low
    _table(3, [("2", "b", "2")], TOP),                                          # skips a page
])
def test_tables_that_do_not_continue_stay_apart(second: FoundTable) -> None:
    first = _table(1, [HEADER, ("1", "a", "1")])

    assert not continues(first, second)
    assert sum(len(v) for v in stitch({1: [first], second.page: [second]}).values()) == 2


def test_a_table_ending_high_on_its_page_does_not_continue() -> None:
    first = _table(1, [HEADER, ("1", "a", "1")], (50.0, 100.0, 545.0, 300.0))

    assert not continues(first, _table(2, [("2", "b", "2")], TOP))


def test_only_the_last_table_of_a_page_continues() -> None:
    summary = _table(1, [("Total", "Valor"), ("Geral", "10,00")], (50.0, 700.0, 300.0, 790.0))
    items = _table(1, [HEADER, ("1", "a", "1")], (50.0, 100.0, 545.0, 600.0))
    after = _table(2, [("2", "b", "2")], TOP)

    joined = stitch({1: [items, summary], 2: [after]})

    assert [len(joined[p]) for p in (1, 2)] == [2, 1]


def test_two_strategies_finding_the_same_grid_give_one_table(tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    import pdfplumber
    from reportlab.lib import colors
    from reportlab.platypus import SimpleDocTemplate, TableStyle
    from reportlab.platypus import Table as RLTable

    from goblin_pdf.tables.detect import page_tables

    pdf = tmp_path / "grid.pdf"
    grid = RLTable([list(HEADER), ["1", "Areia", "10"], ["2", "Cimento", "5"]])
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    SimpleDocTemplate(str(pdf)).build([grid])
    strategies = ({"vertical_strategy": "lines", "horizontal_strategy": "lines"}, {},
                  {"vertical_strategy": "lines", "horizontal_strategy": "lines",
                   "snap_tolerance": 5})

    with pdfplumber.open(pdf) as document:
        found = page_tables(document.pages[0], 1, strategies)

    assert [t.rows for t in found] == [(HEADER, ("1", "Areia", "10"), ("2", "Cimento", "5"))]
