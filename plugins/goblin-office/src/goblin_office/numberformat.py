"""A cell value as Excel shows it under its number format (ECMA-376 18.8.31).

Covers the formats spreadsheets use in practice: fixed decimals (``0.00``),
thousands grouping (``#,##0.00``), percent, scientific, fractions, currency
literals (``"R$" #,##0.00``, ``[$R$-416]``, ``$#,##0.00``), padding and fill
(``_-* #,##0.00_-``), negative and zero sections (``;(#,##0.00)``, ``;"-"``),
conditions (``[>=1000]``), digit masks (``00000-000``), and dates and times
(``dd/mm/yyyy``, ``h:mm AM/PM``, ``[h]:mm``) with English or Portuguese names.
Separators are the ones the code is written with (``,`` groups, ``.`` is the
decimal point), as Excel shows them in an English locale, or swapped on
request (``1.234,50``) as a Brazilian Excel shows them.

A code outside that ground (``[DBNum1]``, other calendars, unknown brackets)
compiles to None, and a value a section cannot render gives None: the caller
keeps the consistent rendering, so a value is never lost. No library on PyPI
did this both correctly and fast enough to run on every cell (it is called
for hundreds of thousands of cells): codes are compiled once and cached.
"""

from __future__ import annotations

import datetime as dt
import decimal
import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from goblin_office.cells import cell_text
from goblin_office.dateformat import FictitiousDay, date_tokens, render_date
from goblin_office.formatcodes import Token, Unsupported, split_sections, tokenize

log = logging.getLogger(__name__)

_CONTEXT = decimal.Context(prec=80, rounding=decimal.ROUND_HALF_UP)
_LARGEST = 1e60  # beyond this, Decimal quantizing needs more precision than is useful
_SWAP = str.maketrans(",.", ".,")


@dataclass(frozen=True)
class _Section:
    tokens: tuple[Token, ...]
    kind: str  # number, date, general, text, literal
    condition: tuple[str, float] | None = None
    language: str = "en"
    plan: _NumberPlan | None = None


@dataclass(frozen=True)
class NumberFormat:
    """A compiled format code; ``render(value)`` is the text Excel shows, or None."""

    code: str
    sections: tuple[_Section, ...]
    numeric: tuple[_Section, ...]
    conditional: bool

    @property
    def is_date(self) -> bool:
        """True when the first section formats dates or times."""
        return self.sections[0].kind == "date"

    @property
    def shows_date(self) -> bool:
        """True when a date section shows a year, month or day (not a time alone)."""
        return any(t.kind == "date" and t.text[0] in "ymd"
                   for section in self.sections if section.kind == "date"
                   for t in section.tokens)

    def render(self, value: Any, *, dates: bool = False, comma: bool = False) -> str | None:
        """``value`` as Excel shows it; None when this format cannot render it.

        ``dates=False`` leaves date and time values to the caller (ISO 8601);
        ``comma=True`` swaps the separators (``1.234,50``, as a Brazilian Excel shows it).

        >>> compile_format("#,##0.00;(#,##0.00)").render(-1234.5)
        '(1,234.50)'
        """
        try:
            return _render(self, value, dates, comma)
        except (ArithmeticError, ValueError, OverflowError, IndexError) as exc:
            # a value the section cannot hold (a year past 9999): the caller keeps the raw text
            log.debug("format %r cannot render %r: %s", self.code, value, exc)
            return None


@lru_cache(maxsize=1024)
def compile_format(code: str) -> NumberFormat | None:
    """The compiled format for ``code``; None for General or a code this module cannot render.

    >>> compile_format("0.00%").render(0.25678)
    '25.68%'
    >>> compile_format("General") is None
    True
    """
    if not code or code.strip().lower() == "general":
        return None
    try:
        sections = tuple(_classify(*tokenize(part)) for part in split_sections(code))
    except Unsupported:
        return None
    if not sections or len(sections) > 4:
        return None
    numeric = tuple(s for s in sections[:3] if s.kind != "text") or sections[:1]
    return NumberFormat(code, sections, numeric, any(s.condition for s in numeric))


def display_text(value: Any, code: str, *, dates: bool = False, comma: bool = False) -> str:
    """``value`` under the format ``code``, falling back to the consistent rendering.

    >>> display_text(1234.5, '"R$" #,##0.00')
    'R$ 1,234.50'
    >>> display_text(0.1 + 0.2, "General")
    '0.30000000000000004'
    """
    compiled = compile_format(code)
    shown = None if compiled is None else compiled.render(value, dates=dates, comma=comma)
    return general_text(value, comma) if shown is None else shown


