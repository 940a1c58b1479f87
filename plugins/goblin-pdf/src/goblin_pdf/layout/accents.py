"""Accents drawn as separate glyphs (TeX's ``O\\u{g}uz`` gives ``O˘guz``) put on their letter."""

from __future__ import annotations

import unicodedata

import numpy as np

from goblin_pdf.layout.accent_marks import DOTTED, SPACING_TO_COMBINING

_ACCENT_CODES = np.array([ord(c) for c in SPACING_TO_COMBINING], dtype=np.int64)
# How far (in the accent's height) the middle of an accent may stand from its letter's:
# TeX raises an accent over a capital by the capital's height above the lower case, about
# a fifth of the type's height; the line above or below is a whole line away, and a caret
# there (``The ^ operator``) is no accent of a letter under it.
_CENTRE_GAP = 0.6


def attach_accents(codes: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, dict[int, int]]:
    """Move each spacing accent onto the letter it overlaps.

    Returns the boxes with every attached accent placed just after its letter
    (so ordering puts it there) and a map accent index -> letter index. Only
    accents lying over or under a letter (horizontal overlap, vertical offset
    within ``_CENTRE_GAP`` of the accent's height) attach; a lone ``^`` in running text
    stays put, over a letter of the next line too.
    """
    is_accent = np.isin(codes, _ACCENT_CODES)
    accents = np.nonzero(is_accent)[0]
    if accents.size == 0:
        return box, {}
    letters = np.nonzero(~is_accent)[0]
    if letters.size == 0:
        return box, {}
    box = box.copy()
    links: dict[int, int] = {}
    lx0, ly0, lx1, ly1 = box[letters].T
    # what every accent is matched against, worked out once for the page
    letter_centre = (ly0 + ly1) / 2
    not_space = codes[letters] != 32
    for a in accents:  # accents are few; each is matched against all letters at once
        ax0, ay0, ax1, ay1 = box[a]
        height = max(ay1 - ay0, 1e-6)
        overlap = np.minimum(ax1, lx1) - np.maximum(ax0, lx0)
        centre_gap = np.abs((ay0 + ay1) / 2 - letter_centre)
        ok = (overlap > 0.3 * (ax1 - ax0)) & (centre_gap < _CENTRE_GAP * height)
        ok &= not_space
        if not ok.any():
            continue
        candidates = np.nonzero(ok)[0]
        best = letters[candidates[np.argmax(overlap[candidates] - 0.01 * centre_gap[candidates])]]
        links[int(a)] = int(best)
        _bx0, by0, bx1, by1 = box[best]
        box[a] = (bx1 - 1e-3, by0, bx1 - 1e-3, by1)
    return box, links


def compose(text: str) -> str:
    """Turn spacing accents that follow their letter into combining marks, then NFC; a
    dotless ``ı`` or ``ȷ`` under an accent is the letter with its dot.

    >>> compose("O" + "g\\u02d8" + "uz"), compose("na\\u0131\\u00a8ve")
    ('Oğuz', 'naïve')
    """
    if not any(c in SPACING_TO_COMBINING for c in text):
        return text
    out: list[str] = []
    for i, c in enumerate(text):
        mark = SPACING_TO_COMBINING.get(c)
        if mark and i and text[i - 1].isalpha():
            out[-1] = dotted(out[-1], mark)
            out.append(mark)
        else:
            out.append(c)
    return unicodedata.normalize("NFC", "".join(out))


def dotted(letter: str, mark: str) -> str:
    """``letter`` with ``mark`` set on it: a dotless letter under a mark above it is
    the dotted one, whose dot the mark takes the place of."""
    if letter in DOTTED and unicodedata.combining(mark) == _ABOVE:
        return DOTTED[letter]
    return letter


_ABOVE = 230  # the canonical combining class of marks set above their letter
