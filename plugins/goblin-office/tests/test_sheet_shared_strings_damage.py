"""An xlsx whose shared strings part is damaged keeps its other cells.

calamine reads the shared strings when it opens the workbook: a part cut short (or
empty, or whose deflate stream breaks midway) made it refuse the whole workbook, and
openpyxl after it, so every number, inline string and sheet was lost over the strings.
The strings that end before the damage are kept, the cells showing the others are left
empty, and the loss is said (read in part).
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

import pytest
from packages import SHEET_MAIN, R, damaged, xlsx_parts, zip_bytes

from goblin_core import Document

Read = Callable[..., Document]

_MAIN = SHEET_MAIN
_REL = R

ROWS = 120


def _workbook() -> tuple[dict[str, str], list[str]]:
    """A workbook of two sheets: 'Lotes' shows a shared string and a number a row, the
    shared strings in row order; 'Resumo' holds an inline string and a number."""
    strings = [f"Lote {row:03d}" for row in range(1, ROWS + 1)]
    lotes = "".join(f'<row r="{row}"><c r="A{row}" t="s"><v>{row - 1}</v></c>'
                    f'<c r="B{row}"><v>{row * 10}</v></c></row>' for row in range(1, ROWS + 1))
    resumo = ('<row r="1"><c r="A1" t="inlineStr"><is><t>Total geral</t></is></c>'
              '<c r="B1"><v>72600</v></c></row>')
    shared = "".join(f"<si><t>{escape(text)}</t></si>" for text in strings)
    return xlsx_parts({"Lotes": lotes, "Resumo": resumo}, shared), strings


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def _kept_strings(document: Document, strings: list[str]) -> int:
    """How many of the shared strings, from the first, the document shows in order."""
    kept = 0
    while kept < len(strings) and strings[kept] in document.text:
        kept += 1
    assert not any(text in document.text for text in strings[kept:])
    return kept


def test_a_shared_strings_part_cut_short_keeps_the_strings_before_the_cut(read: Read) -> None:
    parts, strings = _workbook()
    shared = parts["xl/sharedStrings.xml"]
    parts["xl/sharedStrings.xml"] = shared[: len(shared) // 2]
    document = read(zip_bytes(parts), "lotes.xlsx")
    assert [(p.label, p.status) for p in document.pages] == [
        ("Lotes", "clean"), ("Resumo", "clean")]
    # every number stays, in its row, and the other sheet is whole
    table = document.tables[0].rows
    assert [row[1] for row in table] == [str(row * 10) for row in range(1, ROWS + 1)]
    assert "Total geral\t72600" in document.text
    kept = _kept_strings(document, strings)
    assert 0 < kept < ROWS
    assert all(row[0] == "" for row in table[kept:])
    (lost,) = _truncated(document)
    assert f"{ROWS - kept} of the strings the cells show were lost" in lost
    assert any("xl/sharedStrings.xml" in w.message and w.kind == "CorruptDocument"
               for w in document.report.warnings)


@pytest.mark.parametrize("damage", ["empty", "not XML"])
def test_a_shared_strings_part_with_nothing_readable_keeps_the_other_cells(
        read: Read, damage: str) -> None:
    parts, strings = _workbook()
    parts["xl/sharedStrings.xml"] = {"empty": "", "not XML": "\x01cadeias"}[damage]
    document = read(zip_bytes(parts), "lotes.xlsx")
    assert [(p.label, p.status) for p in document.pages] == [
        ("Lotes", "clean"), ("Resumo", "clean")]
    assert "Total geral\t72600" in document.text and "\t1200" in document.text
    assert _kept_strings(document, strings) == 0
    (lost,) = _truncated(document)
    assert (f"{ROWS} of the strings the cells show were lost with it "
            f"({ROWS} cells left empty)") in lost


def test_a_shared_strings_part_that_stops_inflating_keeps_what_inflated(read: Read) -> None:
    parts, strings = _workbook()
    # strings long enough that the deflate stream breaks well after its first ones
    strings[:] = [f"{text} " + "pedra e cal " * 40 + f"#{index}"
                  for index, text in enumerate(strings)]
    parts["xl/sharedStrings.xml"] = (
        f'<sst xmlns="{_MAIN}" count="{ROWS}" uniqueCount="{ROWS}">'
        + "".join(f"<si><t>{escape(text)}</t></si>" for text in strings) + "</sst>")
    document = read(damaged(zip_bytes(parts), "xl/sharedStrings.xml", at=0.6), "lotes.xlsx")
    assert [(p.label, p.status) for p in document.pages] == [
        ("Lotes", "clean"), ("Resumo", "clean")]
    assert "Total geral\t72600" in document.text
    kept = _kept_strings(document, strings)
    assert 0 < kept < ROWS
    assert len(_truncated(document)) == 1


def test_a_shared_strings_part_damaged_past_the_strings_cells_show_loses_nothing(
        read: Read) -> None:
    parts, strings = _workbook()
    # a string no cell shows, after which the part is cut
    parts["xl/sharedStrings.xml"] = parts["xl/sharedStrings.xml"].replace(
        "</sst>", "<si><t>sobra</t></si><si><t>cor")
    document = read(zip_bytes(parts), "lotes.xlsx")
    assert _kept_strings(document, strings) == ROWS
    assert not _truncated(document)
    assert any("xl/sharedStrings.xml" in w.message for w in document.report.warnings)


def test_a_whole_shared_strings_part_reads_clean(read: Read) -> None:
    parts, strings = _workbook()
    document = read(zip_bytes(parts), "lotes.xlsx")
    assert _kept_strings(document, strings) == ROWS
    assert not document.report.warnings


@pytest.mark.parametrize("named", [True, False])
def test_a_shared_strings_part_missing_from_the_package_keeps_the_other_cells(
        read: Read, named: bool) -> None:
    parts, strings = _workbook()
    del parts["xl/sharedStrings.xml"]
    if not named:  # nor named by the workbook's relationships
        rels = parts["xl/_rels/workbook.xml.rels"]
        parts["xl/_rels/workbook.xml.rels"] = rels.replace(
            f'<Relationship Id="rId3" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/>',
            "")
    document = read(zip_bytes(parts), "lotes.xlsx")
    assert [(p.label, p.status) for p in document.pages] == [
        ("Lotes", "clean"), ("Resumo", "clean")]
    assert "Total geral\t72600" in document.text and "\t1200" in document.text
    assert _kept_strings(document, strings) == 0
    (lost,) = _truncated(document)
    assert lost == (f"the shared strings part is missing: {ROWS} of the strings the cells "
                    f"show were lost with it ({ROWS} cells left empty)")


def test_a_damaged_sheet_beside_damaged_shared_strings_keeps_its_rows(read: Read) -> None:
    parts, _strings = _workbook()
    shared = parts["xl/sharedStrings.xml"]
    parts["xl/sharedStrings.xml"] = shared[: len(shared) * 3 // 4]
    # the copy calamine reads without the strings' damage must not leave the sheet out:
    # a workbook listing a sheet whose part is missing is refused whole
    document = read(damaged(zip_bytes(parts), "xl/worksheets/sheet1.xml", at=0.5), "lotes.xlsx")
    assert [(p.label, p.status) for p in document.pages] == [
        ("Lotes", "clean"), ("Resumo", "clean")]
    assert "Total geral\t72600" in document.text
    rows = document.tables[0].rows
    assert 10 < len(rows) < ROWS
    assert [row[1] for row in rows] == [str(row * 10) for row in range(1, len(rows) + 1)]
    (lost,) = _truncated(document)
    assert "sheet part xl/worksheets/sheet1.xml is damaged: what it holds after row " in lost
