"""Text out of Textract's blocks: LINE blocks in reading order, grouped by page."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from goblin_core.model import OCRResult


def pages_from_blocks(blocks: Iterable[Mapping[str, Any]]) -> dict[int, OCRResult]:
    """Page number -> text (LINE blocks joined by newlines) and mean line confidence.

    >>> pages_from_blocks([{"BlockType": "LINE", "Text": "Olá", "Confidence": 99.0, "Page": 2}])
    {2: OCRResult(text='Olá', confidence=0.99)}
    """
    lines: dict[int, list[tuple[str, float]]] = {}
    for block in blocks:
        if block.get("BlockType") != "LINE" or not block.get("Text"):
            continue
        page = int(block.get("Page") or 1)
        lines.setdefault(page, []).append((str(block["Text"]), float(block.get("Confidence", 0))))
    return {page: _result(found) for page, found in sorted(lines.items())}


def _result(lines: list[tuple[str, float]]) -> OCRResult:
    text = "\n".join(t for t, _ in lines)
    total = sum(len(t) for t, _ in lines)
    confidence = sum(len(t) * c for t, c in lines) / total / 100 if total else 0.0
    return OCRResult(text, round(min(max(confidence, 0.0), 1.0), 4))
