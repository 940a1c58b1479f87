"""An empty cell of a StructuredExtractor table is None, as in GoblinTools 0.13.4,
which cleans every table's cells that way, whatever the source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import goblin_core.compat as compat

GAPS_CSV = ("Item,Descrição,Qtd,Unid,Valor Unitário\n1,Cadeira,,un,\"100,00\"\n"
            "2,Mesa,5,,\"50,00\"\n3,Armário,2,un,\n")


def _gaps(tmp_path: Path) -> Path:
    path = tmp_path / "itens.csv"
    path.write_text(GAPS_CSV, encoding="utf-8")
    return path


def test_an_empty_cell_is_none(tmp_path: Path) -> None:
    doc = compat.StructuredExtractor().extract_from_file(_gaps(tmp_path))
    assert doc.tables[0].rows[1:] == [["1", "Cadeira", None, "un", "100,00"],
                                      ["2", "Mesa", "5", None, "50,00"],
                                      ["3", "Armário", "2", "un", None]]


def test_the_table_with_gaps_is_goblintools_table(goblintools: Any, tmp_path: Path) -> None:
    path = _gaps(tmp_path)
    theirs = goblintools.StructuredExtractor().extract_from_file(str(path))
    ours = compat.StructuredExtractor().extract_from_file(str(path))
    assert [t.rows for t in ours.tables] == [t.rows for t in theirs.tables]


def test_a_table_with_none_cells_renders_as_empty_cells(tmp_path: Path) -> None:
    extractor = compat.StructuredExtractor()
    markdown = extractor.to_full_md(extractor.extract_from_file(_gaps(tmp_path)))
    assert "None" not in markdown and "Cadeira" in markdown
