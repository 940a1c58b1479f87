"""Member names stored in legacy encodings (GBK, Shift_JIS, cp437...) decoded properly.

Zip records names as bytes; only a flag says "UTF-8". Archives made on
Chinese or Japanese Windows store GBK or Shift_JIS bytes without the flag.
The names of one archive are decoded together, so that a few short names
still give the detector enough text to tell the encodings apart.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import charset_normalizer

log = logging.getLogger(__name__)

#: Encodings archive tools actually write names in, the likeliest first.
CANDIDATES = ("utf_8", "gb18030", "shift_jis", "big5", "euc_kr", "cp1252", "cp866", "cp437")


def guess_encoding(raw_names: Sequence[bytes], forced: str = "") -> str:
    """The encoding that decodes every name in ``raw_names`` most plausibly.

    ``forced`` (the ``archives.name_encoding`` option) wins when given.

    >>> guess_encoding([b"report.pdf"])
    'utf_8'
    """
    if forced:
        return forced
    if all(_decodes(raw, "utf_8") for raw in raw_names):
        return "utf_8"
    joined = b"\n".join(raw_names)
    match = charset_normalizer.from_bytes(joined, cp_isolation=list(CANDIDATES)).best()
    if match is None or not all(_decodes(raw, match.encoding) for raw in raw_names):
        log.debug("no encoding decodes every member name; falling back to cp437")
        return "cp437"
    return match.encoding


def decode_name(raw: bytes, encoding: str) -> str:
    """``raw`` decoded with ``encoding``; undecodable bytes become U+FFFD, never an error."""
    return raw.decode(encoding, errors="replace")


def raw_from_surrogates(name: str) -> bytes | None:
    """The original bytes of a name decoded with surrogateescape, or None when it is clean."""
    if not any("\udc80" <= ch <= "\udcff" for ch in name):
        return None
    return name.encode("utf-8", errors="surrogateescape")


def _decodes(raw: bytes, encoding: str) -> bool:
    try:
        raw.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return False
    return True
