"""Word tokens and the dictionary the validators check them against.

The word lists are pyspellchecker's (a maintained package): nothing is copied
or downloaded. Each list is loaded once per process, on first use, and kept as
a frozenset of its words; the Portuguese list comes first because goblin's
users read Brazilian documents, the others only when it does not fit.
"""

from __future__ import annotations

import functools
import gzip
import json
import logging
import pkgutil
import re
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import repeat

log = logging.getLogger(__name__)

#: Whitespace-separated tokens with their surrounding punctuation trimmed.
_EDGE_PUNCT = "\"'“”‘’«»()[]{}<>.,;:!?¿¡*•·–—-_/\\|"
_LETTERS = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=8)
def raw_tokens(text: str) -> tuple[str, ...]:
    """Whitespace-separated tokens, edge punctuation trimmed, empty ones dropped.

    Cached for the last few texts: every validator of a page tokenises the same text.

    >>> raw_tokens("(Contrato nº 3/2020), assinado.")
    ('Contrato', 'nº', '3/2020', 'assinado')
    """
    parts = text.split()
    return tuple(filter(None, map(str.strip, parts, repeat(_EDGE_PUNCT, len(parts)))))


_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]+")


def is_latin_word(token: str) -> bool:
    """Letters only, all of them Latin script (accents included)."""
    return _LATIN_WORD.fullmatch(token) is not None


def letter_runs(text: str) -> list[str]:
    return _LETTERS.findall(text)


@functools.cache
def _word_list(language: str) -> frozenset[str]:
    """pyspellchecker's word list for ``language``, lowercased and NFC.

    Read straight from the package's ``resources/<lang>.json.gz`` (where
    pyspellchecker itself reads it): only the words are needed, and building a
    SpellChecker also computes frequencies and letter sets, which doubles the
    load time that the first page needing a dictionary pays.
    """
    try:
        packed = pkgutil.get_data("spellchecker", f"resources/{language.lower()}.json.gz")
    except FileNotFoundError:
        packed = None
    if not packed:
        log.warning("pyspellchecker has no %r word list; the dictionary checks skip it", language)
        return frozenset()
    # Lowercased and normalised as one text: a quote starts a new combining sequence
    # and ends a word for final-sigma casing, so it is the same as word by word.
    text = gzip.decompress(packed).decode("utf-8").lower()
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return frozenset(_keys(text))


#: One ``"word": count`` entry a line, as pyspellchecker writes its lists.
_ENTRY = re.compile(r'^"([^"\\\n]*)": *\d+,?\r?$', re.MULTILINE)


def _keys(text: str) -> list[str]:
    """The keys of the JSON object ``text``: read line by line, two to three times as
    fast as json.loads building a dict of counts never used, when every entry is on a
    line of its own without escapes; else by json.loads."""
    keys = _ENTRY.findall(text)
    if "\\" in text or len(keys) != text.count('":'):
        # escapes decode after the text was lowercased and normalised: redo both per key
        return [unicodedata.normalize("NFC", key.lower()) for key in json.loads(text)
                if "\n" not in key]
    return keys


def _lookup_key(word: str) -> str:
    lowered = word.lower()
    if unicodedata.is_normalized("NFC", lowered):
        return lowered
    return unicodedata.normalize("NFC", lowered)


class Dictionary:
    """Known words of several languages, looked up case-insensitively.

    >>> Dictionary(("pt",)).knows("Licitação")
    True
    """

    def __init__(self, languages: Sequence[str]) -> None:
        self.languages = tuple(languages)

    def knows(self, word: str, languages: Sequence[str] | None = None) -> bool:
        return _knows(word, tuple(languages or self.languages))

    def knows_common(self, word: str) -> bool:
        """``knows`` with the first two word lists only (Portuguese and English by default).

        For checks that run on ordinary pages: they must not load every list.
        """
        return _knows(word, self.languages[:2])

    def hit_rate(self, words: Iterable[str]) -> float:
        """Share of distinct ``words`` (3+ letters) some word list knows; 1.0 when none qualify.

        At most ``SAMPLE`` distinct words are looked up: a verdict about a page's
        font does not need every word. The first list (Portuguese) is tried alone
        first; the others load only when it does not explain the text.
        """
        chosen = list(dict.fromkeys(w for w in words if len(w) >= 3))[:SAMPLE]
        if not chosen:
            return 1.0
        rate = 0.0
        hits = [False] * len(chosen)
        for count in range(1, len(self.languages) + 1):
            # One more word list at a time, until the text is explained.
            languages = self.languages[:count]
            hits = [h or _knows(w, languages[-1:]) for h, w in zip(hits, chosen, strict=True)]
            rate = sum(hits) / len(chosen)
            if rate >= 0.9:
                break
        return rate


#: Most distinct words one hit-rate estimate looks up.
SAMPLE = 400


def known_in(word: str, languages: tuple[str, ...]) -> bool:
    """Whether one of the word lists of ``languages`` has ``word`` (any case), its
    ligature characters (``eﬀorts``: a page's text holds them until its repairs spell
    them out) and other compatibility forms read as the letters they stand for."""
    return _knows(word if word.isascii() else unicodedata.normalize("NFKC", word), languages)


# How much of a text's words one list must know for the text to be in its language.
_WRITTEN_IN = 0.75
_WRITTEN_SAMPLE = 200


@functools.lru_cache(maxsize=4)
def written_in(text: str, language: str, share: float = _WRITTEN_IN) -> bool:
    """Whether ``share`` (by default most) of the first distinct words (3+ letters) of
    ``text`` are words of ``language``'s list."""
    words = _first_words(text)
    return bool(words) and sum(map(known_in, words, repeat((language,)))) >= share * len(words)


@functools.lru_cache(maxsize=8)
def _first_words(text: str) -> tuple[str, ...]:
    """The first ``_WRITTEN_SAMPLE`` distinct words (3+ letters) of ``text``, in order:
    read once for every language a text is tried in, and only as far into a long text
    as they reach."""
    words: dict[str, None] = {}
    for token in raw_tokens(text):
        if len(token) >= 3 and token.isalpha():
            words[token] = None
            if len(words) == _WRITTEN_SAMPLE:
                break
    return tuple(words)


#: The lists a page's language is looked for in first: the two the validators load for
#: any page
FIRST_LANGUAGES = ("en", "pt")
#: The other lists, loaded one by one, up to the page's language, for a page written in
#: neither of the first two
OTHER_LANGUAGES = ("de", "fr", "es", "it", "nl")


def languages_of(text: str, share: float = _WRITTEN_IN) -> tuple[str, ...]:
    """The languages ``text`` is written in (``share`` of its words in the language's
    list): those of ``FIRST_LANGUAGES``, or else the first of ``OTHER_LANGUAGES``; none
    for a text in no language of the lists."""
    written = tuple(language for language in FIRST_LANGUAGES
                    if written_in(text, language, share))
    if written:
        return written
    return next(((language,) for language in OTHER_LANGUAGES
                 if written_in(text, language, share)), ())


@functools.lru_cache(maxsize=65536)
def _knows(word: str, languages: tuple[str, ...]) -> bool:
    key = _lookup_key(word)
    return any(key in _word_list(lang) for lang in languages)
