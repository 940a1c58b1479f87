"""Which installed language a page is written in, judged from what OCR read in others.

A page read with the wrong language model still comes out mostly right for a
language of the same script, but loses its accents (``Geschaftsstelle``,
``fiir`` for ``Geschäftsstelle``, ``für``). Its common words give the language
away all the same: French prose read with an English model is still full of
``les``, ``dans`` and ``qui``. The page's words are matched against the
commonest words of each installed language (wordfreq's lists, a maintained
package); a language whose common words the page uses far more than those of
the requested ones is the page's language.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from goblin_ocr_tesseract.accents import wordfreq_code

#: Words of two letters or more: single letters (``a``, ``e``, ``y``) are words in too many
#: languages to tell them apart.
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Fewer words than this say too little about a page's language.
MIN_WORDS = 20
#: How many of a language's commonest words a page's words are looked up in. Running prose
#: draws about two thirds of its words from the first few thousand.
COMMON_WORDS = 3000
#: A page whose words are at least this share common words of a requested language is in
#: that language: the other lists are not even loaded.
READ_WELL = 0.6
#: Another language must claim at least this share of the words... A page read with
#: another language's model keeps few of its accented words whole (Czech under por+eng:
#: 0.31 of its words left in Czech's list, German official prose 0.49), while the lists of
#: unrelated languages claim 0.25 to 0.35 of an English page, which its own claims 0.75 of.
MIN_SHARE = 0.3
#: ...and this much more than the best requested language.
MIN_LEAD = 0.2
#: Models that read no language of their own.
_NOT_LANGUAGES = frozenset({"osd", "equ"})


def page_language(text: str, requested: Iterable[str], installed: Iterable[str]) -> str | None:
    """The installed Tesseract language ``text`` is written in, when it is clearly none of
    ``requested``; None when the requested ones fit, or nothing fits clearly.

    >>> french = "Le chat est sur la table et il dort dans la maison avec les enfants " * 3
    >>> page_language(french, ["eng"], ["eng", "fra", "deu"])
    'fra'
    >>> page_language(french, ["fra"], ["eng", "fra", "deu"]) is None
    True
    """
    words = [unicodedata.normalize("NFC", w.lower()) for w in _WORD.findall(text)]
    if len(words) < MIN_WORDS:
        return None
    requested = tuple(requested)
    current = max((_share(words, code) for code in requested), default=0.0)
    if current >= READ_WELL:
        return None
    seen = {wordfreq_code(code) for code in requested}
    best, best_share = None, 0.0
    for code in sorted(set(installed) - set(requested) - _NOT_LANGUAGES):
        listed = wordfreq_code(code)
        if not listed or listed in seen or not _latin(listed):  # jpn_vert reads as jpn
            continue
        seen.add(listed)
        share = _share(words, code)
        if share > best_share:
            best, best_share = code, share
    if best_share >= MIN_SHARE and best_share >= current + MIN_LEAD:
        return best
    return None


def _share(words: list[str], tesseract_code: str) -> float:
    common = _common_words(tesseract_code)
    return sum(word in common for word in words) / len(words) if common else 0.0


@functools.cache
def _latin(wordfreq_language: str) -> bool:
    """Whether the language is written in Latin script: the words judged here are Latin,
    and the lists of other scripts would only cost memory."""
    import langcodes  # a wordfreq dependency

    return bool(langcodes.Language.get(wordfreq_language).maximize().script == "Latn")


@functools.cache
def _common_words(tesseract_code: str) -> frozenset[str]:
    """The language's ``COMMON_WORDS`` commonest words; empty when wordfreq has no list."""
    code = wordfreq_code(tesseract_code)
    if not code:
        return frozenset()
    import wordfreq  # first use only: loading a list takes a fifth of a second

    common = frozenset(unicodedata.normalize("NFC", w.lower())
                       for w in wordfreq.top_n_list(code, COMMON_WORDS, wordlist="best"))
    # wordfreq keeps every list it read whole (tens of MB each); only these words are needed
    wordfreq.get_frequency_list.cache_clear()
    return common
