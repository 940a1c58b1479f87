"""extract_pdf_tables cleans the rows goblin's readers hand over without joining rows
that are rows: one under a merged key cell, or a sheet's row without an item number."""

from __future__ import annotations

from typing import Any

import pytest

import goblin_core.api
import goblin_core.compat as compat
from goblin_core.model import Document, Page, Table

REGIONS = (
    ("Região", "Cidade", "Bioma", "Clima"),
    ("Norte", "Belém", "Amazônia", "Equatorial"),
    ("", "Manaus", "Floresta", "Úmido"),
    ("Sul", "Curitiba", "Mata", "Temperado"),
)
FRUITS = (
    ("Item", "Fruta", "Qtd", "Valor"),
    ("1", "Maçã", "3", "6,00"),
    ("", "Pera", "", ""),
    ("2", "Uva", "5", "10,00"),
)


def _found(monkeypatch: pytest.MonkeyPatch, mime: str, name: str,
           rows: tuple[tuple[str, ...], ...]) -> list[list[list[str | None]]]:
    page = Page(number=1, text="", engine="test", status="clean", confidence=1.0,
                tables=(Table(rows=rows, page=1),))

    def extract(path: Any, **options: Any) -> Document:
        return Document(name=str(path), mime=mime, pages=(page,))

    monkeypatch.setattr(goblin_core.api, "extract", extract)
    return [t["rows"] for t in compat.extract_pdf_tables(name)]


def test_rows_under_a_merged_key_stay_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _found(monkeypatch, "application/pdf", "regioes.pdf", REGIONS) == [
        [[c or None for c in row] for row in REGIONS]]


def test_a_csv_row_without_an_item_number_stays_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _found(monkeypatch, "text/csv", "frutas.csv", FRUITS) == [
        [[c or None for c in row] for row in FRUITS]]


def test_a_pdf_description_wrapped_onto_its_own_row_still_joins_its_item(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _found(monkeypatch, "application/pdf", "frutas.pdf", FRUITS)
    assert rows == [[["Item", "Fruta", "Qtd", "Valor"], ["1", "Maçã Pera", "3", "6,00"],
                     ["2", "Uva", "5", "10,00"]]]