def general_text(value: Any, comma: bool) -> str:
    """The consistent rendering, a number's decimal point a comma when ``comma``.

    >>> general_text(2.5, True), general_text("2.5", True)
    ('2,5', '2.5')
    """
    text = cell_text(value)
    return text.translate(_SWAP) if comma and type(value) in (float, int) else text


def _classify(tokens: list[Token], condition: tuple[str, float] | None, language: str) -> _Section:
    kinds = {t.kind for t in tokens}
    if kinds & {"date", "ampm", "elapsed"}:
        return _Section(date_tokens(tokens), "date", condition, language)
    if "general" in kinds:
        return _Section(tuple(tokens), "general", condition, language)
    if "digit" in kinds:
        frozen = tuple(tokens)
        return _Section(frozen, "number", condition, language, _plan(frozen))
    if "at" in kinds:
        return _Section(tuple(tokens), "text", condition, language)
    return _Section(tuple(tokens), "literal", condition, language)


# -- rendering -------------------------------------------------------------------


def _render(compiled: NumberFormat, value: Any, dates: bool, comma: bool) -> str | None:
    if type(value) is float or type(value) is int:
        return _render_real(compiled, float(value), comma)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return _render_text(compiled.sections, value)
    if isinstance(value, (dt.date, dt.time, dt.timedelta, FictitiousDay)):
        if not dates:
            return None
        section = compiled.sections[0]
        return (
            render_date(section.tokens, section.language, value) if section.kind == "date" else None
        )
    if not isinstance(value, (int, float)):
        return None
    return _render_real(compiled, float(value), comma)


def _render_real(compiled: NumberFormat, number: float, comma: bool) -> str | None:
    if not math.isfinite(number) or abs(number) >= _LARGEST:
        return None
    section, signed = _choose(compiled, number)
    if section is None or section.kind == "date":
        return None  # a date code on a plain number: the reader did not see a date, epoch unknown
    if section.kind == "general":
        shown = cell_text(number if signed else abs(number))
        text = _render_literals(section.tokens, shown.translate(_SWAP) if comma else shown)
    elif section.plan is None:
        text = _render_literals(section.tokens, "")
    else:
        text = _render_number(section.plan, abs(number), comma)
        if signed and number < 0 and any(ch in "123456789" for ch in text):
            text = "-" + text.lstrip()
    text = text.strip()
    return text or None  # ";;;" hides a value on screen; text extraction keeps it


def _render_text(sections: tuple[_Section, ...], value: str) -> str | None:
    text_section = sections[3] if len(sections) == 4 else None
    if text_section is None and sections[-1].kind == "text":
        text_section = sections[-1]
    if text_section is None:
        return None
    return _render_literals(text_section.tokens, value).strip() or value


def _render_literals(tokens: tuple[Token, ...], value: str) -> str:
    parts = []
    for token in tokens:
        if token.kind in ("at", "general"):
            parts.append(value)
        elif token.kind in ("lit", "slash", "comma", "percent", "point"):
            parts.append(token.text)
    return "".join(parts)


def _choose(compiled: NumberFormat, number: float) -> tuple[_Section | None, bool]:
    """The section for ``number`` and whether it is rendered with its own sign."""
    numeric = compiled.numeric
    if compiled.conditional:
        for section in numeric:
            if section.condition is None or _holds(section.condition, number):
                return section, section.condition is None or number >= 0
        return None, True
    if len(numeric) == 1:
        return numeric[0], True
    if number > 0 or (number == 0 and len(numeric) == 2):
        return numeric[0], True
    if number < 0:
        return numeric[1], False
    return numeric[2], True


def _holds(condition: tuple[str, float], number: float) -> bool:
    op, threshold = condition
    return {
        "<": number < threshold,
        ">": number > threshold,
        "=": number == threshold,
        "<=": number <= threshold,
        ">=": number >= threshold,
        "<>": number != threshold,
    }[op]


@dataclass(frozen=True)
class _NumberPlan:
    """A number section taken apart once: where the integer, point, fraction and exponent sit."""

    tokens: tuple[Token, ...]
    int_places: tuple[int, ...]
    frac_places: tuple[str, ...]
    point_at: int | None
    exp_at: int | None
    grouping: bool
    interior: bool
    factor: float
    fraction: bool
    quantum: decimal.Decimal
    simple: tuple[str, str, str, bool] | None  # prefix, format spec, suffix, drop a lone 0


