"""Tables a reader hands over are not folded again: a row whose key cell is blank (a
merged cell above it, a row with no item number) stays a row in the structured view."""

from __future__ import annotations

from goblin_core.model import Document, Page, Table
from goblin_core.structured import structure_document

REGIONS = (
    ("Região", "Cidade", "Bioma", "Clima"),
    ("Norte", "Belém", "Amazônia", "Equatorial"),
    ("", "Manaus", "Floresta", "Úmido"),
    ("Sul", "Curitiba", "Mata", "Temperado"),
    ("", "Porto Alegre", "Pampa", "Subtropical"),
)
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _structured_rows(mime: str, name: str) -> list[tuple[str, ...]]:
    page = Page(number=1, text="Regiões", engine="test", status="clean", confidence=1.0,
                tables=(Table(rows=REGIONS, page=1),))
    structured = structure_document(Document(name=name, mime=mime, pages=(page,)))
    assert len(structured.tables) == 1
    return list(structured.tables[0].rows)


def test_a_word_tables_rows_stay_rows() -> None:
    assert _structured_rows(DOCX, "regioes.docx") == list(REGIONS)


def test_a_pdf_tables_repaired_rows_are_not_folded_again() -> None:
    assert _structured_rows("application/pdf", "regioes.pdf") == list(REGIONS)


def test_repairing_the_rows_again_changes_nothing() -> None:
    from goblin_core.table_repair import normalize_table_rows

    once = normalize_table_rows([["Região", "Cidade", "Bioma"], ["Norte", "Belém", "Mata"],
                                 [None, "Manaus", "Floresta"], ["", "Pará", ""]])
    assert once == (("Região", "Cidade", "Bioma"), ("Norte", "Belém", "Mata"),
                    ("", "Manaus Pará", "Floresta"))
    assert normalize_table_rows(once) == once
