"""Ruled tables with merged cells: a key cell spanning rows leaves each row its own record."""

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

REGIONS = [
    ("Região", "Cidade", "Bioma", "Clima"),
    ("Norte", "Belém", "Amazônia", "Equatorial"),
    ("", "Manaus", "Floresta", "Úmido"),
    ("Sul", "Curitiba", "Mata", "Temperado"),
    ("", "Porto Alegre", "Pampa", "Subtropical"),
]


def test_rows_beside_a_merged_key_cell_are_not_joined(tmp_path: Path) -> None:
    pdf = tmp_path / "regioes.pdf"
    table = RLTable([list(r) for r in REGIONS])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                               ("SPAN", (0, 1), (0, 2)), ("SPAN", (0, 3), (0, 4))]))
    SimpleDocTemplate(str(pdf), pagesize=A4).build([table])
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    assert [[tuple(r) for r in t.rows] for t in found[1]] == [REGIONS]
