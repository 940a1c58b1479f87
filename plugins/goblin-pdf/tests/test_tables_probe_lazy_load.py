"""Reading text alone pays nothing for tables: pdfplumber, which the table search
needs and which takes a third of a second to load, is loaded only when tables are
asked for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

_RUN = """
import sys
import goblin_core
document = goblin_core.extract(sys.argv[1], tables=sys.argv[2] == "tables")
print(document.pages[0].text.split()[0], len(document.tables), "pdfplumber" in sys.modules)
"""


def _loads(pdf: Path, tables: bool) -> str:
    run = subprocess.run([sys.executable, "-c", _RUN, str(pdf), "tables" if tables else "text"],
                         capture_output=True, text=True, timeout=120, check=True)
    return run.stdout.strip()


def test_pdfplumber_is_loaded_only_when_tables_are_asked_for(tmp_path: Path) -> None:
    pdf = tmp_path / "grid.pdf"
    canvas = Canvas(str(pdf), pagesize=A4)
    for row, cells in enumerate((("Name", "Qty"), ("Sand", "10"), ("Lime", "12"))):
        for column, text in enumerate(cells):
            x, y = 72 + 100 * column, 700 - 20 * row
            canvas.rect(x, y, 100, 20)
            canvas.drawString(x + 4, y + 6, text)
    canvas.save()

    assert _loads(pdf, tables=False) == "Name 0 False"
    assert _loads(pdf, tables=True) == "Name 1 True"
