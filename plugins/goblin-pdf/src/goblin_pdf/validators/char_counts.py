"""Counting letters and cases over a whole page in C instead of one call per character.

Validators run on every page, and ``sum(map(str.isupper, text))`` pays a
Python-level call per character. Text whose letters all fit Latin-1 (most
Western documents) is counted by deleting the byte classes with
``bytes.translate``; anything else takes the exact per-character path.
"""

from __future__ import annotations

import re

from goblin_pdf.validators.char_classes import class_bytes

_LATIN1 = [chr(code) for code in range(256)]
_UPPER = bytes(code for code, char in enumerate(_LATIN1) if char.isupper())
_LOWER = bytes(code for code, char in enumerate(_LATIN1) if char.islower())
_ALPHA = bytes(code for code, char in enumerate(_LATIN1) if char.isalpha())
_LATIN1_RUN = re.compile(r"[\x00-\xff]+")


def _latin1_bytes(text: str) -> bytes | None:
    """``text`` as Latin-1 bytes with everything beyond dropped, or None when a dropped
    character is a letter (the byte counts would then miss it)."""
    if text.isascii():
        return text.encode("ascii")
    raw = text.encode("latin-1", "ignore")
    # The few characters beyond Latin-1 (curly quotes, dashes) are checked one by one,
    # unless the page's class bytes (which the validators have made for it already)
    # say none of them is a letter or digit.
    if len(raw) != len(text) and class_bytes(text) is None \
            and any(map(str.isalpha, _LATIN1_RUN.sub("", text))):
        return None
    return raw


def has_letters_beyond_latin1(text: str) -> bool:
    """Whether some letter of ``text`` lies beyond Latin-1 (Greek, Cyrillic, CJK, ...).

    >>> has_letters_beyond_latin1("“Ação” – 12"), has_letters_beyond_latin1("Ωmega")
    (False, True)
    """
    return _latin1_bytes(text) is None


def case_counts(text: str) -> tuple[int, int]:
    """Uppercase and lowercase letters in ``text``.

    >>> case_counts("São Paulo, SP")
    (4, 6)
    """
    raw = _latin1_bytes(text)
    if raw is None:
        return sum(map(str.isupper, text)), sum(map(str.islower, text))
    return len(raw) - len(raw.translate(None, _UPPER)), len(raw) - len(raw.translate(None, _LOWER))


def letter_count(text: str) -> int:
    """Letters (``str.isalpha``) in ``text``.

    >>> letter_count("Licitação nº 12/2020")
    11
    """
    raw = _latin1_bytes(text)
    if raw is None:
        return sum(map(str.isalpha, text))
    return len(raw) - len(raw.translate(None, _ALPHA))
