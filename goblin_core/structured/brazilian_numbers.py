"""Reading Brazilian numbers and money as procurement tables print them.

Brazilian documents write ``1.234,56`` (dot for thousands, comma for
decimals) and money as ``R$ 16.511,45``. Budget spreadsheets exported from
other tools mix in ``1234.56``; both are read, the Brazilian reading first.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_CURRENCY = re.compile(r"^(?:R\$|US\$|\$|€|BRL)\s*", re.IGNORECASE)
_BR_GROUPED = re.compile(r"^\d{1,3}(?:\.\d{3})+(?:,\d+)?$")
_BR_PLAIN = re.compile(r"^\d+(?:,\d+)?$")
_EN_GROUPED = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_EN_PLAIN = re.compile(r"^\d*\.\d+$")
#: Minus signs other than the hyphen-minus: U+2212 and its small and full-width forms.
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\ufe63": "-", "\uff0d": "-"})
#: a space between thousands (``1 234,56``): before a group of exactly three digits
_SPACE_IN_NUMBER = re.compile(r"(?<=\d) (?=\d{3}(?:[^\d]|$))")


def parse_br_number(text: str | None) -> Decimal | None:
    """The number a cell holds, or None when it holds something else.

    Accepts ``1.234,56``, ``1 234,56``, ``R$ 16.511,45``, ``-1.234,56``
    (``−1.234,56`` with the minus sign too), ``+10,00``, ``(1.234,56)`` and
    ``1.234,56-`` (accounting negatives, the second as SAP exports write them),
    ``12,5%`` (read as 12.5) and plain ``1234.56``. A lone ``1.234`` is read the
    Brazilian way (one thousand two hundred thirty-four). Two numbers side by side
    (``10 20``) are not one.

    >>> parse_br_number("R$ 16.511,45")
    Decimal('16511.45')
    >>> parse_br_number("-1.234,56")
    Decimal('-1234.56')
    >>> parse_br_number("12,5%")
    Decimal('12.5')
    >>> parse_br_number("Areia") is None
    True
    >>> parse_br_number("1.234,56-"), parse_br_number("10 20")
    (Decimal('-1234.56'), None)
    """
    if text is None:
        return None
    # typeset documents (LaTeX, Word's equation and finance fonts) write the minus sign
    body = " ".join(str(text).translate(_MINUS_SIGNS).split())
    if not body:
        return None
    negative = False
    if body.startswith("(") and body.endswith(")"):
        negative, body = True, body[1:-1].strip()
    if body.startswith("-"):
        negative, body = not negative, body[1:].strip()
    elif body.startswith("+"):
        body = body[1:].strip()
    elif body.endswith("-") and body[:-1].rstrip()[-1:].isdigit():
        negative, body = not negative, body[:-1].strip()
    body = _CURRENCY.sub("", body)
    if body.startswith("-"):
        negative, body = not negative, body[1:].strip()
    if body.endswith("%"):
        body = body[:-1].strip()
    value = _read_digits(_SPACE_IN_NUMBER.sub("", body))
    if value is None:
        return None
    return -value if negative else value


def _read_digits(body: str) -> Decimal | None:
    if _BR_GROUPED.match(body) or _BR_PLAIN.match(body):
        canonical = body.replace(".", "").replace(",", ".")
    elif _EN_GROUPED.match(body):
        canonical = body.replace(",", "")
    elif _EN_PLAIN.match(body):
        canonical = body
    else:
        return None
    try:
        return Decimal(canonical)
    except InvalidOperation:
        return None


def is_number(text: str | None) -> bool:
    """True when ``parse_br_number`` reads ``text``."""
    return parse_br_number(text) is not None


def is_figure(text: str | None) -> bool:
    """True for cells that hold data figures: numbers, money, dates, codes of digits.

    Looser than ``is_number``: a date ``06/22/2015`` or ``2,100 kg`` counts,
    because what matters is that the cell is data, not a header word.

    >>> is_figure("06/22/2015"), is_figure("UNIT."), is_figure("R$ 1,00")
    (True, False, True)
    """
    if is_number(text):
        return True
    compact = "".join((text or "").split())
    if not compact:
        return False
    digits = sum(ch.isdigit() for ch in compact)
    return digits > 0 and digits * 2 >= len(compact)
