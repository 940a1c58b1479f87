"""GoblinTools' StructuredExtractor, StructuredDocument and TableBlock: goblin's own.

goblin_core.structured keeps GoblinTools' names, fields and methods; its
documents are immutable, so ``tables`` defaults to an empty tuple where
GoblinTools made a fresh empty list.
"""

from __future__ import annotations

from goblin_core.structured import StructuredDocument, StructuredExtractor, TableBlock

__all__ = ["StructuredDocument", "StructuredExtractor", "TableBlock"]
