"""Tesseract's word table (its TSV output): the confidence of a page's reading."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass


@dataclass(frozen=True)
class Word:
    """One recognised word and Tesseract's confidence in it (0-100)."""

    text: str
    confidence: float
    height: int = 0
    box: tuple[int, int, int, int] = (0, 0, 0, 0)


def parse_tsv(tsv: str) -> list[Word]:
    """The words of a TSV reading, skipping layout rows (confidence -1) and blanks.

    >>> parse_tsv("level\\theight\\tconf\\ttext\\n5\\t12\\t91.5\\tOlá\\n4\\t30\\t-1\\t\\n")
    [Word(text='Olá', confidence=91.5, height=12, box=(0, 0, 0, 12))]
    """
    reader = csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE)
    words = []
    for row in reader:
        text = (row.get("text") or "").strip()
        try:
            confidence = float(row.get("conf") or -1)
        except ValueError:
            continue
        if text and confidence >= 0:
            box = (_int(row.get("left")), _int(row.get("top")), _int(row.get("width")),
                   _int(row.get("height")))
            words.append(Word(text, confidence, box[3], box))
    return words


def mean_confidence(words: list[Word]) -> float:
    """Mean word confidence in [0, 1], weighted by word length; 0 with no words.

    Weighting by length keeps a page of confident long words from being dragged
    down by stray one-letter specks, and the reverse.

    >>> mean_confidence([Word("abc", 90), Word("x", 10)])
    0.7
    """
    total = sum(len(w.text) for w in words)
    if not total:
        return 0.0
    return round(sum(w.confidence * len(w.text) for w in words) / total / 100, 4)


def median_height(words: list[Word]) -> int:
    """The median word height in pixels (0 with no words): how big the page's text is.

    >>> median_height([Word("a", 90, 10), Word("b", 90, 14), Word("c", 90, 40)])
    14
    """
    heights = sorted(w.height for w in words if w.height > 0)
    return heights[len(heights) // 2] if heights else 0


def _int(value: str | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0
