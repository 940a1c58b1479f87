"""OpenDocument tables: a value after a long run of repeated empty cells or rows keeps its
column and row, while runs of empty cells and rows are counted, never spelled out."""

from __future__ import annotations

import pytest
from bounds import bounded
from test_structures import _ods_row

from samples import flat_odf


def _cell(text: str) -> str:
    return (f'<table:table-cell office:value-type="string"><text:p>{text}</text:p>'
            "</table:table-cell>")


def _empty(columns: int) -> str:
    return f'<table:table-cell table:number-columns-repeated="{columns}"/>'


def _sheet(rows: str) -> str:
    return f'<table:table table:name="Folha">{rows}</table:table>'


def test_a_value_after_thousands_of_empty_cells_keeps_its_column(read) -> None:  # type: ignore[no-untyped-def]
    body = _sheet(f"<table:table-row>{_cell('A1')}{_empty(2000)}{_cell('Longe')}{_empty(1024)}"
                  f"</table:table-row><table:table-row>{_cell('A2')}{_empty(3)}{_cell('E2')}"
                  "</table:table-row>")
    document = read(flat_odf("spreadsheet", body), "longe.fods")
    first, second = document.tables[0].rows
    assert len(first) == 2002 and (first[0], first[2001]) == ("A1", "Longe")
    assert set(first[1:2001]) == {""}
    assert second[:5] == ("A2", "", "", "", "E2")


def test_a_packaged_ods_keeps_a_far_values_column(read) -> None:  # type: ignore[no-untyped-def]
    data = _ods_row("Folha", [({"valuetype": "string"}, "A1"),
                              ({"numbercolumnsrepeated": "5000"}, ""),
                              ({"valuetype": "string"}, "Longe"),
                              ({"numbercolumnsrepeated": "1024"}, "")])
    document = read(data, "longe.ods")
    assert document.parsed_by == ("office.fods",)
    (row,) = document.tables[0].rows
    assert len(row) == 5002 and (row[0], row[5001]) == ("A1", "Longe")


def test_a_row_after_thousands_of_empty_rows_keeps_its_place(read) -> None:  # type: ignore[no-untyped-def]
    body = _sheet(f"<table:table-row>{_cell('A1')}</table:table-row>"
                  f'<table:table-row table:number-rows-repeated="3000">{_empty(1024)}'
                  f"</table:table-row><table:table-row>{_cell('A3002')}</table:table-row>"
                  f'<table:table-row table:number-rows-repeated="1048000">{_empty(16384)}'
                  "</table:table-row>")
    document = read(flat_odf("spreadsheet", body), "linhas.fods")
    rows = document.tables[0].rows
    assert len(rows) == 3002
    assert (rows[0], rows[3001]) == (("A1",), ("A3002",))
    assert set(rows[1:3001]) == {("",)}


def test_an_empty_row_repeated_in_a_text_table_keeps_the_rows_after_it_in_place(read) -> None:  # type: ignore[no-untyped-def]
    table = ("<table:table><table:table-row>" + _cell("Primeira") + "</table:table-row>"
             '<table:table-row table:number-rows-repeated="2"><table:table-cell/></table:table-row>'
             "<table:table-row>" + _cell("Quarta") + "</table:table-row></table:table>")
    document = read(flat_odf("text", table), "tabela.fodt")
    assert document.tables[0].rows == (("Primeira",), ("",), ("",), ("Quarta",))


@pytest.mark.usefixtures("warm_plugins")
def test_empty_runs_before_values_are_cut_at_max_sheet_cells_never_spelled_out(read) -> None:  # type: ignore[no-untyped-def]
    """A few hundred bytes asking for a million rows, each a value, 16,382 empty cells and
    a value, then a million rows of 16,384 empty ones; and a sheet of a thousand rows, each a
    value after 20 million empty cells: each sheet stops at the limit, in bounded time and
    memory, the cells past it never spelled out."""
    wide = _sheet(f'<table:table-row table:number-rows-repeated="1048576">{_cell("a")}'
                  f"{_empty(16382)}{_cell('x')}</table:table-row>"
                  f'<table:table-row table:number-rows-repeated="1048576">{_empty(16384)}'
                  "</table:table-row>")
    far = "".join(_empty(1_048_576) for _ in range(20))
    far_rows = f"<table:table-row>{far}{_cell('Além')}</table:table-row>" * 1000
    far_sheet = ('<table:table table:name="Longe"><table:table-row>'
                 f"{_cell('Cabeçalho')}</table:table-row>{far_rows}</table:table>")
    with bounded(seconds=20, megabytes=400):
        document = read(flat_odf("spreadsheet", wide + far_sheet), "vazia.fods",
                        office={"max_sheet_cells": 1_000_000})
    rows = document.tables[0].rows
    assert len(rows) * max(len(row) for row in rows) <= 1_000_000
    assert len(rows) == 1_000_000 // 16384
    assert all(row[0] == "a" and row[16383] == "x" and not any(row[1:16383]) for row in rows)
    assert document.tables[1].rows == (("Cabeçalho",),)
    said = [w.message for w in document.report.warnings if w.kind == "Truncated"]
    assert [message.split(" cut at ")[0] for message in said] == [
        "sheet 'Folha'", "sheet 'Longe'"]
