"""Member names stored in legacy encodings (GBK, Shift_JIS, cp437...) decoded properly.

Zip records names as bytes; only a flag says "UTF-8". Archives made on
Chinese or Japanese Windows store GBK or Shift_JIS bytes without the flag.
The names of one archive are decoded together, so that a few short names
still give the detector enough text to tell the encodings apart.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence

import charset_normalizer

log = logging.getLogger(__name__)

#: Encodings archive tools actually write names in.
CANDIDATES = ("utf_8", "gb18030", "shift_jis", "big5", "euc_kr", "cp850", "cp437", "cp1252",
              "cp866")
#: Windows zip tools write names in the OEM code page: cp850 in Brazil and Western Europe,
#: cp437 in the US; a few tools use cp1252. The one giving the most letters wins.
_WESTERN = ("cp850", "cp437", "cp1252")
#: GBK bytes also decode as EUC-KR or Big5; Chinese archives are by far the commoner.
_CJK_PREFERENCE = ("gb18030", "shift_jis", "big5", "euc_kr")
_SANDWICH = re.compile(r"[A-Za-z][^\x00-\x7f]+[A-Za-z]")


def guess_encoding(raw_names: Sequence[bytes], forced: str = "") -> str:
    """The encoding that decodes every name in ``raw_names`` most plausibly.

    ``forced`` (the ``archives.name_encoding`` option) wins when given.

    >>> guess_encoding([b"report.pdf"])
    'utf_8'
    >>> guess_encoding(["Ação/edital.pdf".encode("cp850")])
    'cp850'
    """
    if forced:
        return forced
    strict = [enc for enc in CANDIDATES if all(_decodes(raw, enc) for raw in raw_names)]
    if "utf_8" in strict:
        return "utf_8"
    if not strict:
        log.debug("no encoding decodes every member name; falling back to cp437")
        return "cp437"
    joined = b"\n".join(raw_names)
    ranked = [m.encoding for m in charset_normalizer.from_bytes(joined, cp_isolation=strict)]
    best = ranked[0] if ranked else strict[0]
    if best in _WESTERN or (best == "cp866" and not ranked[1:]):
        return _most_letters(joined, [e for e in (*_WESTERN, "cp866") if e in strict], best)
    western = [e for e in _WESTERN if e in strict]
    if best in _CJK_PREFERENCE and western and _SANDWICH.search(joined.decode(best)):
        # "licitação" in cp850 also decodes as GBK, but as "licita嚻o": a CJK character
        # wedged inside a Latin word says the bytes were a Western code page.
        return _most_letters(joined, western, western[0])
    if best == "euc_kr" and "gb18030" in ranked:
        return "gb18030"
    return best


def _most_letters(joined: bytes, encodings: list[str], fallback: str) -> str:
    def letters(encoding: str) -> int:
        text = joined.decode(encoding)
        good = sum(1 for ch in text if unicodedata.category(ch).startswith("L"))
        bad = sum(1 for ch in text if unicodedata.category(ch) in ("So", "Sm", "Sk", "Co", "Cc"))
        return good - 2 * bad

    if not encodings:
        return fallback
    return max(encodings, key=lambda enc: (letters(enc), -encodings.index(enc)))


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