def _plan(tokens: tuple[Token, ...]) -> _NumberPlan:
    kinds = [t.kind for t in tokens]
    exp_at = kinds.index("exp") if "exp" in kinds else None
    number_tokens = tokens if exp_at is None else tokens[:exp_at]
    point_at = next((i for i, t in enumerate(number_tokens) if t.kind == "point"), None)
    int_tokens = number_tokens if point_at is None else number_tokens[:point_at]
    frac_tokens = () if point_at is None else number_tokens[point_at + 1 :]
    int_places = tuple(i for i, t in enumerate(int_tokens) if t.kind == "digit")
    grouping, scale = _commas(number_tokens, int_places)
    interior = bool(int_places) and any(
        tokens[i].kind == "lit" for i in range(int_places[0], int_places[-1])
    )
    fraction = "slash" in kinds
    if fraction and (exp_at is not None or point_at is not None):
        raise Unsupported("a fraction with a decimal point or an exponent")
    frac_places = tuple(t.text for t in frac_tokens if t.kind == "digit")
    return _NumberPlan(
        tokens=tokens,
        int_places=int_places,
        frac_places=frac_places,
        point_at=point_at,
        exp_at=exp_at,
        grouping=grouping,
        interior=interior,
        factor=100.0 ** kinds.count("percent") / 1000.0**scale,
        fraction=fraction,
        quantum=decimal.Decimal(1).scaleb(-len(frac_places)),
        simple=None if fraction or exp_at is not None else _simple(tokens, grouping),
    )


def _simple(tokens: tuple[Token, ...], grouping: bool) -> tuple[str, str, str, bool] | None:
    """Literals around one plain number (``#,##0.00``, ``0%``): rendered by ``format``."""
    numeric = [i for i, t in enumerate(tokens) if t.kind in ("digit", "comma", "point")]
    first, last = numeric[0], numeric[-1]
    inside = tokens[first : last + 1]
    if any(t.kind not in ("digit", "comma", "point") for t in inside):
        return None
    outside = tokens[:first] + tokens[last + 1 :]
    if any(t.kind not in ("lit", "percent") for t in outside):
        return None
    pattern = "".join(t.text for t in inside if t.kind != "comma")
    whole, _, fraction = pattern.partition(".")
    if "?" in pattern or set(fraction) - {"0"} or whole.lstrip("#") not in ("", "0"):
        return None
    prefix = "".join(t.text for t in tokens[:first])
    suffix = "".join(t.text for t in tokens[last + 1 :])
    return prefix, ",f" if grouping else "f", suffix, not whole.endswith("0")


def _commas(tokens: tuple[Token, ...], places: tuple[int, ...]) -> tuple[bool, int]:
    """(thousands grouping?, how many times the value is divided by 1000).

    A comma between integer digits groups; commas right after the last digit scale.
    """
    grouping = bool(places) and any(t.kind == "comma" for t in tokens[places[0] : places[-1]])
    digits = [i for i, t in enumerate(tokens) if t.kind == "digit"]
    scale = 0
    for token in tokens[digits[-1] + 1 :] if digits else tokens:
        if token.kind == "comma":
            scale += 1
        elif token.kind != "lit":
            break
    return grouping, scale


def _render_number(plan: _NumberPlan, number: float, comma: bool = False) -> str:
    if plan.fraction:
        return _render_fraction(plan.tokens, number)
    number *= plan.factor
    if plan.simple is not None:
        prefix, spec, suffix, drop_zero = plan.simple
        # Excel keeps 15 significant digits, then rounds half away from zero
        value = _CONTEXT.quantize(decimal.Decimal(f"{number:.15g}"), plan.quantum)
        body = format(value, spec)
        if drop_zero and body.startswith("0"):
            body = body[1:]
        return prefix + (body.translate(_SWAP) if comma else body) + suffix
    tokens = plan.tokens
    exponent_text = ""
    if plan.exp_at is not None:
        number, exponent_text = _scientific(plan, number)
    whole, fraction = _round(number, len(plan.frac_places))
    int_text = _fill_integer(plan, whole, "." if comma else ",")
    out: list[str] = []
    for index, token in enumerate(tokens):
        if index in int_text:
            out.append(int_text[index])
        elif index == plan.exp_at:
            out.append(exponent_text)
            out.extend(t.text for t in tokens[index + 1 :] if t.kind == "lit")
            break
        elif index == plan.point_at:
            out.append("," if comma else ".")
            out.append(_fill_fraction(plan.frac_places, fraction))
        elif token.kind in ("lit", "percent"):
            out.append(token.text)
    return "".join(out)


