"""Pages heavy to draw or to lay out: rendering stops at pdf.render_timeout, and the
table search leaves out the pages the census refuses and those past
pdf.max_table_operators, keeping the text."""

from __future__ import annotations

import logging
import time

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

import goblin_core
from goblin_core.deadline import document_deadline
from goblin_core.errors import ExtractionTimeout
from goblin_core.source import Source
from goblin_pdf.tables.detect import MAX_TABLE_OPERATORS
from goblin_pdf.tables.engine import PdfPlumberTableEngine

TITLE = "BT /F1 24 Tf 72 760 Td (%s) Tj ET\n"
# a ruled two-by-two grid with a word in each cell, which the table search finds
GRID = ("0.5 w 72 600 m 372 600 l S 72 650 m 372 650 l S 72 700 m 372 700 l S "
        "72 600 m 72 700 l S 222 600 m 222 700 l S 372 600 m 372 700 l S "
        "BT /F1 12 Tf 80 675 Td (Fruit) Tj 150 0 Td (Price) Tj ET "
        "BT /F1 12 Tf 80 625 Td (Apple) Tj 150 0 Td (Cheap) Tj ET\n")


def _lines_across(count: int) -> str:
    """``count`` vertical lines the height of the page, each drawn on its own."""
    return "".join(f"{i % 600} 0 m {i % 600} 842 l S\n" for i in range(count))


def _squares(count: int) -> str:
    return "".join(f"{i % 500} {i // 500 % 500} 1 1 re f\n" for i in range(count))


def _with_drawn_form(pdf: pikepdf.Pdf, page: int, body: str, draws: int) -> None:
    form = pdf.make_stream(body.encode("latin-1"), Type=Name.XObject, Subtype=Name.Form,
                           BBox=Array([0, 0, 595, 842]))
    target = pdf.pages[page]
    target.Resources.XObject = Dictionary(Sq=pdf.make_indirect(form))
    content = target.Contents.read_bytes() + b"/Sq Do\n" * draws
    target.Contents = pdf.make_stream(content)


def _tables(data: bytes, caplog: pytest.LogCaptureFixture,
            **pdf_options: object) -> dict[int, list[object]]:
    registry = goblin_core.default_registry()
    config = registry.config(tables=True, ocr="never", pdf=pdf_options)
    with caplog.at_level(logging.WARNING):
        found = PdfPlumberTableEngine().tables(Source.from_bytes(data, "heavy.pdf"), [1, 2],
                                               config)
    return dict(found)


@pytest.mark.parametrize(("options", "cause"), [
    ({"pdf": {"render_timeout": 1.0}},
     r"drawing the page took more than 1 s \(pdf\.render_timeout"),
    # the document's time limit ends a render when it comes before the render's own
    ({"limits": {"timeout": 2.0}},
     r"the document's time limit of 2 s ran out .*\(limits\.timeout\)"),
], ids=["render-timeout", "document-timeout"])
def test_a_page_that_takes_too_long_to_draw_stops_at_the_first_time_limit(
        options: dict[str, dict[str, float]], cause: str) -> None:
    # 40,000 lines across the page: about a quarter of a minute for PDFium at 300 dpi
    data = saved(helvetica_pages(TITLE % "Lines page" + _lines_across(40_000)))
    registry = goblin_core.default_registry()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(data, "lines.pdf"), registry.config(**options)) as parsed:
        started = time.monotonic()
        with pytest.raises(ExtractionTimeout, match=r"lines\.pdf: page 1: " + cause):
            parsed.render(1, 300)
        assert time.monotonic() - started < 6
        # the page is still readable
        assert "Lines page" in next(iter(parsed.pages())).text
        if "limits" in options:
            # past the document's deadline, another render gives up at once
            with pytest.raises(ExtractionTimeout, match=r"limits\.timeout"):
                parsed.render(1, 300)
            assert time.monotonic() - started < 8


