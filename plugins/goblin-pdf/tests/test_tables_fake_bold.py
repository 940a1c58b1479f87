"""Pages drawn in fake bold (every glyph twice) have their doubled glyphs dropped in
time linear in the glyphs, so a dense page's tables are found within the page timeout."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib import colors
from reportlab.lib.pagesizes import A3
from reportlab.pdfgen import canvas
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine
from goblin_pdf.tables.detect import without_doubled_chars

ROWS = [("Item", "Descrição", "Quant", "Valor"), ("1", "Cimento", "10", "38,90"),
        ("2", "Areia", "3", "110,00")]
LINE = "relatório de medições da obra municipal " * 4


def _fake_bold_pdf(path: Path, glyphs: int) -> None:
    """A ruled table, then lines of small text each drawn twice a quarter point apart."""
    page = canvas.Canvas(str(path), pagesize=A3)
    width, height = A3
    table = RLTable([list(r) for r in ROWS],
                    style=TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    table.wrapOn(page, width, height)
    table.drawOn(page, 40, height - 120)
    page.setFont("Helvetica", 5)
    drawn, y = 0, height - 140
    while drawn < glyphs and y > 20:
        for shift in (0, 0.25):
            page.drawString(40 + shift, y, LINE)
        drawn, y = drawn + 2 * len(LINE), y - 6
    page.showPage()
    page.save()


def test_the_doubled_glyphs_dropped_are_pdfplumbers(tmp_path: Path) -> None:
    import pdfplumber

    pdf = tmp_path / "negrito.pdf"
    _fake_bold_pdf(pdf, 2_000)
    with pdfplumber.open(pdf) as document:
        page = document.pages[0]
        kept = without_doubled_chars(page)
        expected = page.dedupe_chars()
        assert [(c["text"], c["x0"], c["top"]) for c in kept.chars] == [
            (c["text"], c["x0"], c["top"]) for c in expected.chars]
        assert len(kept.chars) * 2 < len(page.chars) + 100
        assert len(kept.rects) == len(page.rects)


def test_a_dense_fake_bold_pages_table_is_found(tmp_path: Path) -> None:
    pdf = tmp_path / "negrito.pdf"
    _fake_bold_pdf(pdf, 32_000)
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    assert [[tuple(r) for r in t.rows] for t in found[1]] == [ROWS]
