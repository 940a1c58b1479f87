"""The facade's structured documents have GoblinTools' shapes: lists its users compare
with lists, append to and change, not goblin's immutable tuples."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import goblin_core.compat as compat

ITEMS_CSV = ('ITEM,DESCRICAO,UND,QUANT,VALOR UNIT\n1,Caneta azul,UN,10,"1,50"\n'
             '2,Papel A4,CX,5,"25,00"\n3,Grampeador,UN,2,"18,90"\n')
ROWS = [["ITEM", "DESCRICAO", "UND", "QUANT", "VALOR UNIT"],
        ["1", "Caneta azul", "UN", "10", "1,50"],
        ["2", "Papel A4", "CX", "5", "25,00"],
        ["3", "Grampeador", "UN", "2", "18,90"]]


def _items(tmp_path: Path) -> Path:
    path = tmp_path / "itens.csv"
    path.write_text(ITEMS_CSV, encoding="utf-8")
    return path


def test_tables_and_rows_are_lists_that_compare_with_lists(tmp_path: Path) -> None:
    doc = compat.StructuredExtractor().extract_from_file(_items(tmp_path))
    assert isinstance(doc, compat.StructuredDocument)
    assert isinstance(doc.tables, list)
    assert doc.tables[0].rows == ROWS
    assert isinstance(doc.tables[0].quality, compat.TableQuality)
    assert doc.tables[0].quality.ok_for_items
    assert compat.StructuredExtractor().extract_from_file(tmp_path / "absent.csv").tables == []


def test_documents_can_be_changed_as_in_goblintools(tmp_path: Path) -> None:
    doc = compat.StructuredExtractor().extract_from_file(_items(tmp_path))
    doc.ok_for_items = False
    doc.tables[0].rows.append(["4", "Clips", "CX", "1", "3,00"])
    doc.tables.append(dataclasses.replace(doc.tables[0], index=1))
    assert len(doc.tables) == 2 and doc.tables[1].rows[-1][1] == "Clips"


def test_full_md_takes_a_document_built_by_hand(tmp_path: Path) -> None:
    quality = compat.TableQuality(meaningful=True, has_itemish_header=True, n_data_rows=1,
                                  qty_parse_rate=1.0, value_parse_rate=1.0, ok_for_items=True)
    table = compat.TableBlock(index=0, source="pdf", rows=[["ITEM", "QUANT"], ["1", None]],
                              quality=quality, page=1)
    doc = compat.StructuredDocument(path="edital.pdf", tables=[table], prose="Edital 12/2026")
    extractor = compat.StructuredExtractor()
    markdown = extractor.to_full_md(doc)
    assert "Edital 12/2026" in markdown
    assert "<tr><td>1</td><td></td></tr>" in markdown
    target = tmp_path / "out" / "full.md"
    assert extractor.write_full_md(doc, target)
    assert target.read_text(encoding="utf-8") == markdown


def test_folder_and_ok_files_give_the_same_shapes(tmp_path: Path) -> None:
    path = _items(tmp_path)
    extractor = compat.StructuredExtractor()
    for docs in (extractor.extract_from_folder(tmp_path), extractor.extract_ok_files([path])):
        assert [type(d) for d in docs] == [compat.StructuredDocument]
        assert docs[0].tables[0].rows == ROWS


def test_same_document_as_goblintools(goblintools: Any, tmp_path: Path) -> None:
    path = _items(tmp_path)
    theirs = goblintools.StructuredExtractor().extract_from_file(str(path))
    ours = dataclasses.asdict(compat.StructuredExtractor().extract_from_file(str(path)))
    assert ours.pop("page_texts") == []
    assert ours == dataclasses.asdict(theirs)
