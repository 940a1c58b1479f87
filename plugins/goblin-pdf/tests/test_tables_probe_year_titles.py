"""A statement of figures by year, drawn without grid lines: its column titles are
years, which alone would open a row of data (an agenda, a résumé), but in order
over columns of figures they are the titles of a table."""

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

ROWS = [("", "2021", "2022", "2023"),
        ("Revenue", "1,204.5", "1,388.0", "1,512.9"),
        ("Cost of sales", "702.1", "790.4", "845.0"),
        ("Gross profit", "502.4", "597.6", "667.9"),
        ("Operating expenses", "310.0", "322.8", "351.2"),
        ("Net income", "192.4", "274.8", "316.7")]
RULES = [("LINEABOVE", (0, 0), (-1, 0), 1, colors.black),
         ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
         ("LINEBELOW", (0, -1), (-1, -1), 1, colors.black)]


@pytest.mark.parametrize("rules", [False, True], ids=["aligned", "rules"])
def test_a_statement_by_year_is_a_table_with_its_years_for_titles(tmp_path: Path,
                                                                  rules: bool) -> None:
    sheet = getSampleStyleSheet()
    table = RLTable([list(row) for row in ROWS], colWidths=[140, 70, 70, 70])
    table.setStyle(TableStyle([("ALIGN", (1, 0), (-1, -1), "RIGHT"), *(RULES if rules else [])]))
    pdf = tmp_path / "statement.pdf"
    SimpleDocTemplate(str(pdf), pagesize=A4).build([
        Paragraph("Income statement", sheet["Title"]),
        Paragraph("All figures in millions.", sheet["BodyText"]), table])
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    assert [(t.rows, t.header_rows) for t in found[1]] == [(tuple(ROWS), 1)]
