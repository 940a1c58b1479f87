"""A budget table whose title ``VALOR (R$)`` stands over the titles ``UNIT.`` and
``TOTAL`` of two columns, drawn without grid lines or between horizontal rules only:
the group title ran across the gutter between the two columns, which came out as one
(``10,50 10,50`` in one cell). Each column keeps its own cells, titled with both."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, TableStyle
from reportlab.platypus import Table as RLTable

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine

TITLES = [["ITEM", "DESCRIÇÃO", "UND", "QUANT.", "VALOR (R$)", ""],
          ["", "", "", "", "UNIT.", "TOTAL"]]
ITEMS = [(str(n), f"Areia média lavada lote {n}", "m³", f"{n},00", f"{n * 10},50",
          f"{n * n * 10},50") for n in range(1, 9)]
RULES = [("LINEABOVE", (0, 0), (-1, 0), 1, colors.black),
         ("LINEBELOW", (0, 1), (-1, 1), 0.5, colors.black),
         ("LINEBELOW", (0, -1), (-1, -1), 1, colors.black)]


@pytest.mark.parametrize("rules", [False, True], ids=["aligned", "rules"])
def test_a_title_over_two_columns_heads_both(tmp_path: Path, rules: bool) -> None:
    table = RLTable([*TITLES, *(list(item) for item in ITEMS)],
                    colWidths=[35, 180, 35, 50, 60, 60])
    table.setStyle(TableStyle([("SPAN", (4, 0), (5, 0)), ("ALIGN", (4, 0), (5, 0), "CENTER"),
                               ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
                               ("FONTSIZE", (0, 0), (-1, -1), 9), *(RULES if rules else [])]))
    pdf = tmp_path / "planilha.pdf"
    SimpleDocTemplate(str(pdf), pagesize=A4).build(
        [Paragraph("PLANILHA ORÇAMENTÁRIA", getSampleStyleSheet()["Title"]), table])
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    titles = ("ITEM", "DESCRIÇÃO", "UND", "QUANT.", "VALOR (R$) UNIT.", "VALOR (R$) TOTAL")
    assert [t.rows for t in found[1]] == [(titles, *ITEMS)]
