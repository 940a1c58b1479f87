"""How candidate texts for one page are compared.

A candidate ranks by verdict status (ok > suspect > garbage > empty), then
score, then mapped characters. The best wins, so good text is never replaced
by worse: a recovery or OCR candidate only wins by ranking strictly higher.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from goblin_core.model import VERDICT_RANK, Attempt, Verdict

REPLACEMENT = "\ufffd"


def is_unmapped(char: str) -> bool:
    """A character that stands for a glyph with no real Unicode mapping."""
    if char == REPLACEMENT:
        return True
    category = unicodedata.category(char)
    return category in ("Co", "Cs") or (category == "Cc" and char not in "\t\n\r\f\v")


# The same characters as ``is_unmapped``, as regex classes: counting with them
# runs in C, which matters on every page of every document.
_UNMAPPED_CLASS = (
    "\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ufffd\ue000-\uf8ff\ud800-\udfff"
    "\U000f0000-\U000ffffd\U00100000-\U0010fffd"
)
_UNMAPPED_NON_SPACE = re.compile(f"[{_UNMAPPED_CLASS}]")
_UNMAPPED = re.compile(f"[{_UNMAPPED_CLASS}\x1c-\x1f\x85]")
# Symbol fonts (Symbol, Wingdings) without a Unicode map come out as their codes plus
# U+F000 (a Windows convention). One standing alone between spaces is a list bullet or a
# check box: a real mark, not a letter whose mapping was lost.
_SYMBOL_MARK = re.compile(r"(?<!\S)[\uf020-\uf0ff](?!\S)")


@functools.lru_cache(maxsize=16)
def mapped_chars(text: str) -> int:
    """Non-space characters that are real, mapped characters (symbol-font marks
    standing alone included).

    Cached for the last few texts: a page's text is counted by the parser, the
    validators and the ranking in turn.
    """
    non_space = sum(map(len, text.split()))
    return non_space - _unmapped_letters(_UNMAPPED_NON_SPACE, text)


@functools.lru_cache(maxsize=16)
def unmapped_chars(text: str) -> int:
    """Characters that stand for glyphs without a real mapping.

    >>> unmapped_chars("\uf0b7 first point \uf0b7 second point")  # Symbol-font bullets
    0
    >>> unmapped_chars("\uf041\uf042\uf043 \ufffd")  # letters of a font without a map
    4
    """
    return _unmapped_letters(_UNMAPPED, text)


#: Characters counted at a time: findall holds a string for each match, 775 MB for a
#: page of 93 MB of control characters when counted whole.
_COUNT_CHUNK = 1 << 20


def _unmapped_letters(pattern: re.Pattern[str], text: str) -> int:
    if pattern.search(text) is None:
        return 0
    # the pattern matches one character at a time, so a chunk's seam splits no match
    found = sum(len(pattern.findall(text, start, start + _COUNT_CHUNK))
                for start in range(0, len(text), _COUNT_CHUNK))
    return found - sum(1 for _ in _SYMBOL_MARK.finditer(text))


@dataclass(frozen=True)
class Candidate:
    """One engine's text for one page, with its verdict.

    ``source`` is primary (the parser), recovery or ocr. ``confidence`` is the
    OCR engine's own confidence, when it gave one.
    """

    engine: str
    distribution: str
    text: str
    verdict: Verdict
    source: str = "primary"
    seconds: float = 0.0
    confidence: float | None = None

    @property
    def score(self) -> float:
        if self.confidence is None:
            return self.verdict.score
        return min(self.verdict.score, self.confidence)

    @property
    def mapped(self) -> int:
        return mapped_chars(self.text)

    def rank_key(self) -> tuple[int, float, int]:
        return (self.verdict.rank, round(self.score, 6), self.mapped)

    def attempt(self) -> Attempt:
        return Attempt(
            engine=self.engine,
            distribution=self.distribution,
            verdict=self.verdict.status,
            score=round(self.score, 4),
            chars=len(self.text),
            seconds=round(self.seconds, 4),
            reasons=self.verdict.reasons,
        )


def best(candidates: Iterable[Candidate]) -> Candidate | None:
    """The highest-ranked candidate; on a tie the earliest (the first engine) wins."""
    winner: Candidate | None = None
    for candidate in candidates:
        if winner is None or candidate.rank_key() > winner.rank_key():
            winner = candidate
    return winner


def combine(verdicts: Iterable[Verdict]) -> Verdict:
    """Worst status, lowest score, every reason."""
    chosen = list(verdicts)
    if not chosen:
        return Verdict("ok", 1.0)
    worst = min(chosen, key=lambda v: v.rank)
    reasons: list[str] = []
    for verdict in chosen:
        reasons.extend(r for r in verdict.reasons if r not in reasons)
    return Verdict(
        status=worst.status,
        score=min(v.score for v in chosen),
        reasons=tuple(reasons),
        low_confidence=any(v.low_confidence for v in chosen if v.status == worst.status),
    )


def verdict_problem(verdict: object) -> str | None:
    """Why a validator's answer is no usable Verdict, or None when it is one.

    A status outside the four, or a score outside [0, 1] (NaN included, which no
    comparison rejects), would rank a candidate above every honest one.
    """
    if not isinstance(verdict, Verdict):
        return f"check() returned {type(verdict).__name__}, not a Verdict"
    if verdict.status not in VERDICT_RANK:
        return f"check() returned status {verdict.status!r}, not one of {', '.join(VERDICT_RANK)}"
    if not _unit(verdict.score):
        return f"check() returned score {verdict.score!r}, not a number in [0, 1]"
    return None


def ocr_confidence(value: object) -> float:
    """An OCR backend's confidence as a number in [0, 1]: out of range is clamped, and
    what is no number (None, NaN) is 0, so it cannot outrank a sure reading."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return 0.0
    return min(max(float(value), 0.0), 1.0)


def _unit(value: object) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and 0.0 <= value <= 1.0)
