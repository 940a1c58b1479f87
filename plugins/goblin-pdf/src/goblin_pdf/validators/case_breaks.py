"""Which tokens look like a per-glyph substitution, and which only look odd.

A font whose glyphs map to the wrong code points keeps the word's shape but
not its letters: ``LICITAgAO`` (Ç and Ã landed on g and A), ``R$ í47.200,04``
(1 landed on í). The tell is a lowercase letter followed by a capital inside
a word, or one letter inside a formatted number. Real text has such tokens
too, and this module knows them: two words glued (``licitaçãoPregão``),
CamelCase brands (``PowerPoint``, ``iPhone``), welding-alloy and chemical
codes (``ENiCrFe``, ``ERNiCrMo``), units after numbers (``3,5kg``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from goblin_pdf.validators.char_classes import class_bytes
from goblin_pdf.validators.char_counts import has_letters_beyond_latin1

_BRAND = re.compile(r"(?:[A-Z][a-z]+){2,3}|[a-z][A-Z][a-z]{2,}|Mc[A-Z][a-z]+")
_ELEMENTS = frozenset({
    "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S",
    "Cl", "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga",
    "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh",
    "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr",
    "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta",
    "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr",
    "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu"
})
_NUMBER_CHARS = frozenset("0123456789.,")
_DIGIT = re.compile(r"\d")
_LATIN1_HINT = re.compile(
    r"[a-z\u00df-\u00f6\u00f8-\u00ff][A-Z\u00c0-\u00d6\u00d8-\u00de]"
    # Anchored on a digit, so the scan only tries at digits: a letter before or inside a number.
    r"|\d(?:(?<=[^\W\d_]\d)[\d.,]*[.,]\d|[^\W\d_][\d.,]*\d)"
)
# The digit branch of the hint on class bytes (the case branch is a substring test there).
_NUMBER_HINT_CLASSES = re.compile(rb"0(?:(?<=[aAb]0)[0.,]*[.,]0|[aAb][0.,]*0)")
_LETTER = re.compile(r"[^\W\d_]")


def case_break_positions(token: str) -> list[int]:
    """Indexes where a lowercase letter is followed by a capital.

    >>> case_break_positions("LICITAgAO")
    [7]
    """
    return [i + 1 for i in range(len(token) - 1) if token[i].islower() and token[i + 1].isupper()]


def is_alloy_code(token: str) -> bool:
    """A run of chemical element symbols, after an optional 1-2 capital prefix (ER, E).

    >>> is_alloy_code("ENiCrFe"), is_alloy_code("ERNiCrMo"), is_alloy_code("LICITAgAO")
    (True, True, False)
    """
    letters = "".join(c for c in token if c.isalpha())
    return any(_elements(letters[cut:]) for cut in range(0, 3) if letters[:cut].isupper()
               or cut == 0)


@functools.cache
def _elements(letters: str) -> bool:
    if not letters:
        return True
    for size in (2, 1):
        head = letters[:size]
        if len(head) == size and head in _ELEMENTS and _elements(letters[size:]):
            return True
    return False


def is_brand(token: str) -> bool:
    """CamelCase names: PowerPoint, YouTube, iPhone, eBay, McDonald."""
    return _BRAND.fullmatch(token) is not None


def is_glued_words(token: str, breaks: list[int], knows: Callable[[str], bool]) -> bool:
    """Two or more real words run together at the case breaks (``contratoPregão``)."""
    parts = [token[a:b] for a, b in zip([0, *breaks], [*breaks, len(token)], strict=True)]
    return all(len(p) >= 2 and knows(p) for p in parts)


def is_number_hybrid(token: str) -> bool:
    """A formatted number with one letter inside or in front (í47.200,04, 1O.000).

    A letter at the end is a unit (3,5kg, 10m) and does not count.

    >>> is_number_hybrid("í47.200,04"), is_number_hybrid("3,5kg"), is_number_hybrid("2020")
    (True, False, False)
    """
    letters = _LETTER.findall(token)
    if len(letters) != 1:
        return False
    at = token.index(letters[0])
    if at == len(token) - 1:
        return False
    rest = token[:at] + token[at + 1:]
    digits = sum(c.isdigit() for c in rest)
    return digits >= 4 and set(rest) <= _NUMBER_CHARS and ("." in rest or "," in rest)


def may_hold_broken_tokens(text: str) -> bool:
    """False when a text with Latin-1 letters only has no case break and no letter in a number.

    Regex passes in C that spare most pages the token walk; text with letters
    beyond Latin-1 always answers True (their cases need str methods).
    """
    if not text:
        return True
    classes = class_bytes(text)
    if classes is not None:
        return b"aA" in classes or _NUMBER_HINT_CLASSES.search(classes) is not None
    if has_letters_beyond_latin1(text):
        return True
    return _LATIN1_HINT.search(text) is not None


# Cached: the same words come back page after page, and the cipher check asks about
# every distinct token of a page.
@functools.lru_cache(maxsize=1 << 16)
def looks_broken(token: str) -> bool:
    """A case break or number hybrid that no dictionary-free guard explains."""
    if token.isalpha():
        # Fast paths in C: most words are one case or capitalised.
        if token.islower() or token.isupper() or token.istitle():
            return False
    elif _DIGIT.search(token):
        return is_number_hybrid(token)
    else:
        return False
    if is_brand(token) or is_alloy_code(token):
        return False
    return bool(case_break_positions(token))


def is_cipher_token(token: str, knows: Callable[[str], bool]) -> bool:
    """True for a token broken the way a substituted font breaks words.

    >>> never = lambda word: False
    >>> is_cipher_token("LICITAgAO", never), is_cipher_token("PowerPoint", never)
    (True, False)
    """
    if not looks_broken(token):
        return False
    return not (token.isalpha() and is_glued_words(token, case_break_positions(token), knows))
