"""Word tokens and the dictionary the validators check them against.

The word lists are pyspellchecker's (a maintained package): nothing is copied
or downloaded. Each list is loaded once per process, on first use, and kept as
a frozenset of its words; the Portuguese list comes first because goblin's
users read Brazilian documents, the others only when it does not fit.
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Iterable, Sequence

log = logging.getLogger(__name__)

#: Whitespace-separated tokens with their surrounding punctuation trimmed.
_EDGE_PUNCT = "\"'“”‘’«»()[]{}<>.,;:!?¿¡*•·–—-_/\\|"
_LETTERS = re.compile(r"[^\W\d_]+")


def raw_tokens(text: str) -> list[str]:
    """Whitespace-separated tokens, edge punctuation trimmed, empty ones dropped.

    >>> raw_tokens("(Contrato nº 3/2020), assinado.")
    ['Contrato', 'nº', '3/2020', 'assinado']
    """
    tokens = (t.strip(_EDGE_PUNCT) for t in text.split())
    return [t for t in tokens if t]


def is_word(token: str) -> bool:
    """A token made of letters only (any script)."""
    return token.isalpha()


def is_latin_word(token: str) -> bool:
    """Letters only, all of them Latin script (accents included)."""
    return token.isalpha() and all(_is_latin(c) for c in token)


def _is_latin(char: str) -> bool:
    return ord(char) < 0x250 or 0x1E00 <= ord(char) <= 0x1EFF


def letter_runs(text: str) -> list[str]:
    return _LETTERS.findall(text)


@functools.cache
def _word_list(language: str) -> frozenset[str]:
    from spellchecker import SpellChecker

    try:
        checker = SpellChecker(language=language, distance=1)
    except ValueError:
        log.warning("pyspellchecker has no %r word list; the dictionary checks skip it", language)
        return frozenset()
    return frozenset(unicodedata.normalize("NFC", w) for w in checker.word_frequency.dictionary)


class Dictionary:
    """Known words of several languages, looked up case-insensitively.

    >>> Dictionary(("pt",)).knows("Licitação")
    True
    """

    def __init__(self, languages: Sequence[str]) -> None:
        self.languages = tuple(languages)

    def knows(self, word: str, languages: Sequence[str] | None = None) -> bool:
        return _knows(word, tuple(languages or self.languages))

    def hit_rate(self, words: Iterable[str]) -> float:
        """Share of distinct ``words`` (3+ letters) some word list knows; 1.0 when none qualify.

        At most ``SAMPLE`` distinct words are looked up: a verdict about a page's
        font does not need every word. The first list (Portuguese) is tried alone
        first; the others load only when it does not explain the text.
        """
        chosen = list(dict.fromkeys(w for w in words if len(w) >= 3))[:SAMPLE]
        if not chosen:
            return 1.0
        first = self.languages[:1]
        hits = [self.knows(w, first) for w in chosen]
        rate = sum(hits) / len(chosen)
        if rate >= 0.9 or len(self.languages) == 1:
            return rate
        return sum(h or self.knows(w) for h, w in zip(hits, chosen, strict=True)) / len(chosen)


#: Most distinct words one hit-rate estimate looks up.
SAMPLE = 400


@functools.lru_cache(maxsize=65536)
def _knows(word: str, languages: tuple[str, ...]) -> bool:
    key = unicodedata.normalize("NFC", word.lower())
    return any(key in _word_list(lang) for lang in languages)
