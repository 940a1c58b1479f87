"""A table without grid lines in one column of a two-column page, the other column's
prose running beside it on baselines of its own.

The lines of a narrow page column hold fewer words than the prose guard counts on a
table's line; they go on each other's sentences, which a table's cells do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    PageTemplate,
    Paragraph,
    TableStyle,
)
from reportlab.platypus import Table as RLTable

import goblin_core
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine

HEADER = ("Code", "Item", "Qty", "Cost")
ITEMS = [(f"Z{n}", f"Widget {n}", str(n * 3), f"{n * 7}.50") for n in range(1, 9)]
PROSE = ("The committee met on the third day of the month to review the proposals received "
         "for the renovation of the municipal school. Each proposal was read in full, and the "
         "members discussed the schedule, the materials and the warranty offered by every "
         "bidder. ")


def _page(path: Path, column: str) -> None:
    body = getSampleStyleSheet()["BodyText"]
    doc = BaseDocTemplate(str(path), pagesize=A4)
    half = (A4[0] - 2 * doc.leftMargin - 12) / 2
    doc.addPageTemplates([PageTemplate(frames=[
        Frame(doc.leftMargin, doc.bottomMargin, half, doc.height, id="left"),
        Frame(doc.leftMargin + half + 12, doc.bottomMargin, half, doc.height, id="right")])])
    table = RLTable([HEADER, *ITEMS], colWidths=[40, 80, 40, 50])
    table.setStyle(TableStyle([("FONTSIZE", (0, 0), (-1, -1), 9),
                               ("ALIGN", (2, 0), (-1, -1), "RIGHT")]))
    prose: list[Flowable] = [Paragraph(PROSE * 3, body) for _ in range(4)]
    if column == "left":
        story = [Paragraph(PROSE * 3, body), table, *prose]
    else:
        story = [*prose[:3], FrameBreak(), Paragraph(PROSE * 3, body), table, *prose]
    doc.build(story)


@pytest.mark.parametrize("column", ["left", "right"])
def test_the_prose_beside_a_table_is_no_column_of_it(tmp_path: Path, column: str) -> None:
    pdf = tmp_path / "two-columns.pdf"
    _page(pdf, column)
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    assert [t.rows for t in found[1]] == [(HEADER, *ITEMS)]
