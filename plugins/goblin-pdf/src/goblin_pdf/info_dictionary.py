"""Every entry of a PDF's document information dictionary, its producers' own keys too.

PDFium reads an information value by its key's name but cannot list the keys, so the
keys a producer adds (``Company``, ``SourceModified``, ``PTEX.Fullbanner``, sensitivity
labels) are listed by qpdf. Opening a PDF with qpdf reads its cross-reference table and
trailer and parses no other object until asked: the dictionary costs about a
millisecond, a little more on a file of many objects. A file whose cross-reference table
qpdf would have to rebuild by scanning every byte is not rebuilt for this: it keeps the
standard keys PDFium read.
"""

from __future__ import annotations

import io
import logging
from decimal import Decimal
from itertools import islice
from typing import Any

from goblin_core.source import Source

log = logging.getLogger(__name__)

#: Entries of the dictionary read at most: real files have a dozen or two.
MAX_INFO_KEYS = 100
#: Characters of a key's name read at most; a longer name is passed over.
MAX_KEY_CHARS = 256


def info_entries(source: Source, password: str | None, max_chars: int) -> dict[str, str]:
    """The trailer's /Info entries as text by key name, in the order of their names, at most
    ``MAX_INFO_KEYS`` of them; a value over ``max_chars`` characters, a dictionary, an
    array, a stream or null is left out. Nothing when qpdf cannot open the file as it
    stands (damaged, or locked by a password that is not ``password``).

    Key names are decoded from their ``#xx`` escapes as UTF-8 (PDFDocEncoding when they
    are not); strings by their byte order mark (UTF-16BE, UTF-8) or else as
    PDFDocEncoding; names, numbers and booleans are written as PDF writes them, a name
    without its slash (``/Trapped /True`` gives ``True``).
    """
    import pikepdf  # loaded with the first PDF, not with the plugin

    target: Any = source.path() if source.is_file else io.BytesIO(source.bytes())
    try:
        with pikepdf.open(target, password=password or "", attempt_recovery=False) as pdf:
            info = pdf.trailer.get("/Info")
            if not isinstance(info, pikepdf.Dictionary):
                return {}
            entries: dict[str, str] = {}
            # the keys alone (items() would make a Python object of every value first),
            # sorted: which keys a file past the limit keeps is the same every time
            for key in islice(sorted(info.keys()), MAX_INFO_KEYS):
                name = _key_name(key)
                text = _value_text(info[key], max_chars) if name else ""
                if text:
                    entries[name] = text
            return entries
    except (pikepdf.PdfError, pikepdf.PasswordError, ValueError, RuntimeError) as exc:
        log.debug("%s: information dictionary not listed: %s", source.display_name, exc)
        return {}


def _key_name(key: str) -> str:
    """A key's name as text: pikepdf gives the name's bytes, escapes resolved, as UTF-8
    with any byte that is not UTF-8 kept as a lone surrogate."""
    raw = key.removeprefix("/").encode("utf-8", "surrogateescape")
    if len(raw) > MAX_KEY_CHARS:
        return ""
    try:
        name = raw.decode("utf-8")
    except UnicodeDecodeError:
        name = raw.decode("pdfdoc", errors="replace")  # codec pikepdf registers
    return name.strip() if name.isprintable() else ""


def _value_text(value: Any, max_chars: int) -> str:
    import pikepdf

    if isinstance(value, bool):  # before int: a bool is an int to Python
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, pikepdf.String):
        # a string's bytes measured first: UTF-16 takes two for a character
        if len(bytes(value)) > 4 * max_chars:
            return ""
        text = str(value)
    elif isinstance(value, pikepdf.Name):
        text = _key_name(str(value))
    else:  # an array, dictionary, stream or null says nothing as one line of text
        return ""
    text = text.strip()
    return text if len(text) <= max_chars else ""
