"""Tables without grid lines whose cells wrap over several lines.

Column titles wrapped in their cells make one title row, though each of their lines
has a word in the first column. Every description wrapped, the short cells beside
it centred on its lines, leaves most of the grid of lines blank: its records still
make a table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, TableStyle
from reportlab.platypus import Table as RLTable

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine

ITEMS = [(f"P-{n}", f"Product {n}", str(n * 4), f"{n * 3}.99", f"{n * 12}.00")
         for n in range(1, 10)]


def _rows(path: Path) -> list[tuple[tuple[str, ...], ...]]:
    config = goblin_core.default_registry().config()
    found = PdfPlumberTableEngine().tables(Source.from_path(path), [1], config)
    return [t.rows for t in found[1]]


def _build(path: Path, table: RLTable) -> None:
    sheet = getSampleStyleSheet()
    SimpleDocTemplate(str(path), pagesize=A4).build([Paragraph("Sales", sheet["Title"]), table])


def test_column_titles_wrapped_in_their_cells_make_one_row(tmp_path: Path) -> None:
    pdf = tmp_path / "sales.pdf"
    table = RLTable([["Part\nno.", "Product\nname", "Units\nsold", "Unit\nprice", "Line\ntotal"],
                     *ITEMS])
    table.setStyle(TableStyle([("ALIGN", (2, 0), (-1, -1), "RIGHT")]))
    _build(pdf, table)

    assert _rows(pdf) == [(("Part no.", "Product name", "Units sold", "Unit price", "Line total"),
                           *ITEMS)]


def test_every_description_wrapped_beside_centred_cells_is_a_table(tmp_path: Path) -> None:
    pdf = tmp_path / "sales.pdf"
    body = getSampleStyleSheet()["BodyText"]
    items = [(f"K{n}", f"A fairly long description of the product number {n} that wraps",
              str(n), f"{n}.00") for n in range(1, 7)]
    table = RLTable([["Code", "Description", "Qty", "Total"],
                     *([code, Paragraph(text, body), qty, total]
                       for code, text, qty, total in items)], colWidths=[50, 150, 40, 60])
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                               ("ALIGN", (2, 0), (-1, -1), "RIGHT")]))
    _build(pdf, table)

    assert _rows(pdf) == [(("Code", "Description", "Qty", "Total"), *items)]
