"""The corpus's table PDFs through the pipeline with tables on: counts, headers, cells."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import goblin_core
from goblin_core.errors import GoblinError
from goblin_core.testing.corpus import corpus_dir, find_corpus, manifest

pytest.importorskip("goblin_pdf")

pytestmark = pytest.mark.corpus


@dataclass(frozen=True)
class Expect:
    """What a file's tables must look like: how many, and some exact rows."""

    count: int
    # (page, index, row number, the row) checked exactly
    rows: tuple[tuple[int, int, int, tuple[str, ...]], ...] = ()


EXPECTED: dict[str, Expect] = {
    "pdf/2305.03393v1-pg9.pdf": Expect(1, (
        (1, 0, 0, ("# dec-layers", "Language", "TEDs simple", "TEDs complex", "TEDs all",
                   "mAP (0.75)")),
        (1, 0, 1, ("6", "OTSL HTML", "0.965 0.969", "0.934 0.927", "0.955 0.955", "0.88 0.857")),
    )),
    "pdf/qd-fake_table.pdf": Expect(1, (
        (1, 0, 0, ("This is a table.", "After running tabula on this table.")),
        (1, 0, 1, ("You should see…", "… a 2x2 matrix")),
    )),
    "pdf/tika-testPDFVarious.pdf": Expect(1, (
        (1, 0, 0, ("Row 1 Col 1", "Row 1 Col 2", "Row 1 Col 3")),
        (1, 0, 1, ("Row 2 Col 1", "Row 2 Col 2", "Row 2 Col 3")),
    )),
    "pdf/issue-625-identity-cmap.pdf": Expect(4, (
        (1, 0, 0, ("Lp", "Nazwa", "Jedn", "Ilość", "Cena netto", "Stawka", "Wartość netto",
                   "Wartość brutto")),
        (1, 0, 2, ("2", "Dokumentacja - żółw", "szt.", "2", "44,00", "23%", "88,00", "108,24")),
        (1, 1, 2, ("Razem", "121,00", "27,83", "148,83")),
        (2, 0, 1, ("1", "Testy Książę", "szt.", "1", "33,00", "23%", "33,00", "40,59")),
    )),
    # Page 1: a sparse table drawn without lines over striped rows, every text line a row.
    "pdf/SPARSE-2024-INV-1234_borderless_table.pdf": Expect(2, (
        (1, 0, 0, ("Product Code", "Location", "Expected", "Actual", "Variance", "Status")),
        (1, 0, 1, ("SKU-8847", "A-12", "450", "", "", "")),
        (1, 0, 2, ("", "B-07", "", "289", "-23", "")),
        (2, 0, 0, ("Product Code", "Category", "Unit Cost", "Total Value", "Last Audit", "Notes")),
        (2, 0, 1, ("SKU-8847", "Electronics", "$45.00", "$13,005.00", "2024-10-15", "")),
    )),
    "pdf/senate-expenditures.pdf": Expect(1, (
        (1, 0, 0, ("DOCUMENTNO.", "DATE POSTED", "PAYEENAME", "OBLIGATION/SERVICE DATES START",
                   "OBLIGATION/SERVICE DATES END", "DESCRIPTION", "AMOUNT($)")),
    )),
    "pdf/background-checks.pdf": Expect(1, (
        (1, 0, 2, ("Alabama", "18,870", "23,022", "22,650", "859", "1,178", "0", "14", "15", "0",
                   "2,179", "2,307", "11", "0", "0", "0", "", "", "13", "14", "0", "3", "2", "0",
                   "71,137")),
    )),
    # The letterhead boxes are layout; the totals boxes hold label/amount rows.
    "pdf/REPAIR-2022-INV-001_multipage.pdf": Expect(2, (
        (1, 0, 2, ("GRAND TOTAL", "5,738")),
        (2, 0, 2, ("GRAND TOTAL", "211,522")),
    )),
    "pdf/redp5110_sampled.pdf": Expect(6, (
        (8, 0, 0, ("Column name", "Data type", "Description")),
        # drawn in fake bold (every glyph twice): read once
        (11, 1, 1, ("CALL proc1", "Proc1: Owner = JOE SET OPTION USRPRF=*OWNER")),
        (12, 0, 1, ("CLIENT_HOST", "VARCHAR(255)",
                    "Host name of the current client as returned by the system")),
    )),
    "pdf/nics-background-checks-2015-11-rotated.pdf": Expect(1),
    # No vertical lines: a rule under the header row and one under the data, the column
    # titles wrapped over three lines above the first rule (Type3 fonts, narrow spaces).
    "pdf/2b.pdf": Expect(1, (
        (1, 0, 0, ("Booked and interest date", "Text", "Amount in EUR",
                   "Booked balance in EUR")),
        (1, 0, 1, ("01/14/2016", "Transfer", "1,406,164.00", "1,406,246.50")),
    )),
    # Two tables side by side in a two-column layout, rows between horizontal rules only
    # (the column separators are drawn white); wrapped cells are one row.
    "pdf/korean-text-with-tables.pdf": Expect(2, (
        (1, 0, 0, ("업종", "적립 대상")),
        (1, 0, 3, ("온라인쇼핑몰",
                   "삼성카드 쇼핑, G마켓, 옥션, 11번가, 인터파크, 쿠팡, 티몬, 위메프")),
        (1, 1, 0, ("업종", "적립 대상")),
        (1, 1, 1, ("커피전문점", "스타벅스, 투썸플레이스, 카페베네, 탐앤탐스, 커피빈, 엔제리너스, "
                   "할리스커피, 파스쿠찌, 아티제, 폴 바셋")),
        (1, 1, 3, ("편의점", "CU, GS25, 세븐일레븐, 미니스톱")),
    )),
    # A till receipt in one left-aligned monospace column: item, code and amount each on
    # a line of its own, no two columns anywhere, so nothing lines up as a table.
    "pdf/RECEIPT-2024-TXN-98765_retail_purchase.pdf": Expect(0),
    # A scanned page: the table is an image, there are no words to place (OCR reads text,
    # not cell geometry).
    "pdf/table-multi-row-column-cells.pdf": Expect(0),
}
SLOW = {"pdf/ca-warn-report.pdf"}

