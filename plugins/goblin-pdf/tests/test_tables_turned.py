"""Tables shown sideways (a landscape table on a page turned by /Rotate, or drawn turned
in the content stream) are searched turned back: their rows read across, as they do
once the reader turns the page."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.pdfgen.canvas import Canvas

import goblin_core
from goblin_core.source import Source
from goblin_core.testing.corpus import corpus_dir
from goblin_pdf.tables import PdfPlumberTableEngine

ROWS = [("Lote", "Descrição", "Quantidade", "Valor"),
        ("1", "Cimento Portland", "340", "R$ 13.226,00"),
        ("2", "Areia lavada", "12", "R$ 1.375,00"),
        ("3", "Tijolo cerâmico", "8000", "R$ 6.800,00")]


def _ruled_table(page_rotation: int, content_turn: int) -> bytes:
    """A ruled four-column table on an A4 page, ``content_turn`` degrees turned in the
    content stream and shown with /Rotate ``page_rotation``."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setPageRotation(page_rotation)
    canvas.translate(*{0: (0, 0), 90: (595, 0), 270: (0, 842)}[content_turn])
    canvas.rotate(content_turn)
    widths, height, left, top = (60, 200, 110, 130), 24, 60, 500
    edges = [left + sum(widths[:i]) for i in range(len(widths) + 1)]
    for index in range(len(ROWS) + 1):
        canvas.line(edges[0], top - index * height, edges[-1], top - index * height)
    for x in edges:
        canvas.line(x, top, x, top - len(ROWS) * height)
    canvas.setFont("Helvetica", 10)
    for row_index, row in enumerate(ROWS):
        for column, text in enumerate(row):
            canvas.drawString(edges[column] + 4, top - (row_index + 1) * height + 8, text)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def _tables(data: bytes, tmp_path: Path) -> list[tuple[tuple[str, ...], ...]]:
    path = tmp_path / "tabela.pdf"
    path.write_bytes(data)
    config = goblin_core.default_registry().config()
    found = PdfPlumberTableEngine().tables(Source.from_path(path), [1], config)
    return [table.rows for table in found.get(1, [])]


@pytest.mark.parametrize(("page_rotation", "content_turn"),
                         [(0, 0), (90, 0), (270, 0), (0, 90), (0, 270), (90, 90)])
def test_a_ruled_table_reads_by_rows_whichever_way_it_is_shown(
        tmp_path: Path, page_rotation: int, content_turn: int) -> None:
    tables = _tables(_ruled_table(page_rotation, content_turn), tmp_path)
    assert tables == [tuple(ROWS)]


def test_the_corpus_table_shown_sideways_reads_by_state(tmp_path: Path) -> None:
    path = corpus_dir(__file__) / "pdf/nics-background-checks-2015-11-rotated.pdf"
    config = goblin_core.default_registry().config()
    (table,) = PdfPlumberTableEngine().tables(Source.from_path(path), [1], config)[1]
    states = [row[0] for row in table.rows]
    assert states.index("Alabama") < states.index("Alaska") < states.index("Wyoming")
    alabama = table.rows[states.index("Alabama")]
    assert alabama[1:4] == ("18,870", "23,022", "22,650") and alabama[-1] == "71,137"
