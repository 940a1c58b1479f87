"""Words of a PDF page and the text lines they form, for finding tables without lines.

pdfplumber joins glyphs into words; a word breaks where the gap between
two glyphs exceeds a share of the glyph size (``WORD_GAP_RATIO``), so small
print set with narrow spaces is not read as one long word. Lines are words
whose boxes overlap vertically, read left to right.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: Glyphs further apart than this share of their size start a new word.
WORD_GAP_RATIO = 0.15
#: A word joins a line when it shares this share of the smaller height with it.
SAME_LINE_OVERLAP = 0.5

BBox = tuple[float, float, float, float]


@dataclass(frozen=True)
class Word:
    """One word and its box in points, ``top`` measured from the top of the page."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class TextLine:
    """Words on one baseline, left to right."""

    words: tuple[Word, ...]

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return max(w.x1 for w in self.words)

    @property
    def height(self) -> float:
        return statistics.median(w.height for w in self.words)


def centre_inside(word: Word, box: BBox) -> bool:
    """True when the centre of ``word`` lies in ``box`` (x0, top, x1, bottom)."""
    cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def page_words(page: Any, outside: Sequence[BBox] = ()) -> list[Word]:
    """The upright words of a pdfplumber page, leaving out those inside ``outside`` boxes."""
    words = []
    for raw in page.extract_words(x_tolerance_ratio=WORD_GAP_RATIO, keep_blank_chars=False):
        if not raw.get("upright", True) or not raw["text"].strip():
            continue
        word = Word(raw["text"], float(raw["x0"]), float(raw["x1"]), float(raw["top"]),
                    float(raw["bottom"]))
        if word.height > 0 and not any(centre_inside(word, box) for box in outside):
            words.append(word)
    return words


def _shares_line(word: Word, top: float, bottom: float) -> bool:
    overlap = min(bottom, word.bottom) - max(top, word.top)
    return overlap >= SAME_LINE_OVERLAP * min(word.height, bottom - top)


def text_lines(words: Iterable[Word]) -> list[TextLine]:
    """Words grouped into lines, top to bottom; each line's words left to right."""
    # Each open group keeps its vertical extent: [top, bottom, words].
    groups: list[list[Any]] = []
    for word in sorted(words, key=lambda w: (w.top, w.x0)):
        for group in reversed(groups[-3:]):
            if _shares_line(word, group[0], group[1]):
                group[0], group[1] = min(group[0], word.top), max(group[1], word.bottom)
                group[2].append(word)
                break
        else:
            groups.append([word.top, word.bottom, [word]])
    lines = [TextLine(tuple(sorted(g[2], key=lambda w: w.x0))) for g in groups]
    return sorted(lines, key=lambda line: line.top)


def median_height(lines: Sequence[TextLine]) -> float:
    """The typical glyph height of some lines (0 for none)."""
    heights = [w.height for line in lines for w in line.words]
    return statistics.median(heights) if heights else 0.0
