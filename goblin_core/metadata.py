"""Normalising engine metadata to goblin's keys.

Engines report metadata under their own names (``/Title``, ``dc:title``,
``core_properties.title``); documents carry both the raw keys and the
normalised ones: title, author, created, modified, language, page_count, mime.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from goblin_core.model import valid_unicode

NORMALISED_KEYS = ("title", "author", "created", "modified", "language", "page_count", "mime")

_ALIASES: Mapping[str, tuple[str, ...]] = {
    "title": ("title", "/title", "dc:title", "subject_title"),
    "author": (
        "author",
        "/author",
        "creator_name",
        "dc:creator",
        "meta:author",
        "from",
        "last_modified_by_author",
    ),
    "created": (
        "created",
        "creation_date",
        "/creationdate",
        "creationdate",
        "dcterms:created",
        "date",
    ),
    "modified": (
        "modified",
        "mod_date",
        "/moddate",
        "moddate",
        "dcterms:modified",
        "last_modified",
    ),
    "language": ("language", "lang", "/lang", "dc:language"),
}


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    text = valid_unicode(str(value)).strip()
    return text or None


def normalise(raw: Mapping[str, Any], *, mime: str, page_count: int | None) -> dict[str, Any]:
    """Pick goblin's normalised keys out of an engine's raw metadata."""
    lowered = {str(k).lower(): v for k, v in raw.items()}
    result: dict[str, Any] = {}
    for key, aliases in _ALIASES.items():
        for alias in aliases:
            value = _text(lowered.get(alias))
            if value:
                result[key] = value
                break
    result["page_count"] = page_count
    result["mime"] = mime
    return result
