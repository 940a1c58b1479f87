"""How candidate texts for one page are compared.

A candidate ranks by verdict status (ok > suspect > garbage > empty), then
score, then mapped characters. The best wins, so good text is never replaced
by worse: a recovery or OCR candidate only wins by ranking strictly higher.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from goblin_core.model import Attempt, Verdict

REPLACEMENT = "\ufffd"


def is_unmapped(char: str) -> bool:
    """A character that stands for a glyph with no real Unicode mapping."""
    if char == REPLACEMENT:
        return True
    category = unicodedata.category(char)
    return category in ("Co", "Cs") or (category == "Cc" and char not in "\t\n\r\f\v")


def mapped_chars(text: str) -> int:
    """Non-space characters that are real, mapped characters."""
    return sum(1 for c in text if not c.isspace() and not is_unmapped(c))


def unmapped_chars(text: str) -> int:
    return sum(1 for c in text if is_unmapped(c))


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
