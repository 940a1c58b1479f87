"""PDF document information: dates in ISO 8601 and goblin's normalised keys."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

_DATE = re.compile(
    r"(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+\-])(\d{2})?'?(\d{2})?'?)?"
)
# years a document can have been made in: beyond them the digits are no date read right
# (``D:990101``, a two-digit year, reads as 9901)
_YEARS = range(1900, 2200)
# BCP 47 (RFC 5646) in its general shape: what PDF 1.4's /Lang holds. Anything else in
# that key (a sentence, a long blob, a font name) is not reported as the language.
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8}){0,15}")
_INFO_KEYS = {
    "Title": "title",
    "Author": "author",
    "Subject": "subject",
    "Keywords": "keywords",
    "Creator": "creator",
    "Producer": "producer",
}


def pdf_date(value: str) -> str | None:
    """A PDF date string (``D:20060524132802-07'00'``) as ISO 8601, or None.

    >>> pdf_date("D:20060524132802-07'00'")
    '2006-05-24T13:28:02-07:00'
    >>> pdf_date("D:2020")
    '2020-01-01T00:00:00'

    A date written as ISO 8601 is read as such; one that is neither, or names no real
    moment (an offset of 25 hours, the year 9901), is None, and the caller keeps the
    text as written.

    >>> pdf_date("2021-05-17T10:20:30Z"), pdf_date("D:2021-05-17")
    ('2021-05-17T10:20:30+00:00', '2021-05-17T00:00:00')
    >>> pdf_date("D:20200101120000+25'00'"), pdf_date("D:990101"), pdf_date("yesterday")
    (None, None, None)
    >>> pdf_date("D:20060524132802-07'00'\\x00")
    '2006-05-24T13:28:02-07:00'
    """
    text = value.strip()
    match = _DATE.fullmatch(text)
    if match is None:
        iso = _iso_date(text.removeprefix("D:"))
        match = _DATE.match(text)
        # a date followed by stray bytes (a NUL) is still read; one whose digits go on
        # (``D:2021-05-17``, whose ``-05`` would read as a time zone) is not this shape
        if iso is not None or match is None or any(c.isdigit() for c in text[match.end():]):
            return iso
    year, month, day, hour, minute, second, sign, tz_h, tz_m = match.groups()
    if int(year) not in _YEARS or int(tz_h or 0) > 23 or int(tz_m or 0) > 59:
        return None
    try:
        stamp = datetime(int(year), int(month or 1), int(day or 1), int(hour or 0),
                         int(minute or 0), int(second or 0))
        if sign in ("Z", "z"):
            stamp = stamp.replace(tzinfo=UTC)
        elif sign in ("+", "-"):
            offset = timedelta(hours=int(tz_h or 0), minutes=int(tz_m or 0))
            stamp = stamp.replace(tzinfo=timezone(offset if sign == "+" else -offset))
    except ValueError:  # a month 13, an offset of a day or more
        return None
    return stamp.isoformat()


def _iso_date(text: str) -> str | None:
    """``text`` read as an ISO 8601 date or moment, as some producers write their dates."""
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    return stamp.isoformat() if stamp.year in _YEARS else None


def language_tag(value: str) -> str | None:
    """The document catalog's /Lang as a language tag, or None when it is not one.

    >>> language_tag(" en-US ")
    'en-US'
    >>> language_tag("English (United States)") is None
    True
    """
    tag = value.strip()
    return tag if len(tag) <= 64 and _LANGUAGE_TAG.fullmatch(tag) else None


def _without_nuls(value: Any) -> Any:
    """A text value without NUL characters, and without the spaces that then end it:
    many writers end a string with a NUL, as C does (``Report\\x00``), or write one of
    NULs alone for a value they do not have. A NUL ends or breaks a value in most places
    it goes (a database's text column refuses it), and a value of NULs said nothing.

    >>> _without_nuls("Report\\x00"), _without_nuls("\\x00\\x00"), _without_nuls(3)
    ('Report', '', 3)
    """
    return value.replace("\x00", "").strip() if isinstance(value, str) else value


_HEADER_VERSION = re.compile(r"%PDF-(\d\.\d)")


def pdf_version(found: int | str | None) -> str | None:
    """The PDF version as it is written (``"1.7"``, Tika's ``pdf:PDFVersion``), from
    PDFium's number (17) or a file header (``%PDF-1.7``); None when it gives none.

    >>> pdf_version(17), pdf_version("%PDF-2.0"), pdf_version(0), pdf_version("%PDF-")
    ('1.7', '2.0', None, None)
    """
    if isinstance(found, int):
        return f"{found // 10}.{found % 10}" if 10 <= found <= 99 else None
    matched = _HEADER_VERSION.match(found or "")
    return matched.group(1) if matched else None


def document_metadata(
    info: Mapping[str, Any], *, page_count: int, encrypted: bool, tagged: bool,
    language: str = "",
) -> dict[str, Any]:
    """Raw info keys plus title, author, subject, keywords, creator, producer,
    created, modified, language (the catalog's /Lang), page_count, encrypted and tagged."""
    info = {key: _without_nuls(value) for key, value in info.items()}
    result: dict[str, Any] = {k.lstrip("/"): v for k, v in info.items() if v not in (None, "")}
    for raw, key in _INFO_KEYS.items():
        value = info.get(raw) or info.get(f"/{raw}")
        if value:
            result[key] = str(value).strip()
    for raw, key in (("CreationDate", "created"), ("ModDate", "modified")):
        value = info.get(raw) or info.get(f"/{raw}")
        if value:
            result[key] = pdf_date(str(value)) or str(value)
    tag = language_tag(language)
    if tag:
        result["language"] = tag
    result.update(page_count=page_count, encrypted=encrypted, tagged=tagged)
    return result
