"""Whitespace fragmentation: ``L I C I T A Ç Ã O`` or ``CON TRA TO`` instead of words.

Some PDFs place each glyph (or pair) on its own, and engines put a space
between every piece. A run of one- and two-letter tokens whose join is a
dictionary word is a fragmented word; many of them make the page unusable for
search even though every letter is right, so another engine should be tried.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from goblin_core.engines import BaseEngine
from goblin_core.model import PageContext, Verdict
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.validators.char_classes import class_bytes
from goblin_pdf.validators.words import Dictionary, raw_tokens

_MIN_RUN = 3
_MIN_FRAGMENT_TOKENS = 12
_MAX_RUN_LETTERS = 400
_MAX_WORD = 24
# Three one- or two-letter tokens in a row: a cheap test before the token walk.
_RUN_HINT = re.compile(r"(?<!\S)[^\W\d_]{1,2}\s+[^\W\d_]{1,2}\s+[^\W\d_]{1,2}(?!\S)")
# On class bytes after a leading space: a literal first byte lets the scan skip ahead.
_RUN_HINT_CLASSES = re.compile(rb" [aAb]{1,2} +[aAb]{1,2} +[aAb]{1,2}(?![^ ])")


class FragmentationValidator(BaseEngine):
    """Suspect, then garbage, as more of the page is words split into letters."""

    name = "pdf.fragmentation"
    formats = PDF_PAGES
    priority = 40

    def check(self, text: str, context: PageContext) -> Verdict:
        if _run_hints(text) < _MIN_FRAGMENT_TOKENS // _MIN_RUN:
            return Verdict("ok", 1.0)
        tokens = raw_tokens(text)
        runs = list(short_runs(tokens))
        if sum(len(r) for r in runs) < _MIN_FRAGMENT_TOKENS:
            return Verdict("ok", 1.0)
        dictionary = Dictionary(tuple(context.options.get("dictionaries", ("pt", "en"))))
        fragmented = sum(len(r) for r in runs if joins_into_words(r, dictionary))
        words = sum(1 for t in tokens if t.isalpha()) or 1
        share = fragmented / words
        limit = float(context.options.get("fragment_share", 0.3))
        if fragmented < _MIN_FRAGMENT_TOKENS or share < limit / 2:
            return Verdict("ok", 1.0)
        reasons = ("fragmented", f"fragment_share={share:.2f}")
        if share >= limit:
            return Verdict("garbage", round((1 - share) * 0.5, 4), reasons)
        return Verdict("suspect", round(1 - share, 4), reasons)


def _run_hints(text: str) -> int:
    """Matches of ``_RUN_HINT``, counted on class bytes when the text has them."""
    classes = class_bytes(text)
    if classes is None:
        return len(_RUN_HINT.findall(text))
    return len(_RUN_HINT_CLASSES.findall(b" " + classes))


def short_runs(tokens: Sequence[str]) -> Iterator[list[str]]:
    """Runs of 3+ consecutive one- or two-letter alphabetic tokens, one single letter at least."""
    run: list[str] = []
    for token in [*tokens, ""]:
        if token.isalpha() and len(token) <= 2:
            run.append(token)
            continue
        if len(run) >= _MIN_RUN and any(len(t) == 1 for t in run):
            yield run
        run = []


def joins_into_words(run: Sequence[str], dictionary: Dictionary) -> bool:
    """True when the run's letters split into dictionary words of 2+ letters.

    Word gaps are lost once every letter stands alone, so the run is segmented
    as a whole (``L I C I T A Ç Ã O D E`` is licitação + de).

    >>> joins_into_words(["L", "I", "C", "I", "T", "A", "Ç", "Ã", "O"], Dictionary(("pt",)))
    True
    >>> joins_into_words(["e", "o", "de", "a"], Dictionary(("pt",)))
    False
    """
    letters = "".join(run)[:_MAX_RUN_LETTERS]
    # reachable[i]: letters[:i] splits into known words (dynamic programming, longest first).
    reachable = [True] + [False] * len(letters)
    for end in range(2, len(letters) + 1):
        for start in range(max(0, end - _MAX_WORD), end - 1):
            if reachable[start] and dictionary.knows_common(letters[start:end]):
                reachable[end] = True
                break
    return reachable[-1] and any(len(t) == 1 for t in run) and len(letters) >= 4