def _scientific(plan: _NumberPlan, number: float) -> tuple[float, str]:
    tokens = plan.tokens
    assert plan.exp_at is not None
    width = max(1, len(plan.int_places))
    engineering = width > 1 and any(tokens[i].text == "#" for i in plan.int_places)
    exponent = 0
    if number:
        exponent = math.floor(math.log10(number))
        exponent = exponent // width * width if engineering else exponent - (width - 1)
        number /= 10.0**exponent
        step = width if engineering else 1
        if _round(number, len(plan.frac_places))[0] >= 10**width:
            number, exponent = number / 10.0**step, exponent + step
    exp_digits = [t for t in tokens[plan.exp_at + 1 :] if t.kind == "digit"]
    sign = "-" if exponent < 0 else ("+" if tokens[plan.exp_at].text == "+" else "")
    zeros = sum(t.text == "0" for t in exp_digits)
    return number, "E" + sign + str(abs(exponent)).zfill(zeros)


def _round(number: float, places: int) -> tuple[int, str]:
    # Excel keeps 15 significant digits, then rounds half away from zero
    quantum = decimal.Decimal(1).scaleb(-places)
    value = _CONTEXT.quantize(decimal.Decimal(f"{number:.15g}"), quantum)
    whole, _, fraction = format(value, "f").partition(".")
    return int(whole), fraction


def _fill_integer(plan: _NumberPlan, whole: int, separator: str) -> dict[int, str]:
    """Text for each integer placeholder, digits filled from the right."""
    places = plan.int_places
    if not places:
        return {}
    digits = str(whole) if whole else ""
    tokens = plan.tokens
    if not plan.interior:
        text = _pad(digits, [tokens[i].text for i in places])
        if plan.grouping:
            text = _group(text, separator)
        return {places[0]: text} | {i: "" for i in places[1:]}
    filled: dict[int, str] = {}
    remaining = digits
    for index in reversed(places):
        if remaining:
            filled[index] = remaining[-1]
            remaining = remaining[:-1]
        else:
            filled[index] = {"0": "0", "?": " "}.get(tokens[index].text, "")
    filled[places[0]] = remaining + filled[places[0]]
    return filled


def _pad(digits: str, placeholders: list[str]) -> str:
    missing = placeholders[: max(len(placeholders) - len(digits), 0)]
    return "".join({"0": "0", "?": " "}.get(p, "") for p in missing) + digits


def _group(text: str, separator: str) -> str:
    stripped = text.lstrip(" ")
    pad = text[: len(text) - len(stripped)]
    groups: list[str] = []
    while len(stripped) > 3:
        groups.insert(0, stripped[-3:])
        stripped = stripped[:-3]
    if stripped:
        groups.insert(0, stripped)
    return pad + separator.join(groups)


def _fill_fraction(placeholders: tuple[str, ...], fraction: str) -> str:
    chars = list(fraction)
    for index in range(len(placeholders) - 1, -1, -1):
        if chars[index] != "0" or placeholders[index] == "0":
            break
        chars[index] = " " if placeholders[index] == "?" else ""
    return "".join(chars)


def _render_fraction(tokens: tuple[Token, ...], number: float) -> str:
    """``# ?/?``, ``# ??/??``, ``?/8``: a whole part (when the code has one) and a fraction."""
    slash = next(i for i, t in enumerate(tokens) if t.kind == "slash")
    before, after = tokens[:slash], tokens[slash + 1 :]
    num_start = slash
    while num_start > 0 and before[num_start - 1].kind == "digit":
        num_start -= 1
    whole_tokens = before[:num_start]
    has_whole = any(t.kind == "digit" for t in whole_tokens)
    whole = int(number) if has_whole else 0
    rest = number - whole
    fixed = ""
    if after and after[0].kind == "lit" and after[0].text in "123456789":
        for token in after:
            if not token.text.isdigit():
                break
            fixed += token.text
    if fixed:
        denominator = int(fixed)
        numerator = round(rest * denominator)
    else:
        places = sum(1 for _ in _leading(after, "digit"))
        if not places:
            raise Unsupported("a fraction without a denominator")
        approx = Fraction(rest).limit_denominator(10**places - 1)
        numerator, denominator = approx.numerator, approx.denominator
    if numerator == denominator:
        whole, numerator = whole + 1, 0
    prefix = "".join(t.text for t in whole_tokens if t.kind == "lit" and t.text.strip())
    if numerator == 0:
        return prefix + str(whole)
    whole_text = str(whole) if whole else ""
    return f"{prefix}{whole_text} {numerator}/{denominator}".strip()


def _leading(tokens: tuple[Token, ...], kind: str) -> Iterator[Token]:
    for token in tokens:
        if token.kind != kind:
            return
        yield token
