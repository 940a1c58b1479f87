"""Recognising the header of a procurement item table, in Portuguese, accents or not.

A budget table (*planilha orçamentária*) heads its columns with variants of
ITEM / DESCRIÇÃO / UND / QUANT / VALOR UNIT. / VALOR TOTAL; a SINAPI
composition table with CÓDIGO / SERVIÇO / UNID. / QTDE.; an auction with
LOTE / DESCRIÇÃO. Each header cell is classified into the roles it names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

ROLES: dict[str, re.Pattern[str]] = {
    "item": re.compile(r"\b(?:item|itens|n[ºo°]|num|numero|seq|ordem)\b"),
    "code": re.compile(r"\b(?:cod|codigo|sinapi|sicro|referencia|ref)\b"),
    "lot": re.compile(r"\b(?:lote|lotes)\b"),
    "description": re.compile(
        r"\b(?:descri\w*|discrimina\w*|especifica\w*|produto|servicos?|materia(?:l|is)"
        r"|objeto|insumo|composicao)\b"
    ),
    "unit": re.compile(r"\b(?:und|un|unid|unidade|u\s?\.?\s?m|medida)\b"),
    "quantity": re.compile(r"\b(?:quant\w*|qtd\w*|qt)\b"),
    "value": re.compile(r"\b(?:valor|valores|preco|precos|custo|vl|vlr|total|subtotal)\b"
                        r"|\b[vp]\s?\.\s?(?:unit|total)"),
}


def fold(text: str) -> str:
    """Lower case without accents: ``"DESCRIÇÃO"`` becomes ``"descricao"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def cell_roles(cell: str) -> frozenset[str]:
    """The roles a header cell names (several when a cell reads ``VALOR TOTAL QUANT``)."""
    folded = fold(cell)
    return frozenset(role for role, pattern in ROLES.items() if pattern.search(folded))


@dataclass(frozen=True)
class HeaderColumns:
    """Which columns of a header hold quantities and values."""

    roles: frozenset[str]
    quantity: int | None
    values: tuple[int, ...]


def header_columns(header: Sequence[str]) -> HeaderColumns:
    """Classify a header row: the roles present and the quantity and value columns."""
    roles: set[str] = set()
    quantity: int | None = None
    values: list[int] = []
    for col, cell in enumerate(header):
        found = cell_roles(cell)
        roles |= found
        if "quantity" in found and quantity is None:
            quantity = col
        elif "value" in found:
            values.append(col)
    return HeaderColumns(frozenset(roles), quantity, tuple(values))


def is_item_header(header: Sequence[str]) -> bool:
    """True when a header row names the columns of an item table.

    >>> is_item_header(["ITEM", "DESCRIÇÃO", "UND", "QUANT", "VALOR UNIT.", "VALOR TOTAL"])
    True
    >>> is_item_header(["Nome", "Cidade", "Idade"])
    False
    """
    roles = header_columns(header).roles
    key = bool(roles & {"item", "code"})
    described = "description" in roles and "quantity" in roles
    if described and (key or bool(roles & {"unit", "value"})):
        return True
    if key and "unit" in roles and "quantity" in roles:
        return True
    return "lot" in roles and bool(roles & {"description", "item"})
