"""Tesseract's word table (its TSV output): the confidence of a page's reading."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Longest box side or coordinate kept: Tesseract's page coordinates are 16-bit, so
#: anything longer is garbage, and drawing it would overflow Pillow's C integers.
_LONGEST = 1 << 16


@dataclass(frozen=True)
class Word:
    """One recognised word and Tesseract's confidence in it (0-100)."""

    text: str
    confidence: float
    height: int = 0
    box: tuple[int, int, int, int] = (0, 0, 0, 0)


def parse_tsv(tsv: str) -> list[Word]:
    """The words of a TSV reading, skipping layout rows (confidence -1) and blanks.

    Tesseract's TSV has no quoting, so rows are split on tabs, not read with
    ``csv`` (which refuses a field over 128 KB). Values that are not numbers
    read as missing; confidences are kept within 0-100 (a NaN row is skipped)
    and box sides within ``_LONGEST``, whatever the binary printed.

    >>> parse_tsv("level\\theight\\tconf\\ttext\\n5\\t12\\t91.5\\tOlá\\n4\\t30\\t-1\\t\\n")
    [Word(text='Olá', confidence=91.5, height=12, box=(0, 0, 0, 12))]
    >>> parse_tsv("conf\\ttext\\ninf\\tfar\\nnan\\tnot\\n")
    [Word(text='far', confidence=100.0, height=0, box=(0, 0, 0, 0))]
    """
    rows = tsv.splitlines()
    if not rows:
        return []
    columns = {name.strip(): i for i, name in enumerate(rows[0].split("\t"))}
    if "text" not in columns or "conf" not in columns:
        return []
    words = []
    for row in rows[1:]:
        fields = row.split("\t")
        text = _field(fields, columns, "text").strip()
        confidence = _float(_field(fields, columns, "conf"))
        if not text or confidence < 0:
            continue
        box = (_int(_field(fields, columns, "left")), _int(_field(fields, columns, "top")),
               _int(_field(fields, columns, "width")), _int(_field(fields, columns, "height")))
        words.append(Word(text, min(confidence, 100.0), box[3], box))
    return words


def _field(fields: list[str], columns: dict[str, int], name: str) -> str:
    at = columns.get(name)
    return fields[at] if at is not None and at < len(fields) else ""


def _float(value: str) -> float:
    """A confidence; -1 (a layout row) when missing, not a number or NaN."""
    try:
        number = float(value)
    except ValueError:
        return -1.0
    return number if not math.isnan(number) else -1.0


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
    """A box coordinate within 0.._LONGEST; 0 when it is not a whole number."""
    try:
        return min(max(int(value or 0), 0), _LONGEST)
    except ValueError:
        return 0
