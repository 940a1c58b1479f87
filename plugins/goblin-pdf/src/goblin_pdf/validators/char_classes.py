"""A page's text as one byte per character class, for patterns that only ask about classes.

Several validators scan every page with patterns built from ``\\d``,
``[^\\W\\d_]`` (letters), ``\\s`` and case ranges. On ``str`` each position
costs a Unicode category lookup; on a bytes string of classes the same
pattern is a table lookup, and a pattern anchored on a literal class byte
lets the regex engine skip ahead in C. Positions are kept (one byte per
character), so matches, their count and their spans are the same.

Classes: ``a`` a lowercase letter of ``[a-zß-öø-ÿ]``, ``A`` an uppercase letter
of ``[A-ZÀ-ÖØ-Þ]``, ``b`` any other letter, ``0`` a digit, a space for
whitespace, ``.`` and ``,`` as themselves, ``#`` anything else; so ``[^\\W\\d_]``
is ``[aAb]``, ``\\d`` is ``0`` and ``\\s`` is a space.
"""

from __future__ import annotations

import functools
import re

LOWER, UPPER, OTHER_LETTER, DIGIT, SPACE, ELSE = b"a", b"A", b"b", b"0", b" ", b"#"

_LOWER_RANGE = re.compile(r"[a-z\u00df-\u00f6\u00f8-\u00ff]")
_UPPER_RANGE = re.compile(r"[A-Z\u00c0-\u00d6\u00d8-\u00de]")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_SPACE = re.compile(r"\s")
_KEPT = ".,"


def _class_of(char: str) -> bytes:
    """The class byte of one Latin-1 character, decided by the same patterns the
    validators would have used on it."""
    if _LOWER_RANGE.fullmatch(char):
        return LOWER
    if _UPPER_RANGE.fullmatch(char):
        return UPPER
    if _LETTER.fullmatch(char):
        return OTHER_LETTER
    if _DIGIT.fullmatch(char):
        return DIGIT
    if _SPACE.fullmatch(char):
        return SPACE
    return char.encode("latin-1") if char in _KEPT else ELSE


_TABLE = b"".join(_class_of(chr(code)) for code in range(256))


@functools.lru_cache(maxsize=8)
def class_bytes(text: str) -> bytes | None:
    """``text`` as class bytes, or None when a character beyond Latin-1 is a letter,
    a digit or whitespace: the table cannot place those (they are encoded as "?"),
    so callers then use their ``str`` patterns.

    Cached for the last few texts: every validator of a page asks about the same text.

    >>> class_bytes("Nº 12, “São”")
    b'Ab 00, #Aaa#'
    >>> class_bytes("Ωmega") is None
    True
    """
    if text.isascii():
        return text.encode("ascii").translate(_TABLE)
    raw = text.encode("latin-1", "replace")
    if raw.count(b"?") != text.count("?"):
        # Look only at the replaced places (a few quotes and dashes on most pages);
        # a page in another script stops at its first letter.
        at = raw.find(b"?")
        while at >= 0:
            char = text[at]
            # str.isalnum and str.isspace are what \w and \s test for str patterns
            if char.isalnum() or char.isspace():
                return None
            at = raw.find(b"?", at + 1)
    return raw.translate(_TABLE)


# Class bytes reduced to space or not: a word starts at every " x" (and at a leading x).
_SPACE_OR_NOT = bytes(code if code == SPACE[0] else ord("x") for code in range(256))


def word_count(text: str) -> int:
    """``len(text.split())`` without making the words.

    >>> word_count("  Nº 12,  “São” ")
    3
    """
    classes = class_bytes(text)
    if classes is None:
        return len(text.split())
    marks = classes.translate(_SPACE_OR_NOT)
    return marks.count(b" x") + marks.startswith(b"x")


def long_tokens(text: str, length: int) -> list[str]:
    """The tokens of ``text.split()`` at least ``length`` characters long: a page
    without any is told from its class bytes, without making the words.

    >>> long_tokens("a Donaudampfschiff  “Nº”", 6)
    ['Donaudampfschiff']
    """
    classes = class_bytes(text)
    if classes is not None and b"x" * length not in classes.translate(_SPACE_OR_NOT):
        return []
    return [token for token in text.split() if len(token) >= length]


def non_space_count(text: str) -> int:
    """Characters that are not whitespace.

    >>> non_space_count(" a b\\n c ")
    3
    """
    classes = class_bytes(text)
    if classes is None:
        return len("".join(text.split()))
    return len(classes) - classes.count(SPACE)
