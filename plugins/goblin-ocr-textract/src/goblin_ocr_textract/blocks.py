"""Text out of Textract's blocks: LINE blocks in reading order, grouped by page.

Only LINE blocks are read, never their relationships: a service (or a proxy
in front of it) can answer with anything, and ids that point nowhere or at
each other must not matter. Values of the wrong type are read as missing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from goblin_core.model import OCRResult


def pages_from_blocks(blocks: Any) -> dict[int, OCRResult]:
    """Page number -> text (LINE blocks joined by newlines) and mean line confidence.

    >>> pages_from_blocks([{"BlockType": "LINE", "Text": "Olá", "Confidence": 99.0, "Page": 2}])
    {2: OCRResult(text='Olá', confidence=0.99)}
    >>> pages_from_blocks([{"BlockType": "LINE", "Text": "x", "Confidence": float("nan")}])
    {1: OCRResult(text='x', confidence=0.0)}
    """
    if not isinstance(blocks, list | tuple):
        return {}
    lines: dict[int, list[tuple[str, float]]] = {}
    for block in blocks:
        if not isinstance(block, Mapping) or block.get("BlockType") != "LINE":
            continue
        text = block.get("Text")
        if not isinstance(text, str) or not text:
            continue
        page = _page(block.get("Page"))
        lines.setdefault(page, []).append((text, _confidence(block.get("Confidence"))))
    return {page: _result(found) for page, found in sorted(lines.items())}


def _page(value: Any) -> int:
    """A block's page number; 1 when it is missing or not a positive whole number."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _confidence(value: Any) -> float:
    """A line's confidence (0-100); 0 when missing, not a number or NaN, clamped to 0-100."""
    if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value):
        return 0.0
    return min(max(float(value), 0.0), 100.0)


def _result(lines: list[tuple[str, float]]) -> OCRResult:
    text = "\n".join(t for t, _ in lines)
    total = sum(len(t) for t, _ in lines)
    confidence = sum(len(t) * c for t, c in lines) / total / 100 if total else 0.0
    return OCRResult(text, round(min(max(confidence, 0.0), 1.0), 4))
