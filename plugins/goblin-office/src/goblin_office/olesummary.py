"""Title, author and dates of a Word 97-2003, Excel 97-2003 or PowerPoint 97-2003 file.

These formats keep their document properties in the compound file's
``\\x05SummaryInformation`` and ``\\x05DocumentSummaryInformation`` streams, apart from
the text every engine reads, so whichever engine reads the text, the properties are
read here with olefile. A property stream that is damaged costs only the properties.
"""

from __future__ import annotations

import codecs
import logging
from datetime import datetime
from typing import Any

from goblin_core.source import Source
from goblin_office.encryption import OLE_MAGIC
from goblin_office.olecheck import open_compound_file

log = logging.getLogger(__name__)

MAX_VALUE_CHARS = 65_536

# goblin's key <- olefile's OleMetadata attribute
_TEXT = {
    "title": "title",
    "subject": "subject",
    "author": "author",
    "keywords": "keywords",
    "comments": "description",
    "last_saved_by": "last_modified_by",
    "creating_application": "creator",
    "company": "company",
    "manager": "manager",
    "category": "category",
}
_DATES = {"create_time": "created", "last_saved_time": "modified"}

# Code pages Python names otherwise than cpNNNN. A property set stores its code page as
# a signed 16-bit number, so UTF-8's 65001 reads as -535.
_CODECS = {
    1200: "utf-16-le",
    65001: "utf-8",
    -535: "utf-8",
    10000: "mac_roman",
    10006: "mac_greek",
    10007: "mac_cyrillic",
    10029: "mac_latin2",
    10079: "mac_iceland",
    10081: "mac_turkish",
}


def summary_metadata(source: Source) -> dict[str, str]:
    """The document properties of the compound file ``source`` (already decrypted):
    title, subject, author, keywords, description, last_modified_by, creator (the
    application), company, manager, category, and created / modified in ISO 8601 (UTC).
    {} for a file that is no compound file or whose properties do not read."""
    if source.head(8) != OLE_MAGIC:
        return {}
    try:
        with source.open() as stream, open_compound_file(stream, source.display_name) as ole:
            hostile = [name for name in _PROPERTY_STREAMS
                       if ole.exists(name) and not vectors_fit(ole.openstream(name).read())]
            if hostile:
                log.warning("%s: document properties left out: %s declares a list longer "
                            "than the stream holding it", source.display_name, hostile[0])
                return {}
            properties = ole.get_metadata()
    except Exception as exc:  # olefile raises OSError, ValueError, struct.error, IndexError...
        log.debug("%s: document properties unreadable: %s", source.display_name, exc)
        return {}
    encoding = _encoding(getattr(properties, "codepage", None))
    found: dict[str, str] = {}
    for attribute, key in _TEXT.items():
        value = _text(getattr(properties, attribute, None), encoding)
        if value:
            found[key] = value
    for attribute, key in _DATES.items():
        stamp = getattr(properties, attribute, None)
        # FILETIME 0 (1 January 1601) is "never", not a date
        if isinstance(stamp, datetime) and stamp.year > 1601:
            found[key] = stamp.replace(microsecond=0).isoformat() + "Z"
    return found


_PROPERTY_STREAMS = ("\x05SummaryInformation", "\x05DocumentSummaryInformation")
_VT_VECTOR = 0x1000
_SECTION_OFFSET = 44  # after the 28-byte header and the first section's FMTID


def vectors_fit(data: bytes) -> bool:
    """Whether every list (VT_VECTOR) in the first section of the property set ``data``
    declares no more items than the set has bytes. olefile walks a list item by item for
    as many items as it declares, two billion for a few bytes of a hostile file, and
    keeps going through errors, so such a set is never handed to it.

    >>> vectors_fit(bytes(48) + (16).to_bytes(4, "little") + (1).to_bytes(4, "little"))
    True
    >>> section = [16, 1, 2, 16, 0x101E, 2**31 - 1]  # size, count, id, offset, type, items
    >>> vectors_fit(bytes(44) + (48).to_bytes(4, "little")
    ...             + b"".join(n.to_bytes(4, "little") for n in section))
    False
    """
    def number(at: int) -> int | None:
        return int.from_bytes(data[at:at + 4], "little") if at + 4 <= len(data) else None

    section = number(_SECTION_OFFSET)
    count = number(section + 4) if section is not None else None
    if section is None or count is None:
        return True  # no section to walk: olefile stops at once
    for index in range(min(count, len(data) // 8)):
        offset = number(section + 8 + 8 * index + 4)
        kind = number(section + offset) if offset is not None else None
        items = number(section + offset + 4) if offset is not None else None
        if kind is not None and kind & _VT_VECTOR and items is not None and items > len(data):
            return False
    return True


def _encoding(codepage: Any) -> str:
    """The Python codec for a property set's code page; cp1252 for one it lacks."""
    if not isinstance(codepage, int):
        return "cp1252"
    name = _CODECS.get(codepage, f"cp{codepage}")
    try:
        codecs.lookup(name)
    except LookupError:
        return "cp1252"
    return name


def _text(value: Any, encoding: str) -> str:
    """A property's value as clean text: bytes decoded with the code page, control
    characters and padding taken out, '' when over ``MAX_VALUE_CHARS``."""
    if isinstance(value, bytes):
        value = value.decode(encoding, errors="replace")
    if not isinstance(value, str):
        return ""
    text = " ".join("".join(c if c.isprintable() else " " for c in value).split())
    return text if len(text) <= MAX_VALUE_CHARS else ""
