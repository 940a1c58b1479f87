"""Per-glyph substitution ciphers: text that keeps the shape of words but not their letters.

Two patterns, both judged over sliding windows of word tokens and both
corroborated by a low dictionary hit rate before anything is called garbage:

* partial substitution (``LICITAgAO``, ``R$ í47.200,04``): the share of
  distinct tokens with a broken case pattern (see ``case_breaks``);
* shifted codes (``+HUDXVJHEHU`` for ``Herausgeber``): an identity-encoded
  font without a Unicode map read as if codes were characters; nearly every
  letter comes out a capital or mixed with digits, and almost no word is real.
  When the space draws nothing, the words run together instead, often beside
  text that reads fine (``shifted_runs``).

Windows that are tables or one repeated token are skipped: they are not prose
and say nothing about the font. Pages too short for a confident verdict get
one marked ``low_confidence``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from goblin_core.engines import BaseEngine
from goblin_core.model import PageContext, Verdict
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.validators.case_breaks import (
    case_break_positions,
    is_cipher_token,
    looks_broken,
    may_hold_broken_tokens,
)
from goblin_pdf.validators.char_classes import class_bytes, word_count
from goblin_pdf.validators.char_counts import case_counts
from goblin_pdf.validators.shifted_runs import shifted_runs
from goblin_pdf.validators.words import Dictionary, is_latin_word, raw_tokens

_MIN_SHORT_PAGE_WORDS = 20
_DOMINANT_SHARE = 0.25
_MIN_PROSE_SHARE = 0.5
_SHIFT_SAMPLE = 20000
_SHIFT_MIN_LETTERS = 120
# Letters and digits alternating inside a token more than codes do (6FKXWWHUZDOG, 7HLOV1DFK).
# Each branch starts at a digit, which keeps the scan fast.
_MIXED = re.compile(r"\d(?:(?<=[^\W\d_]\d)\d*[^\W\d_]|[^\W\d_]+\d|(?<!\S\d)[^\W\d_]{5,})")
_MIXED_CLASSES = re.compile(rb"0(?:(?<=[aAb]0)0*[aAb]|[aAb]+0|(?<![^ ]0)[aAb]{5,})")
# C0 controls other than tab and line breaks: what shifted codes make of digits and spaces.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_WITHOUT_DIGITS = str.maketrans("", "", "0123456789")
#: Share of the letters and digits that are digits from which a page reads as codes.
_CODE_DIGIT_SHARE = 0.25
_LATIN_RUN = re.compile(r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]{3,}")


@dataclass(frozen=True)
class WindowFinding:
    """What one window showed: its broken-token rate and dictionary hit rate."""

    start: int
    words: int
    rate: float
    hit_rate: float
    garbage: bool


@dataclass(frozen=True)
class Thresholds:
    window: int = 400
    step: int = 200
    min_tokens: int = 80
    rate: float = 0.05
    hit_rate: float = 0.72
    soft_rate: float = 0.035
    soft_hit_rate: float = 0.55
    gibberish_hit_rate: float = 0.15

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Thresholds:
        defaults = cls()
        return cls(
            window=int(options.get("cipher_window", defaults.window)),
            step=int(options.get("cipher_step", defaults.step)),
            min_tokens=int(options.get("cipher_min_tokens", defaults.min_tokens)),
            rate=float(options.get("cipher_rate", defaults.rate)),
            hit_rate=float(options.get("cipher_hit_rate", defaults.hit_rate)),
            soft_rate=float(options.get("cipher_soft_rate", defaults.soft_rate)),
            soft_hit_rate=float(options.get("cipher_soft_hit_rate", defaults.soft_hit_rate)),
            gibberish_hit_rate=float(options.get("gibberish_hit_rate",
                                                 defaults.gibberish_hit_rate)),
        )


class CipherValidator(BaseEngine):
    """Garbage when a page reads like a per-glyph substitution of real words."""

    name = "pdf.cipher"
    formats = PDF_PAGES
    priority = 50

    def check(self, text: str, context: PageContext) -> Verdict:
        thresholds = Thresholds.from_options(context.options)
        dictionary = Dictionary(tuple(context.options.get("dictionaries", ("pt", "en"))))
        shifted = shifted_codes(text, dictionary, thresholds) or shifted_runs(text)
        if shifted is not None:
            return shifted
        if not may_hold_broken_tokens(text):
            # No token can be broken: skip the token walk (most pages end here).
            words = word_count(text)
            short = words < thresholds.min_tokens
            if not short or words < _MIN_SHORT_PAGE_WORDS:
                return Verdict("ok", 1.0, low_confidence=short)
        return substitution(raw_tokens(text), dictionary, thresholds)


def substitution(tokens: Sequence[str], dictionary: Dictionary, thresholds: Thresholds) -> Verdict:
    """The partial-substitution verdict over sliding windows of ``tokens``."""
    words = sum(map(str.isalpha, tokens))
    short = words < thresholds.min_tokens
    if words < _MIN_SHORT_PAGE_WORDS:
        return chaotic(tokens)
    flags = {t: looks_broken(t) for t in set(tokens)}
    if not any(flags.values()):
        return Verdict("ok", 1.0, low_confidence=short)
    findings = [f for f in _windows(tokens, dictionary, thresholds, short, flags)
                if f is not None]
    bad = [f for f in findings if f.garbage]
    if not bad:
        return Verdict("ok", 1.0, low_confidence=short or not findings)
    worst = min(bad, key=lambda f: f.hit_rate - f.rate)
    score = round(max(0.0, min(worst.hit_rate, 1 - worst.rate)) * 0.5, 4)
    reasons = ("cipher", f"cipher_rate={worst.rate:.3f}", f"hit_rate={worst.hit_rate:.2f}")
    return Verdict("garbage", score, reasons, low_confidence=short)


def chaotic(tokens: Sequence[str]) -> Verdict:
    """A short page judged by its tokens alone: most letters in runs like ``3HQČåQtSURVW~þWHFK``.

    Such a token is long, breaks from lowercase to a capital at least twice and
    has digits or symbols inside: raw codes read as characters. The verdict is
    always low-confidence; there are too few words for a dictionary to corroborate.
    """
    letters = sum(1 for t in tokens for c in t if c.isalpha())
    if not letters:
        return Verdict("ok", 1.0, low_confidence=True)
    broken = sum(sum(1 for c in t if c.isalpha()) for t in tokens if _is_chaotic(t))
    if broken / letters < 0.5:
        return Verdict("ok", 1.0, low_confidence=True)
    return Verdict("garbage", round((1 - broken / letters) * 0.5, 4), ("cipher", "raw_codes"),
                   low_confidence=True)


# Words joined by underscores: a form field's or a program's name ("Listbox_MultiSelect"),
# which goblin itself writes beside a field's value.
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")


def _is_chaotic(token: str) -> bool:
    # punctuation at the ends is not "inside" ("Name:", "(CamelCase)")
    core = token.strip(_EDGE_PUNCTUATION)
    if len(core) < 8 or core.isalpha() or _IDENTIFIER.fullmatch(core):
        return False
    return len(case_break_positions(core)) >= 2


_EDGE_PUNCTUATION = ".,;:!?()[]{}\"'"


def _windows(
    tokens: Sequence[str], dictionary: Dictionary, thresholds: Thresholds, short: bool,
    flags: dict[str, bool],
) -> Iterator[WindowFinding | None]:
    size = max(thresholds.window, 1)
    starts = range(0, max(len(tokens) - size, 0) + 1, max(thresholds.step, 1))
    for start in starts:
        yield _judge(tokens[start:start + size], start, dictionary, thresholds, short, flags)
    last = (len(tokens) - size) if len(tokens) > size else 0
    if last > 0 and last % max(thresholds.step, 1):
        yield _judge(tokens[last:], last, dictionary, thresholds, short, flags)


def _judge(
    window: Sequence[str], start: int, dictionary: Dictionary, thresholds: Thresholds, short: bool,
    flags: dict[str, bool],
) -> WindowFinding | None:
    if not window:
        return None
    counts = Counter(window)
    if counts.most_common(1)[0][1] / len(window) > _DOMINANT_SHARE:
        return None
    alpha = list(filter(str.isalpha, window))
    if len(alpha) / len(window) < _MIN_PROSE_SHARE:
        return None
    # Short pages need twice the evidence: a few odd tokens on a label are common.
    factor = 2.0 if short else 1.0
    floor = thresholds.soft_rate * factor * max(len(alpha), 1)
    candidates = [t for t in counts if flags[t]]
    if len(candidates) < floor:
        return WindowFinding(start, len(alpha), len(candidates) / max(len(alpha), 1), 1.0, False)
    # Only now the dictionary: two real words glued together are not a cipher.
    broken = {t for t in candidates if is_cipher_token(t, dictionary.knows_common)}
    rate = len(broken) / max(len(alpha), 1)
    if rate < thresholds.soft_rate * factor:
        return WindowFinding(start, len(alpha), rate, 1.0, False)
    hit = dictionary.hit_rate(t for t in alpha if is_latin_word(t) and t not in broken)
    garbage = (rate >= thresholds.rate * factor and hit < thresholds.hit_rate) or (
        hit < thresholds.soft_hit_rate
    )
    return WindowFinding(start, len(alpha), rate, hit, garbage)


def shifted_codes(text: str, dictionary: Dictionary, thresholds: Thresholds) -> Verdict | None:
    """Garbage for identity-shifted codes (``+HUDXVJHEHU``); None when the text is not that."""
    head = text[:_SHIFT_SAMPLE]
    upper, lower = case_counts(head)
    if upper + lower < _SHIFT_MIN_LETTERS:
        return None
    if upper / (upper + lower) < 0.8:
        hybrids = _hybrids(head)
        if not hybrids:
            return None
        if hybrids / max(len(head.split()), 1) < 0.15:
            return None
    runs = _LATIN_RUN.findall(head)
    # each test only returns None: the costlier code-list test goes after the ones that
    # clear most pages, and the dictionary last
    if len(runs) < 40 or identifier_codes(head, upper + lower):
        return None
    hit = dictionary.hit_rate(runs)
    if hit >= thresholds.gibberish_hit_rate:
        return None
    return Verdict("garbage", round(hit * 0.5, 4), ("cipher", "shifted_codes",
                                                   f"hit_rate={hit:.2f}"))


def identifier_codes(text: str, letters: int) -> bool:
    """Whether ``text`` reads as a list of codes (checksums, serial and vehicle numbers,
    part numbers) rather than shifted letters: digits make a good share of it and
    nothing came out as a control character.

    A font read with shifted codes turns digits and the space into control characters
    (29 below: ``\x15\x13\x15\x18`` for ``2025``), and its own digits stand for a
    few capitals, so they are rare; codes written out are digits and letters alike.

    >>> identifier_codes("1HGCM82633A004352  5FNRL38209B012345", 28)
    True
    >>> identifier_codes(")UHLWDJ\x0f\x16\x14\x11-DQXDU\x15\x13\x15\x18 6FKXWWHUZDOG", 30)
    False
    """
    if _CONTROL.search(text):
        return False
    digits = len(text) - len(text.translate(_WITHOUT_DIGITS))
    return digits >= _CODE_DIGIT_SHARE * (digits + letters)


def _hybrids(text: str) -> int:
    """Tokens where letters and digits alternate (``_MIXED``), counted on class bytes
    when the text has them."""
    classes = class_bytes(text)
    if classes is None:
        return len(_MIXED.findall(text))
    return len(_MIXED_CLASSES.findall(classes)) if b"0" in classes else 0
