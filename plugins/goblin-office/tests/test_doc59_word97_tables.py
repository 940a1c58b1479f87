"""Word 97-2003 tables read as rows of cells, as every other table is.

antiword draws a table in its text output: each cell padded to its column between bars,
a long cell's text wrapped onto the lines below (which cannot be told from a row whose
first cells are empty), a bar inside a cell drawn like the bars between cells. Such a
drawing came out as the page text (``|Row 1 Col 1      |Row 1 Col 2      |``), and the
page had no Table. Each drawn table is now replaced by its rows of cells, as antiword's
DocBook output gives them: cells tab-separated in the text, a ``Table`` on the page. A
paragraph written between bars is no table and stays as written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from packages import libreoffice_saved

from goblin_core import Document
from goblin_core.testing.corpus import corpus_dir, require_binary

Read = Callable[..., Document]

_LONG = ("Um texto de célula bem longo que certamente passa da largura da coluna "
         "que o antiword calcula para ela e continua mais um pouco")


def test_a_table_reads_as_rows_of_cells(read: Read) -> None:
    require_binary("antiword", "antiword")
    path = corpus_dir(__file__) / "office" / "testWORD_various.doc"
    document = read(path.read_bytes(), path.name)
    assert document.parsed_by == ("office.antiword",)
    lines = document.text.splitlines()
    assert "Row 1 Col 1\tRow 1 Col 2\tRow 1 Col 3" in lines
    assert "Row 2 Col 1\tRow 2 Col 2\tRow 2 Col 3" in lines
    assert not any(line.startswith("|") for line in lines)
    (table,) = document.pages[0].tables
    assert table.rows[1] == ("Row 2 Col 1", "Row 2 Col 2", "Row 2 Col 3")


def _saved_as_doc(tmp_path: Path, cells: dict[tuple[int, int], str]) -> bytes:
    """A document of a paragraph, a table of two rows and three columns holding
    ``cells``, a paragraph written between bars and a last paragraph, as LibreOffice
    saves it in Word 97 format."""
    soffice = require_binary("soffice", "libreoffice-writer-nogui")
    import docx

    report = docx.Document()
    report.add_paragraph("Antes da tabela")
    table = report.add_table(rows=2, cols=3)
    for (row, column), text in cells.items():
        table.cell(row, column).text = text
    for text in ("|texto entre barras|", "Depois"):
        report.add_paragraph(text)
    source = tmp_path / "tabela.docx"
    report.save(str(source))
    return libreoffice_saved(soffice, source, "doc")


def test_wrapped_cells_bars_and_empty_cells_keep_their_rows(read: Read,
                                                           tmp_path: Path) -> None:
    require_binary("antiword", "antiword")
    saved = _saved_as_doc(tmp_path, {(0, 0): "Curto", (0, 1): _LONG, (0, 2): "C|D",
                                     (1, 0): "Linha dois", (1, 2): "fim"})
    document = read(saved, "tabela.doc")
    assert document.parsed_by == ("office.antiword",)
    assert document.text.splitlines() == [
        "Antes da tabela", f"Curto\t{_LONG}\tC|D", "Linha dois\t\tfim",
        "|texto entre barras|", "Depois"]
    (found,) = document.pages[0].tables
    assert found.rows == (("Curto", _LONG, "C|D"), ("Linha dois", "", "fim"))
