"""Structured extraction: item tables with quality scores, and MinerU-style full.md.

>>> from goblin_core.structured import StructuredExtractor
>>> StructuredExtractor().supports("planilha.xlsx")
True
"""

from __future__ import annotations

import importlib
from typing import Any

from goblin_core.structured.brazilian_numbers import is_figure, is_number, parse_br_number
from goblin_core.structured.full_md import rows_to_html, to_full_md
from goblin_core.structured.item_header import is_item_header
from goblin_core.structured.model import StructuredDocument, TableBlock, TableQuality

# goblin_core.table_repair reads numbers from this package, and the extractor and
# scorer read table_repair: they load on first use so either side can be imported first.
_LAZY = {
    "STRUCTURED_MIMES": "goblin_core.structured.extractor",
    "STRUCTURED_SUFFIXES": "goblin_core.structured.extractor",
    "StructuredExtractor": "goblin_core.structured.extractor",
    "structure_document": "goblin_core.structured.extractor",
    "score_table": "goblin_core.structured.quality",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "STRUCTURED_MIMES",
    "STRUCTURED_SUFFIXES",
    "StructuredDocument",
    "StructuredExtractor",
    "TableBlock",
    "TableQuality",
    "is_figure",
    "is_item_header",
    "is_number",
    "parse_br_number",
    "rows_to_html",
    "score_table",
    "structure_document",
    "to_full_md",
]
