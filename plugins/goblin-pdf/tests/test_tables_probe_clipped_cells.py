"""A ruled grid whose text runs past its cell's right border, clipped there as
spreadsheets print it: the glyphs past the border are drawn, hidden, in the next
cell. They stay with the word they end, in its own cell, never glued onto the next
cell's text (``Descriptio`` | ``nUnit``)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine

ROWS = (("Item", "Description", "Unit", "Qty"),
        ("1", "Sand", "m3", "12"),
        ("2", "Washed gravel", "t", "40"),
        ("3", "Lime", "bag", "7"))
WIDTH, HEIGHT = 60.0, 16.0


def test_text_clipped_at_a_cell_border_stays_in_its_cell(tmp_path: Path) -> None:
    pdf = tmp_path / "sheet.pdf"
    canvas = Canvas(str(pdf), pagesize=A4)
    canvas.setFont("Helvetica", 11)
    for row, cells in enumerate(ROWS):
        y = 700 - row * HEIGHT
        for column, text in enumerate(cells):
            x = 60 + column * WIDTH
            canvas.rect(x, y, WIDTH, HEIGHT)
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(x, y, WIDTH, HEIGHT)
            canvas.clipPath(clip, stroke=0, fill=0)
            canvas.drawString(x + 2, y + 4, text)
            canvas.restoreState()
    canvas.save()
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    assert [t.rows for t in found[1]] == [ROWS]
