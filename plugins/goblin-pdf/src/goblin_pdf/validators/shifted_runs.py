"""Prose read as glyph codes 29 below its letters, run together without spaces.

A TrueType font in the Macintosh standard glyph order, embedded without a
Unicode map, draws ``e`` with glyph 72 (``H``): its codes are 29 below the
characters. Extracted as if codes were characters, ``Acte du printemps``
reads ``$FWHGXSULQWHPSV``; the space, glyph 3, usually draws nothing, so a
paragraph becomes one long token of capitals and a few odd lowercase letters
(accented letters). Such runs often sit beside text in other fonts that reads
fine, so the page as a whole looks like prose.

The runs give themselves away once moved back up by 29: most of their
characters become lowercase letters, and those letters have prose's share of
vowels (about two in five). Long tokens that are not shifted prose read
otherwise: a URL or a compound word is mostly lowercase already, hex and
base64 have too few characters in the range, and words in capitals moved up
come out with about one vowel in five.
"""

from __future__ import annotations

import re

from goblin_core.model import Verdict
from goblin_pdf.validators.char_classes import non_space_count

_SHIFT = 29
#: Characters without spaces long enough to be several words run together (tried only where
#: a token starts: the scan runs on every page).
_LONG_TOKEN = re.compile(r"(?<!\S)\S{20,}")
#: 'D'..']' moved up by 29 are 'a'..'z'; 'D', 'H', 'L', 'R', 'X' are the vowels a, e, i, o, u.
_SHIFTED_LETTERS = frozenset(chr(c - _SHIFT) for c in range(ord("a"), ord("z") + 1))
_SHIFTED_VOWELS = frozenset(chr(ord(v) - _SHIFT) for v in "aeiou")
#: Fewer characters in long runs than this say too little.
MIN_RUN_CHARS = 200
#: Runs must hold at least this share of the page's characters to make it garbage.
MIN_PAGE_SHARE = 0.2
#: Characters of the runs that must become lowercase letters.
MIN_LETTER_SHARE = 0.6
#: Vowels among those letters: prose has 35 to 50%, capitals moved up about 20%.
MIN_VOWEL_SHARE = 0.3
_SCORE_CEILING = 0.25


def shifted_runs(text: str) -> Verdict | None:
    """Garbage when much of ``text`` is prose in codes 29 below its letters; else None.

    >>> shifted = "".join(chr(ord(c) - 29) for c in "lesbuchesseconsumentdanslatre") * 8
    >>> shifted_runs(shifted).reasons[:2]
    ('cipher', 'shifted_runs')
    >>> shifted_runs("https://example.org/a/very/long/path/to/some/resource " * 8) is None
    True
    """
    runs = _LONG_TOKEN.findall(text)
    if not runs:
        return None
    chars = sum(map(len, runs))
    if chars < MIN_RUN_CHARS:
        return None
    page_share = chars / max(non_space_count(text), 1)
    if page_share < MIN_PAGE_SHARE:
        return None
    joined = "".join(runs)
    letters = sum(joined.count(c) for c in _SHIFTED_LETTERS)
    if letters < MIN_LETTER_SHARE * chars:
        return None
    vowels = sum(joined.count(c) for c in _SHIFTED_VOWELS)
    if vowels < MIN_VOWEL_SHARE * letters:
        return None
    share = min(page_share, 1.0)
    # Every text engine reads the same codes, so only OCR gets these words back: the score
    # stays under goblin.ocr_garbage_score's default whatever the share.
    return Verdict("garbage", round(_SCORE_CEILING * (1 - share), 4),
                   ("cipher", "shifted_runs", f"share={share:.2f}"))