def test_a_render_stops_when_the_extraction_it_belongs_to_runs_out_of_time() -> None:
    # a PDF opened late in an extraction (an archive's last member) has what is left of
    # limits.timeout, not the whole of it
    data = saved(helvetica_pages(TITLE % "Lines page" + _lines_across(40_000)))
    registry = goblin_core.default_registry()
    parser = registry.get("pdf.pypdfium2").engine
    started = time.monotonic()
    with document_deadline(started + 1.5), \
            parser.open(Source.from_bytes(data, "late.pdf"), registry.config()) as parsed, \
            pytest.raises(ExtractionTimeout, match=r"late\.pdf: page 1: .*\(limits\.timeout\)"):
        parsed.render(1, 300)
    assert time.monotonic() - started < 6


def test_a_page_drawn_within_the_render_timeout_is_the_image_pdfium_draws() -> None:
    data = saved(helvetica_pages(TITLE % "Grid page" + GRID))
    registry = goblin_core.default_registry()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(data, "grid.pdf"), registry.config()) as parsed:
        image = parsed.render(1, 72)
    assert image.mode == "L" and image.size == (595, 842)
    # the grid's top rule at y = 700 points is 142 pixels from the top
    assert image.crop((100, 140, 300, 144)).getextrema()[0] < 128
    assert image.crop((400, 300, 500, 400)).getextrema() == (255, 255)


def test_tables_are_not_searched_on_a_page_the_census_refuses(
        caplog: pytest.LogCaptureFixture) -> None:
    # a form of a thousand characters drawn 100,000 times: a hundred million glyphs for
    # pdfminer to lay out, from a file of a few kilobytes
    pdf = helvetica_pages(TITLE % "Grid page" + GRID, TITLE % "Bomb page")
    _with_drawn_form(pdf, 1, "BT /F1 1 Tf 10 10 Td (%s) Tj ET" % ("x" * 1000), 100_000)
    data = saved(pdf)
    started = time.monotonic()
    found = _tables(data, caplog)
    assert time.monotonic() - started < 20
    assert 2 not in found or found[2] == []
    assert "tables not searched" in caplog.text and "form bomb" in caplog.text
    assert [list(row) for row in found[1][0].rows] == [["Fruit", "Price"], ["Apple", "Cheap"]]


@pytest.mark.parametrize("drawn", ["content", "form"])
def test_tables_are_not_searched_on_a_page_of_more_operators_than_the_limit(
        drawn: str, caplog: pytest.LogCaptureFixture) -> None:
    # a limit of 2,000 keeps the test quick; the default one is tested below
    limit, squares = 2000, 3000
    if drawn == "content":
        pdf = helvetica_pages(TITLE % "Grid page" + GRID, TITLE % "Squares" + _squares(squares))
    else:
        # 100 squares drawn 30 times through one form: a short page, as heavy to lay out
        pdf = helvetica_pages(TITLE % "Grid page" + GRID, TITLE % "Squares")
        _with_drawn_form(pdf, 1, _squares(100), squares // 100)
    data = saved(pdf)
    found = _tables(data, caplog, max_table_operators=limit)
    assert found[2] == []
    assert "page 2: over pdf.max_table_operators" in caplog.text
    assert [list(row) for row in found[1][0].rows] == [["Fruit", "Price"], ["Apple", "Cheap"]]
    # raised, the page is searched (and holds no table)
    caplog.clear()
    assert _tables(data, caplog, max_table_operators=squares * 2)[2] == []
    assert "max_table_operators" not in caplog.text


def test_the_text_of_a_page_past_the_default_limit_is_kept_without_tables(
        caplog: pytest.LogCaptureFixture) -> None:
    data = saved(helvetica_pages(TITLE % "Squares page" + _squares(MAX_TABLE_OPERATORS + 10)))
    with caplog.at_level(logging.WARNING):
        document = goblin_core.extract(data, name="squares.pdf", ocr="never", tables=True)
    assert "Squares page" in document.text and document.pages[0].tables == ()
    assert f"over pdf.max_table_operators ({MAX_TABLE_OPERATORS}" in caplog.text
