"""The syntax of spreadsheet number format codes (ECMA-376 Part 1, 18.8.31).

A code is up to four ``;``-separated sections (positive, negative, zero,
text); a section is a run of tokens: digit placeholders (``0 # ?``), the
decimal point, commas, percent, exponents, date and time letters, literals
(quoted, escaped, padding ``_x``), and brackets (colours, conditions,
currency and locale ``[$R$-416]``, elapsed time ``[h]``). What this module does
not know (``[DBNum1]``, other calendars) raises Unsupported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COLORS = frozenset(("black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"))
_CONDITION = re.compile(r"^(<=|>=|<>|<|>|=)\s*(-?\d+(?:\.\d+)?)$")
_ELAPSED = re.compile(r"^(h+|m+|s+)$", re.I)
_DIGITS = "0#?"
_DATE_LETTERS = "ymdhs"
_PORTUGUESE = (0x0416, 0x0816)


class Unsupported(ValueError):
    """A format code this plugin does not render."""


@dataclass(frozen=True)
class Token:
    """One token: its kind (lit, digit, point, comma, percent, exp, slash, at, general,
    date, ampm, elapsed, subsec) and its text."""

    kind: str
    text: str = ""


def split_sections(code: str) -> list[str]:
    """The ``;``-separated sections of a code (not the ``;`` inside quotes or brackets)."""
    parts: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(code):
        char = code[i]
        if char == '"':
            end = code.find('"', i + 1)
            end = len(code) - 1 if end < 0 else end
            current.append(code[i : end + 1])
            i = end + 1
            continue
        if char in "\\_*" and i + 1 < len(code):
            current.append(code[i : i + 2])
            i += 2
            continue
        if char == "[":
            end = code.find("]", i)
            end = len(code) - 1 if end < 0 else end
            current.append(code[i : end + 1])
            i = end + 1
            continue
        if char == ";":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    parts.append("".join(current))
    return parts


def tokenize(body: str) -> tuple[list[Token], tuple[str, float] | None, str]:
    """The tokens of one section, its condition (``[>=1000]``) and its names' language."""
    tokens: list[Token] = []
    condition: tuple[str, float] | None = None
    language = "en"
    i = 0
    while i < len(body):
        if body[i] == "[":
            end = body.find("]", i)
            if end < 0:
                raise Unsupported(body)
            found = _bracket(body[i + 1 : end])
            if isinstance(found, Token):
                tokens.append(found)
            elif isinstance(found, tuple):
                condition = found
            elif found == "pt":
                language = "pt"
            i = end + 1
            continue
        token, i = _token_at(body, i)
        if token is not None:
            tokens.append(token)
    return tokens, condition, language


def _token_at(body: str, i: int) -> tuple[Token | None, int]:
    """The token at ``i`` (None for a fill character) and where the next one starts."""
    char = body[i]
    if char == '"':
        end = body.find('"', i + 1)
        end = len(body) if end < 0 else end
        return Token("lit", body[i + 1 : end]), end + 1
    if char in "\\_*" and i + 1 < len(body):
        # an escaped character; padding as wide as a character; a fill, which repeats
        # to the column width: nothing in text
        return {"\\": Token("lit", body[i + 1]), "_": Token("lit", " "), "*": None}[char], i + 2
    for word, kind in (("general", "general"), ("am/pm", "ampm"), ("a/p", "ampm")):
        if body[i : i + len(word)].lower() == word:
            return Token(kind, body[i : i + len(word)] if kind == "ampm" else ""), i + len(word)
    lower = char.lower()
    if char in _DIGITS:
        return Token("digit", char), i + 1
    if lower in _DATE_LETTERS:
        run = len(body[i:]) - len(body[i:].lstrip(char))
        return Token("date", lower * run), i + run
    if lower == "e" and body[i + 1 : i + 2] in ("+", "-"):
        return Token("exp", body[i + 1]), i + 2
    if char.isalpha() and char.isascii():
        raise Unsupported(body)  # b (Buddhist year), g (era), e alone: other calendars
    return _single(char), i + 1


def _single(char: str) -> Token:
    kinds = {".": "point", ",": "comma", "%": "percent", "/": "slash", "@": "at"}
    return Token(kinds.get(char, "lit"), char)


def _bracket(inner: str) -> Token | tuple[str, float] | str | None:
    lowered = inner.lower()
    if lowered in _COLORS or re.fullmatch(r"color\s*\d+", lowered):
        return None
    if inner.startswith("$"):
        symbol, _, locale = inner[1:].partition("-")
        if _portuguese(locale):
            return Token("lit", symbol) if symbol else "pt"
        # other locales, and [$-F800]/[$-F400] (the system's long date and time, for
        # which the code that follows is the fallback): English names
        return Token("lit", symbol) if symbol else None
    condition = _CONDITION.match(inner.strip())
    if condition:
        return condition.group(1), float(condition.group(2))
    if _ELAPSED.match(inner):
        return Token("elapsed", inner.lower())
    raise Unsupported(inner)


def _portuguese(locale: str) -> bool:
    """A pt-BR or pt-PT locale: an LCID (``416``, ``10416``) or a tag (``pt-BR``)."""
    if locale.lower().startswith("pt"):
        return True
    try:
        return int(locale, 16) & 0xFFFF in _PORTUGUESE
    except ValueError:
        return False
