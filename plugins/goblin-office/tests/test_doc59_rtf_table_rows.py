"""RTF table rows laid out as the docx reader lays them out: one line a row, its cells
apart by tabs.

Each ``\\cell`` put out a tab and each ``\\par`` a line break, so every row ended with
a tab (an empty last column for whatever splits the line at tabs), a cell of two
paragraphs split its row over two lines, and a table nested in a cell (``\\nestcell``,
and the ``\\nonesttables`` copy a writer adds for readers without nested tables) broke
the row holding it into lines of its own. A row is now one line: no tab after its last
cell, a cell's paragraphs and a nested table's cells joined by spaces inside it, as the
same document saved as .docx reads.
"""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document

Read = Callable[..., Document]


def _rtf(body: bytes) -> bytes:
    return rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 Antes.\par " + body + rb"\pard Depois.\par}"


_ROW = rb"\trowd\cellx2000\cellx4000 "


def test_a_row_has_no_tab_after_its_last_cell(read: Read) -> None:
    body = (_ROW + rb"\pard\intbl Alfa\cell Beta\cell\row "
            + _ROW + rb"\pard\intbl Gama\cell\cell\row ")
    document = read(_rtf(body), "tabela.rtf")
    assert document.text.splitlines() == ["Antes.", "Alfa\tBeta", "Gama\t", "Depois."]


def test_a_cell_of_two_paragraphs_stays_on_its_row(read: Read) -> None:
    body = _ROW + rb"\pard\intbl Primeira linha\par Segunda linha\cell Beta\cell\row "
    document = read(_rtf(body), "tabela.rtf")
    assert document.text.splitlines() == ["Antes.", "Primeira linha Segunda linha\tBeta",
                                          "Depois."]


def test_a_nested_table_is_read_inside_its_cell(read: Read) -> None:
    # as LibreOffice and Word write it: the inner rows' properties in a starred group,
    # and a copy of the row end for readers without nested tables
    inner_row = (rb"{\*\nesttableprops\trowd\cellx1000\cellx2000\nestrow}"
                 rb"{\nonesttables\par}")
    body = (_ROW + rb"\pard\intbl A1\cell\pard\intbl B1\cell\row "
            + _ROW + rb"\pard\intbl A2\cell\pard\intbl\par\pard\intbl\itap2 n11\nestcell"
            rb"\pard\intbl\itap2 n12\nestcell" + inner_row
            + rb"\pard\intbl\itap2 n21\nestcell\pard\intbl\itap2 n22\nestcell" + inner_row
            + rb"\pard\intbl\cell\row ")
    document = read(_rtf(body), "aninhada.rtf")
    assert document.text.splitlines() == ["Antes.", "A1\tB1", "A2\tn11 n12 n21 n22",
                                          "Depois."]


def test_a_list_label_group_inside_a_cell_keeps_the_row_whole(read: Read) -> None:
    # the label group resets its paragraph properties (\pard) for itself alone
    body = (_ROW + rb"\pard\intbl{\listtext\pard\plain 1.\tab}Item\par Mais\cell"
            rb" Beta\cell\row ")
    document = read(_rtf(body), "lista.rtf")
    assert document.text.splitlines() == ["Antes.", "1.\tItem Mais\tBeta", "Depois."]


def test_paragraphs_after_the_table_are_lines_of_their_own(read: Read) -> None:
    body = _ROW + rb"\pard\intbl Alfa\cell Beta\cell\row\pard Um.\par Dois.\par "
    document = read(_rtf(body), "tabela.rtf")
    assert document.text.splitlines() == ["Antes.", "Alfa\tBeta", "Um.", "Dois.", "Depois."]
