"""EasyOCR's detections put back into lines of text, top to bottom, left to right."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Detection:
    """One text box EasyOCR read: its text, confidence in [0, 1] and vertical extent."""

    text: str
    confidence: float
    left: float
    top: float
    bottom: float

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


def detections(raw: Sequence[Sequence[Any]]) -> list[Detection]:
    """``readtext(detail=1)`` output (box, text, confidence) as Detections."""
    found = []
    for box, text, confidence in raw:
        xs = [float(p[0]) for p in box]
        ys = [float(p[1]) for p in box]
        if str(text).strip():
            found.append(Detection(str(text).strip(), float(confidence), min(xs), min(ys), max(ys)))
    return found


def join_lines(found: Sequence[Detection]) -> str:
    """Boxes whose middles lie within half a box height of each other share a line.

    >>> a = Detection("world", 0.9, 50, 0, 10)
    >>> b = Detection("hello", 0.9, 0, 1, 11)
    >>> c = Detection("next", 0.9, 0, 20, 30)
    >>> join_lines([c, a, b])
    'hello world\\nnext'
    """
    lines: list[list[Detection]] = []
    for item in sorted(found, key=lambda d: d.middle):
        current = lines[-1] if lines else None
        if current and abs(item.middle - current[0].middle) <= _half_height(current[0]):
            current.append(item)
        else:
            lines.append([item])
    return "\n".join(" ".join(d.text for d in sorted(line, key=lambda d: d.left)) for line in lines)


def _half_height(detection: Detection) -> float:
    return (detection.bottom - detection.top) / 2


def mean_confidence(found: Sequence[Detection]) -> float:
    """Mean confidence weighted by text length; 0 with nothing read."""
    total = sum(len(d.text) for d in found)
    if not total:
        return 0.0
    return round(sum(d.confidence * len(d.text) for d in found) / total, 4)
