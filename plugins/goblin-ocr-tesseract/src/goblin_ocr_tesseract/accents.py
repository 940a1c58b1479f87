"""Accents Tesseract's models drop, swap or read twice, put back from word lists.

The fast LSTM models Linux distributions ship lose diacritics on rarer words:
``ovoïde`` comes out ``ovoide`` or ``ovoiïde`` (the letter read both plain and
accented). When an OCR word is in none of the page languages' word lists and
exactly one spelling that differs from it only in diacritics, or by dropping
one of such a doubled pair, is, that spelling is almost surely what the page
says. Anything else (a known word, a name, no candidate, two candidates) is
left alone.

The word lists are wordfreq's (a maintained package): each list loads once per
process, on the first page in its language.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import unicodedata
from collections.abc import Iterator, Mapping

from goblin_ocr_tesseract.languages import split_languages

log = logging.getLogger(__name__)

#: Latin words of three letters or more, not part of a longer word in another script and not
#: joined to a hyphen: half a word broken at a line end (``Sän-``/``ger``) is no word to judge.
_WORD = re.compile(
    r"(?<![^\W\d_]|[-\u00ad\u2010])[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]{3,}"
    r"(?![^\W\d_]|[-\u00ad\u2010])"
)
_LATIN_LETTERS = range(0x00C0, 0x0250)
#: A candidate must be at least this common (Zipf scale: 1 is once per 1e8 words; the
#: lists go down to about 1), so one stray occurrence in the lists does not decide.
MIN_ZIPF = 1.5


@functools.cache
def _same_base() -> Mapping[str, frozenset[str]]:
    """Each lowercase ASCII letter with every Latin letter written on it (a: à á â ã ä å ā...)."""
    groups: dict[str, set[str]] = {}
    for code in _LATIN_LETTERS:
        char = chr(code)
        base = _base(char)
        if char.islower() and base.isascii() and base.isalpha():
            groups.setdefault(base, {base}).add(char)
    return {base: frozenset(chars) for base, chars in groups.items()}


def _base(char: str) -> str:
    return unicodedata.normalize("NFD", char)[0].lower()


def variants(word: str) -> Iterator[str]:
    """Spellings of ``word`` with one letter's diacritic changed, or one of a doubled pair dropped.

    >>> "ovoïde" in set(variants("ovoiïde"))
    True
    >>> "Ovoïde" in set(variants("Ovoide"))
    True
    """
    groups = _same_base()
    for i, char in enumerate(word):
        base = _base(char)
        for other in groups.get(base, ()):
            if other != char.lower():
                yield word[:i] + (other.upper() if char.isupper() else other) + word[i + 1:]
        following = word[i + 1:i + 2]
        if following and following.lower() != char.lower() and _base(following) == base:
            yield word[:i] + word[i + 1:]
            yield word[:i + 1] + word[i + 2:]


class WordLists:
    """The word lists of the languages a page was read in (Tesseract codes)."""

    def __init__(self, languages: str) -> None:
        self.codes = tuple(c for c in map(wordfreq_code, split_languages(languages)) if c)

    def knows(self, word: str) -> bool:
        return self.frequency(word) > 0.0

    def frequency(self, word: str) -> float:
        """The word's highest Zipf frequency over the lists; 0 when none has it."""
        key = unicodedata.normalize("NFC", word.lower())
        share = max((_frequencies(code).get(key, 0.0) for code in self.codes), default=0.0)
        return math.log10(share) + 9 if share > 0 else 0.0

    def restore(self, text: str) -> str:
        """``text`` with each unknown word replaced by its one known accent variant."""
        if not self.codes:
            return text
        return _WORD.sub(lambda match: self._word(match.group()), text)

    def _word(self, word: str) -> str:
        if self.knows(word):
            return word
        known = {v for v in variants(word) if self.frequency(v) >= MIN_ZIPF}
        if len(known) != 1:
            return word
        (fixed,) = known
        log.debug("OCR word %r read as %r (word lists of %s)", word, fixed, "+".join(self.codes))
        return fixed


def restore_accents(text: str, languages: str) -> str:
    """Put back diacritics OCR lost on words of ``languages`` (Tesseract-style ``fra+eng``)."""
    return WordLists(languages).restore(text)


@functools.cache
def wordfreq_code(tesseract_code: str) -> str:
    """wordfreq's code for a Tesseract language, or "" when wordfreq has no list for it."""
    import langcodes  # first use only: a wordfreq dependency
    import wordfreq

    try:
        tag = langcodes.standardize_tag(tesseract_code.split("_")[0])
    except ValueError:
        return ""
    return tag if tag in wordfreq.available_languages("best") else ""


@functools.cache
def _frequencies(code: str) -> Mapping[str, float]:
    """Each word of wordfreq's best list for ``code`` with its frequency (a share of all words)."""
    import wordfreq  # first use only: importing and loading take about a second each

    return wordfreq.get_frequency_dict(code, wordlist="best")
