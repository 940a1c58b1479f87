"""Drop capitals drawn apart from their paragraph, put back at its head.

A drop capital is the first letter of a paragraph set several lines tall, the paragraph's
first lines beside it. LibreOffice draws it after the paragraph's text, wkhtmltopdf before
anything else on the page, so PDFium's text has it apart, on a line of its own (``inally,
every program`` ... ``F``), and a page rebuilt from its glyph boxes finds it a run of its
own. Both are put back:
the capital opens the top line beside it, run together with the word there, or set
apart by a space when that line starts further in than the next (the capital is a word
of its own: ``A`` / `` long time ago``). A capital drawn before its paragraph is read in
place already (``generated_gaps`` and ``lines`` see to its gap).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pypdfium2 as pdfium

from goblin_pdf.generated_gaps import DROP_GAP, WORD_INDENT
from goblin_pdf.loose_boxes import Box, LooseBoxes

if TYPE_CHECKING:  # the page reader imports this module, and must not load NumPy
    from goblin_pdf.layout.lines import Run

# A line of PDFium's text holding one letter, after an opening quote when the paragraph
# opens with one (a browser's ``::first-letter`` takes it in), and nothing else. It must
# be a capital: a lower-case one alone is a formula's (a numerator, an index under a sum).
_OPENING_QUOTES = "\"'\u201c\u2018\u201e\u00ab"
_CAPITAL = re.compile(f"[{_OPENING_QUOTES}]?" + r"[^\W\d_]")
# Matched after a line break (a literal first lets the scan run in C), and at the start.
_LONE_LETTER_LINE = re.compile(f"\n({_CAPITAL.pattern})" + r"(?=\r\n|\Z)")
_LONE_LETTER_START = re.compile(f"({_CAPITAL.pattern})" + r"(?=\r\n|\Z)")
_TALL = 2.0  # a drop capital's height, in the heights of the lines beside it, at least
# How far right of the capital (in their heights) the lines beside it start, at most, and
# how far into it (a capital's box takes in its side bearing). The nearest must start
# within ``DROP_GAP`` of its height, as a capital drawn in place must.
_REACH = 2.0
_INTO = 0.5
_BESIDE = 2  # lines beside a drop capital, at least: a raised capital stands by one only
_MOST_CAPITALS = 8  # tall lone letters of a page looked at: a page has one or two


def _beside(capital: Box, height: float, left: float, centre: float) -> bool:
    """Whether a line of ``height``, starting at ``left``, its middle at ``centre``,
    stands beside ``capital``."""
    return (capital[3] - capital[1] >= _TALL * height and capital[1] < centre < capital[3]
            and capital[2] - _INTO * height <= left <= capital[2] + _REACH * height)


def _close(right: float, lines: list[tuple[float, float]]) -> bool:
    """Whether the nearest of ``lines`` (left edge, height) beside a capital ending at
    ``right`` starts close enough to it to be its text."""
    left, height = min(lines)
    return left - right <= DROP_GAP * height


def _head(capital: str, first_word: str, word_apart: bool) -> str:
    """The capital and the word it goes before, run together unless the capital is a
    word of its own or the word does not go on in lower case."""
    return capital + (" " if word_apart or not first_word[:1].islower() else "") + first_word


def drop_capital_edits(textpage: pdfium.PdfTextPage, text: str) -> dict[int, str]:
    """Edits (as ``generated_gaps.apply_edits`` takes them) to PDFium's ``text`` of
    ``textpage`` that move each drop capital standing on a line of its own to the head
    of the top line beside it."""
    at_start = _LONE_LETTER_START.match(text)
    lines = ([at_start] if at_start else []) + list(_LONE_LETTER_LINE.finditer(text))
    found = [(m.start(1), m.end(1)) for m in lines if text[m.end(1) - 1].isupper()]
    found = found[:_MOST_CAPITALS]
    if not found:
        return {}
    boxes = LooseBoxes(textpage)
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    edits: dict[int, str] = {}
    for index, end in found:
        capital = boxes(end - 1)
        opening = boxes(index)
        if capital is None or opening is None:
            continue
        capital = (opening[0], capital[1], capital[2], capital[3])
        beside: list[tuple[float, int, Box]] = []
        for start in starts:
            if start >= len(text) or start == index or text[start].isspace():
                continue
            box = boxes(start)
            if box is not None and _beside(capital, box[3] - box[1], box[0],
                                           (box[1] + box[3]) / 2):
                beside.append(((box[1] + box[3]) / 2, start, box))
        if len(beside) < _BESIDE or not _close(capital[2], [
                (box[0], box[3] - box[1]) for _, _, box in beside]):
            continue
        beside.sort(reverse=True)
        (_, first, top), (_, _, below) = beside[0], beside[1]
        apart = top[0] - below[0] > WORD_INDENT * (top[3] - top[1])
        edits[first] = _head(text[index:end], text[first], apart)
        edits.update(dict.fromkeys(range(index, end), ""))
        # its line break goes with it
        if text[end:end + 2] == "\r\n":
            edits[end] = ""
        elif text[index - 2:index] == "\r\n":
            edits[index - 2] = ""
    return edits


def attach_drop_capitals(runs: Sequence[Run]) -> list[Run]:
    """``runs`` with each drop capital that is a run of its own joined to the head of
    the top run beside it."""
    runs = list(runs)
    if len(runs) < _BESIDE + 1:
        return runs
    lone = [k for k, run in enumerate(runs)
            if run.chars <= 2 and len(run.words) == 1 and run.words[0][-1:].isupper()
            and _CAPITAL.fullmatch(run.words[0])]
    if not lone:
        return runs
    usual = statistics.median(run.height for run in runs)
    found = [k for k in lone if runs[k].height >= _TALL * usual]
    dropped = []
    for k in found[:_MOST_CAPITALS]:
        capital = runs[k]
        capital_box = (capital.x0, capital.y0, capital.x1, capital.y1)
        beside = sorted((j for j, run in enumerate(runs)
                         if j != k and run.words and _beside(capital_box, run.height, run.x0,
                                                             run.yc)),
                        key=lambda j: -runs[j].yc)
        if len(beside) < _BESIDE or not _close(capital.x1, [
                (runs[j].x0, runs[j].height) for j in beside]):
            continue
        top, below = runs[beside[0]], runs[beside[1]]
        apart = top.x0 - below.x0 > WORD_INDENT * top.height
        head = _head(capital.words[0], top.words[0], apart)
        runs[beside[0]] = top._replace(words=(*head.split(" "), *top.words[1:]),
                                       x0=min(top.x0, capital.x0), chars=top.chars + 1)
        dropped.append(k)
    return [run for k, run in enumerate(runs) if k not in dropped]