# Corpus PDFs the MANIFEST does not tag `tables` are searched too: any table found there
# is a false positive unless listed here with its reason. Real tables the tag missed:
UNTAGGED_TABLES: dict[str, tuple[int, str]] = {
    "pdf/google-doc-document.pdf": (1, "a ruled country table (Continent, Capital, Currency)"),
    "pdf/tagged.pdf": (1, "a ruled 2x3 table (Column 1, Column 2)"),
    "pdf/word365_structure.pdf": (1, "a ruled 3x3 table (En-tête 1..3)"),
    "pdf/pdf_structure.pdf": (1, "the 'Tableau' section: header and rows between rules"),
    "pdf/latex-multicolumn.pdf": (1, "a booktabs table of countries (Population, Area)"),
    "pdf/issue-1061-colour-space-stack.pdf": (1, "page 9: a booktabs table of noise intervals"),
    "pdf/federal-register-2020-17221.pdf": (1, "page 6: the ruled cost table"),
    "pdf/testPDF_bad_page_303226.pdf": (1, "page 9: the ruled table of trade names"),
    # Two ruled tables on page 37; page 40 is a chart whose labelled boxes form a grid.
    "pdf/testPDF_protected.pdf": (3, "two real tables and one chart grid (lines strategy)"),
    # Known false positives of the ruled-grid strategy: plots whose axes and grid lines
    # enclose tick labels (pages 23, 31, 35, 56).
    "pdf/GeoTopo-komprimiert.pdf": (4, "plots read as grids by the lines strategy"),
}
#: Long untagged PDFs are searched up to this page (the 619-page one alone takes minutes).
FALSE_POSITIVE_PAGES = 60


def _untagged_pdfs() -> list[str]:
    root = corpus_dir(__file__)
    return sorted(r.file for r in manifest(root) if r.kind == "pdf" and "tables" not in r.features)


def _table_pdfs() -> list[str]:
    root = corpus_dir(__file__)
    return sorted(r.file for r in manifest(root) if r.extension == "pdf" and "tables" in r.features)


def test_every_table_pdf_of_the_corpus_has_expectations() -> None:
    assert set(_table_pdfs()) == set(EXPECTED) | SLOW


def _extract(name: str) -> goblin_core.Document:
    return goblin_core.extract(corpus_dir(__file__) / name, tables=True, ocr="never")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_table_pdf(name: str) -> None:
    expect = EXPECTED[name]
    document = _extract(name)

    assert len(document.tables) == expect.count
    tables = {(t.page, t.index): t for t in document.tables}
    for page, index, row, cells in expect.rows:
        assert tables[(page, index)].rows[row] == cells
    for table in document.tables:
        assert table.n_columns >= 2 and len(table.rows) >= 2
        assert all(len(r) == table.n_columns for r in table.rows)


@pytest.mark.slow
def test_a_table_over_fourteen_pages_is_one_table() -> None:
    document = _extract("pdf/ca-warn-report.pdf")

    assert [(t.page, t.index) for t in document.tables] == [(1, 0), (15, 0)]
    warn, summary = document.tables
    assert warn.rows[0] == ("Notice Date", "Effective", "Received", "Company", "City", "No. Of",
                            "Layoff/Closure")
    assert warn.rows.count(warn.rows[0]) == 1, "repeated headers are dropped"
    assert len(warn.rows) == 634
    assert warn.rows[-1][3:] == ("Rockwell Collins, Inc.", "Poway", "2",
                                 "Layoff Unknown at this time")
    assert summary.rows[-1] == ("Total", "632", "53,454", "295", "11", "90", "212", "12", "12")


def test_untagged_exceptions_are_corpus_files() -> None:
    assert set(UNTAGGED_TABLES) <= set(_untagged_pdfs())


@pytest.mark.slow
@pytest.mark.parametrize("name", _untagged_pdfs() if find_corpus(__file__) else [])
def test_pdfs_without_tables_give_no_tables(name: str) -> None:
    root = corpus_dir(__file__)
    row = next(r for r in manifest(root) if r.file == name)
    try:
        document = goblin_core.extract(root / name, tables=True, ocr="never",
                                       password=row.password or "",
                                       max_pages=FALSE_POSITIVE_PAGES)
    except GoblinError:
        return  # corrupt or locked without a known password: nothing to search

    expected = UNTAGGED_TABLES.get(name, (0, ""))[0]
    found = [(t.page, t.n_columns, t.rows[0]) for t in document.tables]
    assert len(found) == expected, found


def test_max_pages_limits_tables() -> None:
    document = goblin_core.extract(corpus_dir(__file__) / "pdf/issue-625-identity-cmap.pdf",
                                   tables=True, ocr="never", max_pages=1)

    assert [(t.page, t.index) for t in document.tables] == [(1, 0), (1, 1)]


def test_table_pages_stay_clean() -> None:
    plain = goblin_core.extract(corpus_dir(__file__) / "pdf/issue-625-identity-cmap.pdf",
                                ocr="never")
    with_tables = _extract("pdf/issue-625-identity-cmap.pdf")

    assert [p.status for p in with_tables.pages] == [p.status for p in plain.pages]
    assert with_tables.text == plain.text
