"""Date and time sections of number format codes: ``dd/mm/yyyy``, ``h:mm AM/PM``, ``[h]:mm``.

Values arrive as the readers give them (datetime, date, time, timedelta), so no
serial-number epoch is needed; they are rounded to the precision the code
shows. ``m`` is minutes next to hours or seconds, months elsewhere. Month and
day names are English, or Portuguese under a pt locale (``[$-416]``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from goblin_office.formatcodes import Token

_EPOCH_1900 = dt.datetime(1899, 12, 30)
_MONTHS = {
    "en": [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    "pt": [
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ],
}
_DAYS = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "pt": [
        "segunda-feira",
        "terça-feira",
        "quarta-feira",
        "quinta-feira",
        "sexta-feira",
        "sábado",
        "domingo",
    ],
}


def date_tokens(tokens: list[Token]) -> tuple[Token, ...]:
    """Tell minutes from months, fold ``.0`` after seconds into sub-seconds, slashes to text."""
    out: list[Token] = []
    for index, token in enumerate(tokens):
        minutes = _after_hours(out) or _before_seconds(tokens, index)
        if token.kind == "date" and token.text[0] == "m" and len(token.text) <= 2 and minutes:
            token = Token("date", token.text.replace("m", "n"))  # n: minutes
        if token.kind == "digit" and token.text == "0" and out and out[-1].kind == "subsec":
            out[-1] = Token("subsec", out[-1].text + "0")
            continue
        if token.kind == "digit" and token.text == "0" and out and out[-1].kind == "point":
            out[-1] = Token("subsec", "0")
            continue
        if token.kind in ("slash", "comma", "percent", "digit", "at", "exp"):
            token = Token("lit", token.text)
        out.append(token)
    return tuple(Token("lit", ".") if t.kind == "point" else t for t in out)


def _after_hours(previous: list[Token]) -> bool:
    """The nearest date or time token before is an hour."""
    for token in reversed(previous):
        if token.kind in ("date", "elapsed"):
            return token.text[0] == "h"
    return False


def _before_seconds(tokens: list[Token], index: int) -> bool:
    """The nearest date or time token after ``index`` is a second."""
    for token in tokens[index + 1 :]:
        if token.kind in ("date", "elapsed"):
            return token.text[0] == "s"
    return False


def render_date(tokens: tuple[Token, ...], language: str, value: Any) -> str | None:
    """A date, time, datetime or duration under a date section's tokens."""
    subsec = max((len(t.text) for t in tokens if t.kind == "subsec"), default=0)
    moment, elapsed = _moment(value, subsec)
    if moment is None:
        return None
    twelve = any(t.kind == "ampm" for t in tokens)
    out: list[str] = []
    for token in tokens:
        if token.kind == "lit":
            out.append(token.text)
        elif token.kind == "date":
            out.append(_date_part(token.text, moment, twelve, language))
        elif token.kind == "elapsed":
            out.append(_elapsed_part(token.text, elapsed))
        elif token.kind == "ampm":
            out.append(_ampm(token.text, moment.hour))
        elif token.kind == "subsec":
            out.append("." + f"{moment.microsecond:06d}"[: len(token.text)])
    return "".join(out).strip()


def _moment(value: Any, subsec: int) -> tuple[dt.datetime | None, float]:
    """The value as a datetime rounded to the shown precision, and its serial in seconds."""
    if isinstance(value, dt.timedelta):
        moment = _EPOCH_1900 + value
    elif isinstance(value, dt.datetime):
        moment = value.replace(tzinfo=None)
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, dt.time):
        moment = dt.datetime.combine(_EPOCH_1900.date(), value.replace(tzinfo=None))
    else:
        return None, 0.0
    step = 10 ** (6 - subsec)
    micro = moment.microsecond
    rounded = (micro + step // 2) // step * step
    moment = moment.replace(microsecond=0) + dt.timedelta(microseconds=rounded)
    if isinstance(value, dt.timedelta):
        seconds = round(value.total_seconds(), subsec)
    else:
        seconds = (moment - _EPOCH_1900).total_seconds()
    return moment, seconds


def _date_part(code: str, moment: dt.datetime, twelve: bool, language: str) -> str:
    letter, size = code[0], len(code)
    if letter == "y":
        return f"{moment.year % 100:02d}" if size <= 2 else f"{moment.year:04d}"
    if letter == "m":
        names = _MONTHS[language]
        if size >= 5:
            return names[moment.month - 1][0]
        if size == 4:
            return names[moment.month - 1]
        if size == 3:
            return names[moment.month - 1][:3]
        return f"{moment.month:0{size}d}"
    if letter == "d":
        if size >= 4:
            return _DAYS[language][moment.weekday()]
        if size == 3:
            return _DAYS[language][moment.weekday()][:3]
        return f"{moment.day:0{size}d}"
    if letter == "h":
        hour = (moment.hour % 12 or 12) if twelve else moment.hour
        return f"{hour:0{min(size, 2)}d}"
    if letter == "n":
        return f"{moment.minute:0{min(size, 2)}d}"
    return f"{moment.second:0{min(size, 2)}d}"


def _elapsed_part(code: str, seconds: float) -> str:
    unit = {"h": 3600, "m": 60, "s": 1}[code[0]]
    total = int(abs(seconds) // unit)
    sign = "-" if seconds < 0 else ""
    return f"{sign}{total:0{len(code)}d}"


def _ampm(code: str, hour: int) -> str:
    morning = hour < 12
    if len(code) == 5:
        word = "AM" if morning else "PM"
        return word if code[0].isupper() else word.lower()
    letter = "A" if morning else "P"
    return letter if code[0].isupper() else letter.lower()
