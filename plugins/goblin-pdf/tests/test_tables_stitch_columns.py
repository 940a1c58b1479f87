"""A ruled table over a page break whose rows on one page leave a column empty: the
column is dropped from that page's part, and the parts are still joined cell under cell."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.platypus import SimpleDocTemplate, TableStyle
from reportlab.platypus import Table as RLTable

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine
from goblin_pdf.tables.found import FoundTable
from goblin_pdf.tables.stitch import stitch

HEADER = ("Código", "Produto", "Bônus", "Preço")


def _rows(bonus_from: int, bonus_to: int) -> list[tuple[str, ...]]:
    return [HEADER] + [(f"{i:04d}", f"Produto {i}",
                        f"{i},00" if bonus_from <= i <= bonus_to else "", f"{i * 3},50")
                       for i in range(1, 61)]


def _engine_rows(tmp_path: Path, rows: list[tuple[str, ...]]) -> list[list[tuple[str, ...]]]:
    pdf = tmp_path / "precos.pdf"
    table = RLTable([list(r) for r in rows], colWidths=[60, 150, 60, 80], repeatRows=0)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    SimpleDocTemplate(str(pdf), pagesize=A4).build([table])
    config = goblin_core.default_registry().config()
    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1, 2, 3, 4], config)
    assert [len(found[p]) for p in (1, 2)] == [1, 0], "the second page's part is joined"
    return [[tuple(r) for r in t.rows] for t in found[1]]


@pytest.mark.parametrize(("bonus_from", "bonus_to"), [(1, 30), (50, 60)],
                         ids=["empty-on-the-second-page", "empty-on-the-first-page"])
def test_a_column_empty_on_one_page_keeps_its_place(tmp_path: Path, bonus_from: int,
                                                    bonus_to: int) -> None:
    rows = _rows(bonus_from, bonus_to)
    assert _engine_rows(tmp_path, rows) == [rows]


def test_a_table_that_does_not_continue_keeps_its_own_columns() -> None:
    page_size = (595.0, 842.0)
    first = FoundTable(page=1, rows=(("A", "B", "C"), ("1", "x", "2")), page_size=page_size,
                       bbox=(50.0, 100.0, 545.0, 800.0), column_lefts=(50.0, 200.0, 400.0))
    # starts low on its page, so it is a table of its own
    second = FoundTable(page=2, rows=(("Nome", "Idade"), ("Ana", "30")), page_size=page_size,
                        bbox=(50.0, 500.0, 545.0, 700.0), column_lefts=(50.0, 400.0))

    joined = stitch({1: [first], 2: [second]})

    assert joined[2] == [second]
    assert joined[1] == [first]
