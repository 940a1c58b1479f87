"""The GoblinTools 0.13 API over goblin: change one import and keep your code.

``from goblintools import TextExtractor`` becomes
``from goblin_core.compat import TextExtractor``; every name GoblinTools
exports is here with the same signature, defaults and return forms, and
every file goes through goblin's pipeline. docs/migrating-from-goblintools.md
maps each call to its goblin-native equivalent.

Importing this package needs only goblin-core: formats, OCR, archives and
tables come from the installed plugins when a call needs them.
"""

from __future__ import annotations

from typing import Any

from goblin_core.compat.cleaning import TextCleaner
from goblin_core.compat.extractor import TextExtractor
from goblin_core.compat.files import ArchiveHandler, ExtractionBudget, FileManager, FileValidator
from goblin_core.compat.from_bytes import BytesExtractionResult, extract_from_bytes
from goblin_core.compat.logging_policy import configure
from goblin_core.compat.ocr import OCRProcessor
from goblin_core.compat.report import ExtractionReport, PageExtraction
from goblin_core.compat.settings import ArchiveLimits, GoblinConfig, OCRConfig
from goblin_core.compat.tables import (
    extract_pdf_tables,
    is_meaningful_table,
    normalize_table_rows,
    table_to_markdown,
)

#: The GoblinTools release whose API this package follows: code that reads
#: ``goblintools.__version__`` keeps working after the import changes.
__version__ = "0.13.4"

# Resolved on first use: they import goblin_core.structured.
_LAZY = {"StructuredExtractor", "StructuredDocument", "TableBlock", "TableQuality"}

__all__ = [
    "ArchiveHandler",
    "ArchiveLimits",
    "BytesExtractionResult",
    "ExtractionBudget",
    "ExtractionReport",
    "FileManager",
    "FileValidator",
    "GoblinConfig",
    "OCRConfig",
    "OCRProcessor",
    "PageExtraction",
    "StructuredDocument",
    "StructuredExtractor",
    "TableBlock",
    "TableQuality",
    "TextCleaner",
    "TextExtractor",
    "configure",
    "extract_from_bytes",
    "extract_pdf_tables",
    "is_meaningful_table",
    "normalize_table_rows",
    "table_to_markdown",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from goblin_core.compat import structured

        return getattr(structured, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
