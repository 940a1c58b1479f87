"""Date and time sections of number format codes: ``dd/mm/yyyy``, ``h:mm AM/PM``, ``[h]:mm``.

Values arrive as the readers give them (datetime, date, time, timedelta), so no
serial-number epoch is needed; they are rounded to the precision the code
shows. ``m`` is minutes next to hours or seconds, months elsewhere. Month and
day names are English, or Portuguese under a pt locale (``[$-416]``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from goblin_office.formatcodes import Token

_EPOCH_1900 = dt.datetime(1899, 12, 30)
_EPOCH_1904 = dt.datetime(1904, 1, 1)
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


@dataclass(frozen=True)
class FictitiousDay:
    """A day Excel's 1900 date system counts that the calendar lacks: 0 January 1900
    (serial 0, which Excel shows under a date format as ``1900-01-00``) and 29 February
    1900 (serial 60: Excel kept Lotus 1-2-3's leap day). No ``datetime`` holds them, and
    the readers give the day before or after instead, so two cells would read alike.
    Text is what the readers give for the days around it: a date with its time of day,
    and for day 0 the time of day alone.

    >>> [str(FictitiousDay(s)) for s in (60, 60.5, 0.25)]
    ['1900-02-29', '1900-02-29 12:00:00', '06:00:00']
    """

    serial: float

    @property
    def day_before(self) -> dt.datetime:
        """The real day before it, 31 December 1899 or 28 February 1900."""
        return dt.datetime(1899, 12, 31) if self.serial < 1 else dt.datetime(1900, 2, 28)

    @property
    def shown(self) -> tuple[int, int, int, int]:
        """(year, month, day, weekday) as Excel shows it, the weekday counted from Monday
        as ``datetime.weekday`` counts (Excel takes serial 1 for a Sunday)."""
        day = 0 if self.serial < 1 else 29
        return 1900, 1 if day == 0 else 2, day, (int(self.serial) - 2) % 7

    def moment(self, step: int = 1) -> dt.datetime:
        """The day before plus the time of day, rounded to ``step`` microseconds."""
        fraction = self.serial - int(self.serial)
        exact = round(fraction * 86_400_000_000)
        return self.day_before + dt.timedelta(microseconds=(exact + step // 2) // step * step)

    def __str__(self) -> str:
        moment = self.moment()
        midnight = moment.time() == dt.time(0)
        if moment.date() != self.day_before.date():
            return moment.date().isoformat() if midnight else moment.isoformat(sep=" ")
        year, month, day, _ = self.shown
        if day == 0:
            return moment.time().isoformat()
        date = f"{year}-{month:02d}-{day:02d}"
        return date if midnight else f"{date} {moment.time().isoformat()}"


def excel_serial(serial: float, value: Any = None, *, date1904: bool = False,
                 with_date: bool = False) -> Any:
    """A date cell holding ``serial`` as Excel shows it, where a reader's ``value`` for it
    (a datetime, date or time) cannot say it: a negative serial, which Excel shows as
    ``#####``, as the number itself; in the 1900 date system, 29 February 1900 (serial
    60) and the times of 0 January 1900 (under 1) as a ``FictitiousDay``; ``with_date``
    (shown under a format that shows the date) in the 1904 system, a time of day on 1
    January 1904. Otherwise ``value``.

    >>> excel_serial(-0.25), str(excel_serial(60.5)), excel_serial(0.5, date1904=True)
    (-0.25, '1900-02-29 12:00:00', None)
    """
    if serial < 0:
        return serial
    if date1904:
        if with_date and serial < 1:
            return _EPOCH_1904 + dt.timedelta(days=serial)
        return value
    if serial < 1 or 60 <= serial < 61:
        return FictitiousDay(serial)
    return value


def serial_value(serial: float, *, date1904: bool = False, elapsed: bool = False) -> Any:
    """The value a date cell holding ``serial`` reads as, as calamine gives it: a duration
    under an elapsed-time format (``[h]:mm``), a time of day under 1, else a datetime
    (a date at midnight), to the millisecond; what ``excel_serial`` says for a serial no
    calendar day stands for; the number itself past 9999.

    >>> serial_value(45366.25), serial_value(0.5)
    (datetime.datetime(2024, 3, 15, 6, 0), datetime.time(12, 0))
    >>> serial_value(1.5, elapsed=True)
    datetime.timedelta(days=1, seconds=43200)
    >>> serial_value(43904, date1904=True), serial_value(-1), str(serial_value(60))
    (datetime.datetime(2024, 3, 15, 0, 0), -1, '1900-02-29')
    """
    moment = dt.timedelta(milliseconds=round(serial * 86_400_000))
    if elapsed:
        return moment
    special = excel_serial(serial, date1904=date1904)
    if special is not None and not 0 <= serial < 1:
        return special
    if 0 <= serial < 1:
        return (dt.datetime.min + moment).time()
    # in the 1900 system the days before the fictitious 29 February count from a day later
    epoch = _EPOCH_1904 if date1904 else _EPOCH_1900 + dt.timedelta(days=serial < 60)
    try:
        return epoch + moment
    except OverflowError:
        return serial


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
    shown = (moment.year, moment.month, moment.day, moment.weekday())
    if isinstance(value, FictitiousDay) and moment.date() == value.day_before.date():
        shown = value.shown
    twelve = any(t.kind == "ampm" for t in tokens)
    out: list[str] = []
    for token in tokens:
        if token.kind == "lit":
            out.append(token.text)
        elif token.kind == "date":
            out.append(_date_part(token.text, moment, shown, twelve, language))
        elif token.kind == "elapsed":
            out.append(_elapsed_part(token.text, elapsed))
        elif token.kind == "ampm":
            out.append(_ampm(token.text, moment.hour))
        elif token.kind == "subsec":
            out.append("." + f"{moment.microsecond:06d}"[: len(token.text)])
    return "".join(out).strip()


def _moment(value: Any, subsec: int) -> tuple[dt.datetime | None, float]:
    """The value as a datetime rounded to the shown precision, and its serial in seconds."""
    step = 10 ** (6 - subsec)
    if isinstance(value, FictitiousDay):
        return value.moment(step), round(value.serial * 86400, subsec)
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
    micro = moment.microsecond
    rounded = (micro + step // 2) // step * step
    moment = moment.replace(microsecond=0) + dt.timedelta(microseconds=rounded)
    if isinstance(value, dt.timedelta):
        seconds = round(value.total_seconds(), subsec)
    else:
        seconds = (moment - _EPOCH_1900).total_seconds()
    return moment, seconds


def _date_part(
    code: str, moment: dt.datetime, shown: tuple[int, int, int, int], twelve: bool,
    language: str,
) -> str:
    letter, size = code[0], len(code)
    year, month, day, weekday = shown
    if letter == "y":
        return f"{year % 100:02d}" if size <= 2 else f"{year:04d}"
    if letter == "m":
        names = _MONTHS[language]
        if size >= 5:
            return names[month - 1][0]
        if size == 4:
            return names[month - 1]
        if size == 3:
            return names[month - 1][:3]
        return f"{month:0{size}d}"
    if letter == "d":
        if size >= 4:
            return _DAYS[language][weekday]
        if size == 3:
            return _DAYS[language][weekday][:3]
        return f"{day:0{size}d}"
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
