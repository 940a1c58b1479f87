"""Spreadsheet cells written as Excel shows them under their number format."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile

import openpyxl
import pytest
from packages import rewrite

from goblin_core.testing.corpus import corpus_dir
from goblin_office.cells import cell_text
from goblin_office.numberformat import compile_format, display_text

# (format code, value, what Excel shows in an English locale)
SHOWN = [
    ("0%", 0.256, "26%"),
    ("0.00%", 0.25678, "25.68%"),
    ("0.0%", -0.123, "-12.3%"),
    ("0.00", 1234.5, "1234.50"),
    ("0.00", 1.005, "1.01"),  # 15 significant digits, then half away from zero
    ("0.00", 2.675, "2.68"),
    ("0.00", -0.0001, "0.00"),  # no minus sign on a value shown as zero
    ("#,##0", 1234567.891, "1,234,568"),
    ("#,##0.00", 1234567.891, "1,234,567.89"),
    ("#,##0.00", -1234.5, "-1,234.50"),
    ("#,##0.00", 0.5, "0.50"),
    ("#,###.00", 0.5, ".50"),
    ('"R$" #,##0.00', 1234.5, "R$ 1,234.50"),
    ("[$R$-416] #,##0.00", 1234.5, "R$ 1,234.50"),
    ("#,##0.00 [$€-1]", 1234.5, "1,234.50 €"),
    ("$#,##0.00", 1234.5, "$1,234.50"),
    ("$#,##0.00", -1234.5, "-$1,234.50"),
    ("#,##0.00_);(#,##0.00)", -1234.5, "(1,234.50)"),
    ("#,##0.00_);(#,##0.00)", 1234.5, "1,234.50"),
    ("#,##0.00_);[Red](#,##0.00)", -1234.5, "(1,234.50)"),
    ("#,##0.00;-#,##0.00", -1234.5, "-1,234.50"),
    ('"$"#,##0.00_);[Red]\\("$"#,##0.00\\)', -1599.99, "($1,599.99)"),
    ('_-* #,##0.00_-;-* #,##0.00_-;_-* "-"??_-;_-@_-', 1234.5, "1,234.50"),
    ('_-* #,##0.00_-;-* #,##0.00_-;_-* "-"??_-;_-@_-', 0, "-"),
    ('_-"R$"\\ * #,##0.00_-;\\-"R$"\\ * #,##0.00_-;_-"R$"\\ * "-"??_-;_-@_-', -10, "-R$ 10.00"),
    ("0.00E+00", 198356388, "1.98E+08"),
    ("0.00E+00", 999999, "1.00E+06"),
    ("0.00E+00", 0.000123, "1.23E-04"),
    ("##0.0E+0", 12345, "12.3E+3"),
    ("# ?/?", 2.5, "2 1/2"),
    ("# ?/?", 0.5, "1/2"),
    ("# ?/?", 3.0, "3"),
    ("# ??/??", 3.14159, "3 14/99"),
    ("# ?/8", 0.75, "6/8"),
    ('[>=1000]#,##0,"K";0', 1234.5, "1K"),
    ('[>=1000]#,##0,"K";0', -5, "-5"),
    ('#,##0.0,,"M"', 12345678, "12.3M"),
    ("00000", 5, "00005"),
    ("00000-000", 1310100, "01310-100"),  # CEP
    ('000"."000"."000-00', 12345678901, "123.456.789-01"),  # CPF
    ('0\\ "dollars and"\\ .00\\ "cents"', 19.99, "19 dollars and .99 cents"),
    ('General" kg"', 2.5, "2.5 kg"),
    ('"Obs: "@', "conferir", "Obs: conferir"),
]

DATES = [
    ("dd/mm/yyyy", dt.date(2024, 1, 30), "30/01/2024"),
    ("h:mm AM/PM", dt.datetime(1992, 12, 28, 18, 15, 0, 703000), "6:15 PM"),
    ("h:mm AM/PM", dt.time(12, 0), "12:00 PM"),
    ("h:mm", dt.datetime(1992, 12, 28, 6, 15, 0, 703000), "6:15"),
    ("mm:ss", dt.time(0, 3, 7), "03:07"),
    ("hh:mm:ss.00", dt.datetime(2024, 1, 30, 6, 15, 30, 560000), "06:15:30.56"),
    ("[h]:mm", dt.timedelta(days=2, minutes=123), "50:03"),
    ("d-mmm-yy", dt.date(2007, 5, 17), "17-May-07"),
    ("m/d/yyyy h:mm", dt.datetime(2008, 1, 19, 4, 35), "1/19/2008 4:35"),
    ("[$-416]mmmm\\ yyyy", dt.date(2024, 1, 30), "janeiro 2024"),
    ("[$-416]dddd", dt.date(2024, 1, 30), "terça-feira"),
    ("[$-816]d mmm yyyy", dt.date(2024, 3, 1), "1 mar 2024"),
    ("[$-pt-BR]mmmm", dt.date(2024, 3, 1), "março"),
    ("[$-409]mmmm", dt.date(2024, 3, 1), "March"),
    (
        '"At"\\ h:mm\\ AM/PM\\ "on"\\ dddd\\ mmmm\\ d","\\ yyyy',
        dt.datetime(2007, 5, 17, 4, 20),
        "At 4:20 AM on Thursday May 17, 2007",
    ),
]


@pytest.mark.parametrize(("code", "value", "shown"), SHOWN)
def test_number_is_shown_as_excel_shows_it(code: str, value: object, shown: str) -> None:
    assert display_text(value, code) == shown


@pytest.mark.parametrize(("code", "value", "shown"), DATES)
def test_date_is_shown_by_its_format_when_asked(code: str, value: object, shown: str) -> None:
    assert display_text(value, code, dates=True) == shown


@pytest.mark.parametrize(("code", "value", "_"), DATES)
def test_date_stays_iso_unless_asked(code: str, value: object, _: str) -> None:
    assert display_text(value, code) == cell_text(value)


@pytest.mark.parametrize(
    ("code", "value", "raw"),
    [
        ("General", 0.1 + 0.2, "0.30000000000000004"),
        ("General", 3.0, "3"),
        ("@", 42.0, "42"),
        (";;;", 1234, "1234"),  # hidden on screen, kept in the text
        ("[DBNum1]0", 5, "5"),  # other numeral systems: not rendered
        ("0.00", True, "TRUE"),
        ("0.00", "texto", "texto"),
        ("0.00", float("nan"), "nan"),
        ("#,##0", 1e300, "1e+300"),
        ("yyyy-mm-dd", 45321.0, "45321"),  # a date code on a number the reader did not date
    ],
)
def test_what_no_format_renders_keeps_the_consistent_text(
    code: str, value: object, raw: str
) -> None:
    assert display_text(value, code, dates=True) == raw


@pytest.mark.parametrize(
    "code",
    [
        '"unterminated',
        "[Red",
        "0.0.0",
        "#,##0;;;;;",
        "E+",
        "[$-F800]",
        "?/",
        "0/0",
        "\\",
        "_",
        "*",
        "[>=abc]0",
        "0;[<0]0",
        "B2yyyy",
        "[h]:mm:ss.000000",
        "0" * 400,
        "#" * 50 + ".00",
    ],
)
def test_odd_codes_never_raise_or_lose_the_value(code: str) -> None:
    for value in (0, -1.5, 1234.5678, 1e15, dt.datetime(2024, 1, 30, 5, 6, 7)):
        shown = display_text(value, code, dates=True)
        assert isinstance(shown, str)
        assert shown.strip() or value == 0


def test_general_compiles_to_nothing_and_codes_are_cached() -> None:
    assert compile_format("General") is None
    assert compile_format("#,##0.00") is compile_format("#,##0.00")


# -- workbooks -------------------------------------------------------------------


def _formatted_workbook() -> bytes:
    """Cells from C3 on (calamine starts rows at 0 and columns at the first used one)."""
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Orçamento"
    cells = [
        ("C3", "Item", None),
        ("D3", "Valor", None),
        ("C4", "Percentual", None),
        ("D4", 0.256, "0.00%"),
        ("C5", "Preço", None),
        ("D5", 1234.5, '"R$" #,##0.00'),
        ("C6", "Total", None),
        ("D6", 1234567.891, "#,##0"),
        ("C7", "Data", None),
        ("D7", dt.datetime(2024, 3, 15), "dd/mm/yyyy"),
        ("C8", "Saldo", None),
        ("D8", -300, "#,##0.00;(#,##0.00)"),
        ("C9", "Geral", None),
        ("D9", 0.125, "General"),
        ("E9", 7, "0.00"),
    ]
    for ref, value, code in cells:
        sheet[ref] = value
        if code:
            sheet[ref].number_format = code
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


EXPECTED_DISPLAY = [
    ("Item", "Valor"),
    ("Percentual", "25.60%"),
    ("Preço", "R$ 1,234.50"),
    ("Total", "1,234,568"),
    ("Data", "2024-03-15"),
    ("Saldo", "(300.00)"),
    ("Geral", "0.125", "7.00"),
]


def _cells(document) -> list[tuple[str, ...]]:  # type: ignore[no-untyped-def]
    return [tuple(c for c in row if c) for row in document.tables[0].rows if any(row)]


def test_xlsx_cells_are_shown_with_their_number_formats(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_formatted_workbook(), "orcamento.xlsx")
    assert document.parsed_by == ("office.calamine",)
    assert _cells(document) == EXPECTED_DISPLAY
    assert "R$ 1,234.50" in document.text


def test_openpyxl_engine_shows_the_same_cells(read) -> None:  # type: ignore[no-untyped-def]
    document = read(
        _formatted_workbook(), "orcamento.xlsx", engines={"office.calamine": {"enabled": False}}
    )
    assert document.parsed_by == ("office.openpyxl",)
    assert _cells(document) == EXPECTED_DISPLAY


def test_raw_cell_values_when_asked(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_formatted_workbook(), "orcamento.xlsx", office={"cell_values": "raw"})
    assert _cells(document)[1:6] == [
        ("Percentual", "0.256"),
        ("Preço", "1234.5"),
        ("Total", "1234567.891"),
        ("Data", "2024-03-15"),
        ("Saldo", "-300"),
    ]


def test_dates_shown_by_their_format_when_asked(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_formatted_workbook(), "orcamento.xlsx", office={"cell_dates": "display"})
    assert ("Data", "15/03/2024") in _cells(document)


@pytest.mark.parametrize("engines", [{}, {"office.calamine": {"enabled": False}}])
def test_decimal_comma_when_asked(read, engines) -> None:  # type: ignore[no-untyped-def]
    document = read(
        _formatted_workbook(), "orcamento.xlsx", office={"decimal_comma": True}, engines=engines
    )
    assert _cells(document) == [
        ("Item", "Valor"),
        ("Percentual", "25,60%"),
        ("Preço", "R$ 1.234,50"),
        ("Total", "1.234.568"),
        ("Data", "2024-03-15"),
        ("Saldo", "(300,00)"),
        ("Geral", "0,125", "7,00"),
    ]


def test_decimal_comma_leaves_raw_values_alone(read) -> None:  # type: ignore[no-untyped-def]
    office = {"decimal_comma": True, "cell_values": "raw"}
    document = read(_formatted_workbook(), "orcamento.xlsx", office=office)
    assert ("Preço", "1234.5") in _cells(document)


@pytest.mark.parametrize(
    ("code", "value", "shown"),
    [
        ('"R$" #,##0.00', 1234.5, "R$ 1.234,50"),
        ("0.00E+00", 198356388, "1,98E+08"),
        ('000"."000"."000-00', 12345678901, "123.456.789-01"),  # literal dots stay
        ("#,##0.00;(#,##0.00)", -1234567.5, "(1.234.567,50)"),
        ("00000-000", 1310100, "01310-100"),
        ("General", 2.5, "2,5"),
    ],
)
def test_decimal_comma_swaps_only_the_separators(code: str, value: float, shown: str) -> None:
    assert display_text(value, code, comma=True) == shown


def test_bad_option_value_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    from goblin_core.errors import ConfigError

    with pytest.raises(ConfigError, match="cell_values"):
        read(_formatted_workbook(), "orcamento.xlsx", office={"cell_values": "pretty"})


@pytest.mark.parametrize(
    ("pattern", "replacement"),
    [
        (r'<c r="([A-Z]+\d+)" s="(\d+)" t="(\w+)"', r'<c r="\1" t="\3" s="\2"'),  # t first
        (r'<c r="([A-Z]+\d+)" s="(\d+)"', r"<c s='\2' r='\1'"),  # another order, quotes
    ],
)
def test_cells_in_other_writers_attribute_order(read, pattern, replacement) -> None:  # type: ignore[no-untyped-def]
    data = _formatted_workbook()
    sheet = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    reordered, count = re.subn(pattern, replacement, sheet)
    assert count
    document = read(rewrite(data, {"xl/worksheets/sheet1.xml": reordered.encode()}), "o.xlsx")
    assert _cells(document) == EXPECTED_DISPLAY


def test_cells_without_references_keep_their_values(read) -> None:  # type: ignore[no-untyped-def]
    data = _formatted_workbook()
    sheet = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    bare = re.sub(r' r="[A-Z]+\d+"', "", sheet)
    document = read(rewrite(data, {"xl/worksheets/sheet1.xml": bare.encode()}), "bare.xlsx")
    assert "1234.5" in document.text  # raw, not lost, when positions are unknown


def test_unknown_format_codes_keep_the_raw_values(read) -> None:  # type: ignore[no-untyped-def]
    data = _formatted_workbook()
    styles = zipfile.ZipFile(io.BytesIO(data)).read("xl/styles.xml").decode()
    garbled = re.sub(r'formatCode="[^"]*"', 'formatCode="[DBNum2][$-804]0"', styles)
    document = read(rewrite(data, {"xl/styles.xml": garbled.encode()}), "estilos.xlsx")
    cells = _cells(document)
    assert ("Preço", "1234.5") in cells
    assert ("Saldo", "-300") in cells
    assert ("Total", "1,234,568") in cells  # a built-in format (id 3) is still known


def test_many_styles_and_a_large_sheet_stay_fast(read) -> None:  # type: ignore[no-untyped-def]
    import time

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    codes = ["#,##0.00", "0%", '"R$" #,##0.00', "0.000", "#,##0;(#,##0)"]
    for row in range(1, 4001):
        for column in range(1, 6):
            cell = sheet.cell(row=row, column=column, value=row * column + 0.5)
            cell.number_format = codes[column - 1]
    buffer = io.BytesIO()
    workbook.save(buffer)
    started = time.perf_counter()
    document = read(buffer.getvalue(), "grande.xlsx")
    assert time.perf_counter() - started < 20
    assert document.tables[0].rows[3999] == (
        "4,000.50",
        "800050%",
        "R$ 12,000.50",
        "16000.500",
        "20,001",
    )


def test_thousands_of_styles_are_matched_without_a_huge_pattern(read) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in range(1, 801):  # a distinct format, hence a distinct style, per cell
        cell = sheet.cell(row=row, column=1, value=row + 0.5)
        cell.number_format = "#,##0." + "0" * (row % 7 + 1) + '" u' + str(row) + '"'
    buffer = io.BytesIO()
    workbook.save(buffer)
    rows = read(buffer.getvalue(), "estilos.xlsx").tables[0].rows
    assert rows[0] == ("1.50 u1",)
    assert rows[799] == ("800.500 u800",)


def test_tika_formats_workbook_reads_as_excel_shows_it(read) -> None:  # type: ignore[no-untyped-def]
    path = corpus_dir(__file__) / "office" / "testEXCEL-formats.xlsx"
    text = read(path.read_bytes(), path.name, office={"cell_dates": "display"}).text
    for shown in (
        "1,599.99",
        "-1,599.99",
        "$1,599.99",
        "($1,599.99)",
        "1.98E+08",
        "2.50%",
        "2 1/2",
        "6:15 PM",
        "17-May-07",
        "19 dollars and .99 cents",
        "At 4:20 AM on Thursday May 17, 2007",
    ):
        assert shown in text
