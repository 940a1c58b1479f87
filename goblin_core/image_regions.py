"""Images of text on pages that have a text layer: cut out of the page image for OCR,
and their text put into the page's text where the image stands.

A page of text can carry an image of more text (a pasted scan of a signed form, a
screenshot, a product code printed as a picture). The page has plenty of text, so the
``auto`` rule does not OCR it, and that text is lost. A parser that knows where such
images are names them (``PageContent.image_regions``); the core renders the page once,
reads each region, and keeps what reads as text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from goblin_core.model import ImageRegion

#: The least OCR confidence a region's text needs: a photograph or a logo reads as a
#: few letters of low confidence, an image of printed text far above this.
MIN_CONFIDENCE = 0.6
#: A region's text needs a word of this many letters: noise from a picture rarely has one.
_WORD = re.compile(r"[^\W\d_]{3,}")


def crop(image: Any, region: ImageRegion) -> Any | None:
    """The part of a rendered page ``image`` (a PIL image) that ``region`` covers, or None
    when it is less than a few pixels each way."""
    width, height = image.size
    left, top, right, bottom = region.box
    box = (max(0, int(left * width)), max(0, int(top * height)),
           min(width, round(right * width)), min(height, round(bottom * height)))
    if box[2] - box[0] < 8 or box[3] - box[1] < 8:
        return None
    return image.crop(box)


def region_text(text: str, confidence: float) -> str:
    """A region's OCR as it goes into the page: its lines that read as words, '' when it
    is a picture's noise (too unsure, or no line of words).

    A banner or a logo beside a title reads as the title and a few stray marks; a line
    is kept when it has a word of three letters and is mostly letters and digits.

    >>> region_text("DIARIO OFICIAL\\n[0/2   7   o\\n=  .  2  -  a  :\\nMUNICIPIO DE X", 0.8)
    'DIARIO OFICIAL\\nMUNICIPIO DE X'
    >>> region_text("Product Code", 0.4)
    ''
    """
    if confidence < MIN_CONFIDENCE:
        return ""
    lines = [line.rstrip() for line in text.strip().splitlines()]
    kept = [line for line in lines if not line.strip() or _wordy(line)]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def without_known_lines(region: str, page_text: str) -> str:
    """``region`` without the lines the page's text already holds.

    An image behind a text layer that covers only part of it (a scan whose invisible OCR
    layer has its first lines, a caption typed over a picture of itself) reads those
    lines again. A line counts as held when the page text has it as a line, or, long
    enough not to turn up by chance (three words, fifteen letters), anywhere in it;
    compared without case, punctuation or spacing.

    >>> without_known_lines("Primeira linha do texto\\nSegunda linha", "Primeira linha do texto")
    'Segunda linha'
    >>> without_known_lines("Total\\nAssinado", "Total geral: 10")
    'Total\\nAssinado'
    """
    page_lines = {_comparable(line) for line in page_text.splitlines()}
    whole = _comparable(page_text)
    kept = []
    for line in region.splitlines():
        key = _comparable(line)
        if key and (key in page_lines or (_long_enough(key) and key in whole)):
            continue
        kept.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def _comparable(text: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", text.casefold()).split())


def _long_enough(key: str) -> bool:
    return len(key.split()) >= 3 and sum(ch.isalpha() for ch in key) >= 15


def _wordy(line: str) -> bool:
    marks = [ch for ch in line if not ch.isspace()]
    readable = sum(ch.isalnum() for ch in marks)
    return _WORD.search(line) is not None and readable >= 0.5 * len(marks)


def insert_texts(text: str, found: Sequence[tuple[str, str]]) -> str:
    """``text`` with each (before, region text) of ``found`` put in as a paragraph of its
    own: before the first line that starts with ``before`` after the previous one put in,
    else at the end.

    >>> insert_texts("Intro\\nAfter the image.\\n", [("After the", "MIDDLE: code 1")])
    'Intro\\n\\nMIDDLE: code 1\\n\\nAfter the image.\\n'
    >>> insert_texts("Only text", [("", "Stamp")])
    'Only text\\n\\nStamp'
    """
    at = 0
    for before, region in found:
        region = region.strip()
        if not region:
            continue
        where = _line_start(text, before, at) if before.strip() else -1
        if where < 0:
            text = f"{text.rstrip()}\n\n{region}" if text.strip() else region
            at = len(text)
            continue
        head, tail = text[:where].rstrip("\n"), text[where:]
        piece = f"{head}\n\n{region}\n\n" if head else f"{region}\n\n"
        text = piece + tail
        at = len(piece)
    return text


def _line_start(text: str, before: str, start: int) -> int:
    """Where the first line at or after ``start`` that starts with ``before`` begins (its
    spacing collapsed as the page text's may be), -1 when none does."""
    words = before.split()
    pattern = re.compile(r"(?m)^[ \t]*" + r"\s+".join(map(re.escape, words)))
    found = pattern.search(text, start)
    return found.start() if found is not None else -1
