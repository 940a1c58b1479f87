"""The table engine's contract: bad input, passwords, unreadable fonts."""

from __future__ import annotations

from pathlib import Path

import pytest

import goblin_core
from goblin_core.errors import CorruptDocument, PasswordRequired
from goblin_core.source import Source
from goblin_pdf.tables import PdfPlumberTableEngine
from goblin_pdf.tables.detect import unreadable

ROWS = [["ITEM", "DESCRIÇÃO", "QUANT"], ["1", "Areia", "10"], ["2", "Cimento", "5"]]


def _grid_pdf(path: Path, encrypt: str | None = None) -> Path:
    pytest.importorskip("reportlab")
    from reportlab.lib import colors
    from reportlab.platypus import SimpleDocTemplate, TableStyle
    from reportlab.platypus import Table as RLTable

    grid = RLTable(ROWS)
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    SimpleDocTemplate(str(path), encrypt=encrypt).build([grid])
    return path


def test_engine_declares_its_contract() -> None:
    engine = PdfPlumberTableEngine()

    assert engine.name == "pdf.tables.pdfplumber"
    # PostScript too: its pages are the PDF Ghostscript writes, which the engine reads
    assert engine.formats == ("application/pdf", "application/postscript")
    assert engine.available() == (True, "")
    registry = goblin_core.default_registry()
    assert registry.get("pdf.tables.pdfplumber") is not None


def test_a_file_that_is_not_a_pdf_is_a_corrupt_document() -> None:
    config = goblin_core.default_registry().config()
    source = Source.from_bytes(b"%PDF-1.4\nthis is not really a PDF", "broken.pdf")

    with pytest.raises(CorruptDocument, match=r"broken\.pdf"):
        PdfPlumberTableEngine().tables(source, [1], config)


def test_encrypted_pdf_needs_its_password(tmp_path: Path) -> None:
    pdf = _grid_pdf(tmp_path / "locked.pdf", encrypt="segredo")
    registry = goblin_core.default_registry()
    engine = PdfPlumberTableEngine()

    with pytest.raises(PasswordRequired):
        engine.tables(Source.from_path(pdf), [1], registry.config())
    found = engine.tables(Source.from_path(pdf), [1], registry.config(password="segredo"))

    assert [list(r) for r in found[1][0].rows] == ROWS


def test_pages_beyond_the_document_are_ignored(tmp_path: Path) -> None:
    pdf = _grid_pdf(tmp_path / "grid.pdf")
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1, 7], config)

    assert list(found) == [1] and len(found[1]) == 1


def test_tables_in_fonts_without_unicode_mapping_are_unreadable() -> None:
    garbage = [("(cid:41)(cid:88)(cid:81)", "(cid:7)(cid:12)"), ("(cid:45)", "1")]

    assert unreadable(garbage)
    assert not unreadable([tuple(r) for r in ROWS])


def test_fake_bold_cells_read_once(tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    from reportlab.pdfgen import canvas

    pdf = tmp_path / "fake-bold.pdf"
    page = canvas.Canvas(str(pdf))
    xs, ys = [50, 200, 350, 500], [700, 680, 660, 640]
    for x in xs:
        page.line(x, ys[0], x, ys[-1])
    for y in ys:
        page.line(xs[0], y, xs[-1], y)
    for r, row in enumerate(ROWS):
        for c, text in enumerate(row):
            for offset in (0.0, 0.3):  # every glyph drawn twice, a hair apart
                page.drawString(xs[c] + 4 + offset, ys[r] - 14, text)
    page.save()
    config = goblin_core.default_registry().config()

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    assert [list(r) for r in found[1][0].rows] == ROWS


def test_pages_too_heavy_to_lay_out_are_skipped_with_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import goblin_pdf.tables.detect as detect

    pdf = _grid_pdf(tmp_path / "grid.pdf")
    config = goblin_core.default_registry().config()
    monkeypatch.setattr(detect, "MAX_PAGE_CONTENT_BYTES", 100)

    found = PdfPlumberTableEngine().tables(Source.from_path(pdf), [1], config)

    assert found == {1: []}
    assert "tables not searched" in caplog.text


def test_a_page_searched_past_page_timeout_is_given_up_and_the_next_searched(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import pikepdf
    from pikepdf import Array, Dictionary, Name

    pdf = pikepdf.open(_grid_pdf(tmp_path / "grid.pdf"))
    # 80,000 characters in 1,000 lines: pdfminer lays the page out in about two seconds
    # and the table search takes four, while the grid page takes a few hundredths: a
    # second parts them with room for a busy machine
    dense = b"BT /F1 1 Tf 10 780 Td " + (b"(" + b"word " * 16 + b") Tj 0 -1 Td ") * 1000 + b"ET"
    helvetica = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)
    pdf.pages.insert(0, pikepdf.Page(Dictionary(
        Type=Name.Page, MediaBox=Array([0, 0, 612, 792]),
        Resources=Dictionary(Font=Dictionary(F1=helvetica)), Contents=pdf.make_stream(dense))))
    pdf.save(tmp_path / "dense-then-grid.pdf")
    config = goblin_core.default_registry().config(pdf={"page_timeout": 1.0})

    found = PdfPlumberTableEngine().tables(Source.from_path(tmp_path / "dense-then-grid.pdf"),
                                           [1, 2], config)

    assert found[1] == [] and [list(r) for r in found[2][0].rows] == ROWS
    assert "the table search of page 1 took longer than 1 s and was interrupted" in caplog.text
