"""TextCleaner: GoblinTools' text normalisation and Portuguese stopword removal.

Stopwords come from stopwordsiso (the ISO stopword collection, 560 Portuguese
words, shipped inside the package: nothing is downloaded at run time).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from unidecode import unidecode

_DOT_RUNS = re.compile(r"\.{2,}")
_SPACES = re.compile(r"\s+")
# Leading and trailing characters that are not letters or digits: "Acentos!" -> "Acentos".
_EDGE_PUNCTUATION = re.compile(r"^[\W_]+|[\W_]+$")


@functools.lru_cache(maxsize=1)
def portuguese_stopwords() -> frozenset[str]:
    """The Portuguese stopword list of stopwordsiso.

    >>> len(portuguese_stopwords())
    560
    """
    import stopwordsiso

    return frozenset(stopwordsiso.stopwords("pt"))


def _key(word: str) -> str:
    """How words are compared with stopwords: case, accents and edge punctuation ignored."""
    core = _EDGE_PUNCTUATION.sub("", unicodedata.normalize("NFC", word))
    return unidecode(core).casefold()


def _normalise_noise(text: str) -> str:
    text = _DOT_RUNS.sub("", text)
    return _SPACES.sub(" ", text).strip()


class TextCleaner:
    """Normalise extracted text; remove stopwords (Portuguese unless told otherwise).

    >>> TextCleaner().clean_text("Isso é um Teste com Acentos!")
    'Isso e um Teste com Acentos!'
    >>> cleaner = TextCleaner()
    >>> cleaner.clean_text("Isso é um Teste com Acentos!", lowercase=True, remove_stopwords=True)
    'teste acentos!'
    """

    def __init__(self, custom_stopwords: list[str] | None = None) -> None:
        # The caller's own list, as in GoblinTools: words appended to it, or to
        # ``self.stopwords``, count from the next call on. The default list is a
        # fresh copy per cleaner (GoblinTools shared one list among all of them).
        self.stopwords: list[str] = (
            custom_stopwords if custom_stopwords is not None
            else sorted(portuguese_stopwords())
        )
        self._cached_keys: tuple[tuple[str, ...], frozenset[str]] = ((), frozenset())

    def _stopword_keys(self) -> frozenset[str]:
        """The comparison keys of the current ``stopwords``, whatever was appended to
        or assigned since the last call (recomputed only when the words changed)."""
        words = tuple(w for w in (self.stopwords or ()) if isinstance(w, str))
        if words != self._cached_keys[0]:
            self._cached_keys = (words, frozenset(k for k in map(_key, words) if k))
        return self._cached_keys[1]

    def clean_text(self, text: str, lowercase: bool = False, remove_stopwords: bool = False) -> str:
        """Drop dot runs, collapse whitespace, fold accents to ASCII; optionally
        lowercase and remove stopwords."""
        if not text:
            return ""
        if lowercase:
            text = text.lower()
        text = unidecode(_normalise_noise(text)).strip()
        if remove_stopwords:
            text = self.remove_stopwords(text)
        return text

    def remove_text_noise(self, text: str) -> str:
        """Drop dot runs and collapse whitespace, keeping accents and case.

        >>> TextCleaner().remove_text_noise("São   Paulo...  centro")
        'São Paulo centro'
        """
        if not text:
            return ""
        return _normalise_noise(text)

    def remove_stopwords(self, text: str) -> str:
        """Remove every word that is a stopword, whatever its case, accents or
        surrounding punctuation; the other words keep their form, one space apart.

        >>> cleaner = TextCleaner(custom_stopwords=["custom", "words"])
        >>> cleaner.remove_stopwords("custom text with words")
        'text with'
        >>> TextCleaner(custom_stopwords=[]).remove_stopwords("a\\tb\\n\\nc")
        'a b c'
        """
        if not text:
            return ""
        keys = self._stopword_keys()
        return " ".join(w for w in text.split() if _key(w) not in keys)
