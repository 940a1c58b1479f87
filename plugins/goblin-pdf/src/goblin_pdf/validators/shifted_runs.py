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
come out with about one vowel in five. A font with a glyph more or less before
its letters puts them 28 or 30 below (and so on); those distances are tried too.
"""

from __future__ import annotations

from goblin_core.model import Verdict
from goblin_pdf.validators.char_classes import long_tokens, non_space_count

_SHIFT = 29
#: The standard distance first, then fonts with one or two glyphs more or fewer before
#: their letters.
_SHIFTS = (_SHIFT, _SHIFT - 1, _SHIFT + 1, _SHIFT - 2, _SHIFT + 2)
#: Characters without spaces long enough to be several words run together.
_LONG_TOKEN = 20
#: Per distance, the characters that are letters and vowels moved down by it: 'D'..']'
#: moved up by 29 are 'a'..'z', and 'D', 'H', 'L', 'R', 'X' the vowels a, e, i, o, u.
_SHIFTED = tuple(
    (frozenset(chr(c - shift) for c in range(ord("a"), ord("z") + 1)),
     frozenset(chr(ord(v) - shift) for v in "aeiou"))
    for shift in _SHIFTS
)
#: Fewer characters in long runs than this say too little.
MIN_RUN_CHARS = 200
#: Runs must hold at least this share of the page's characters to make it garbage.
MIN_PAGE_SHARE = 0.2
#: Characters of the runs that must become lowercase letters.
MIN_LETTER_SHARE = 0.6
#: Vowels among those letters: prose has 35 to 50%, capitals moved up about 20%.
MIN_VOWEL_SHARE = 0.3
#: At a distance other than 29, how many more vowels (as a share of the letters) the runs
#: must show moved than as they stand.
MIN_VOWEL_GAIN = 0.2
#: ... and use this many different characters: prose does, DNA's four letters do not.
MIN_DISTINCT = 15
_SCORE_CEILING = 0.25


def shifted_runs(text: str) -> Verdict | None:
    """Garbage when much of ``text`` is prose in codes about 29 below its letters; else None.

    >>> shifted = "".join(chr(ord(c) - 29) for c in "lesbuchesseconsumentdanslatre") * 8
    >>> shifted_runs(shifted).reasons[:2]
    ('cipher', 'shifted_runs')
    >>> shifted_runs("https://example.org/a/very/long/path/to/some/resource " * 8) is None
    True
    """
    runs = long_tokens(text, _LONG_TOKEN)
    if not runs:
        return None
    chars = sum(map(len, runs))
    if chars < MIN_RUN_CHARS:
        return None
    page_share = chars / max(non_space_count(text), 1)
    if page_share < MIN_PAGE_SHARE:
        return None
    joined = "".join(runs)
    standard, *others = _SHIFTED
    if not _reads_as_prose(joined, chars, *standard):
        # Capitals, codes or DNA moved by some distance can land on prose's share of
        # vowels by chance; a nearby distance counts only when the runs as they stand
        # are far poorer in vowels than what it makes of them.
        floor = _vowel_share(joined) + MIN_VOWEL_GAIN
        if len(set(joined)) < MIN_DISTINCT or not any(
                _reads_as_prose(joined, chars, *sets, floor) for sets in others):
            return None
    share = min(page_share, 1.0)
    # Text engines read the same codes; pdf.glyph_order or OCR gets the words back, so
    # the score stays under goblin.ocr_garbage_score's default whatever the share.
    return Verdict("garbage", round(_SCORE_CEILING * (1 - share), 4),
                   ("cipher", "shifted_runs", f"share={share:.2f}"))


def _reads_as_prose(joined: str, chars: int, letter_set: frozenset[str],
                    vowel_set: frozenset[str], min_vowels: float = MIN_VOWEL_SHARE) -> bool:
    letters = sum(joined.count(c) for c in letter_set)
    if letters < MIN_LETTER_SHARE * chars:
        return False
    vowels = sum(joined.count(c) for c in vowel_set)
    return vowels >= max(min_vowels, MIN_VOWEL_SHARE) * letters


def _vowel_share(text: str) -> float:
    letters = [c for c in text.lower() if c.isalpha()]
    return sum(c in "aeiou" for c in letters) / len(letters) if letters else 0.0
