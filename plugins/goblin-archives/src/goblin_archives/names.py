"""Member names stored in legacy encodings (GBK, Shift_JIS, cp437...) decoded properly.

Zip records names as bytes; only a flag says "UTF-8". Archives made on
Chinese or Japanese Windows store GBK or Shift_JIS bytes without the flag.
The names of one archive are decoded together, so that a few short names
still give the detector enough text to tell the encodings apart.
"""

from __future__ import annotations

import codecs
import logging
from collections.abc import Sequence

log = logging.getLogger(__name__)

#: Names the detector reads at most; a large archive's first ones tell its code page.
_SAMPLE_BYTES = 64 * 1024


def guess_encoding(raw_names: Sequence[bytes], forced: str = "") -> str:
    """The encoding that decodes every name in ``raw_names`` most plausibly.

    ``forced`` (the ``archives.name_encoding`` option) wins when given. Otherwise
    UTF-8 when every name is UTF-8, else chardet's best-ranked code page that decodes
    every name: it weighs byte pairs per language, so "licitação" in cp850 is not
    taken for GBK, nor Korean for Chinese.

    >>> guess_encoding([b"report.pdf"])
    'utf_8'
    >>> guess_encoding(["Ação/edital.pdf".encode("cp850")])
    'cp850'
    """
    if forced:
        return forced
    if all(_decodes(raw, "utf_8") for raw in raw_names):
        return "utf_8"
    # imported here: most archives name their members in ASCII or UTF-8
    import chardet
    from chardet import EncodingEra

    # Archivers write names in the system's OEM (DOS) code page (cp850 in Brazil and
    # Western Europe, cp437 in the US, cp866 in Russia, cp852 in Central Europe, cp737
    # in Greece), a few in its ANSI one (cp1252, cp1251...), East Asian systems in
    # cp932, GBK, Big5 or cp949. Mac and regional sets are left out: on a few short
    # names they win by chance.
    eras = EncodingEra.MODERN_WEB | EncodingEra.DOS
    legacy = [raw for raw in raw_names if not raw.isascii()]
    joined = b"\n".join(legacy)[:_SAMPLE_BYTES]
    for match in chardet.detect_all(joined, prefer_superset=True, compat_names=False,
                                    encoding_era=eras):
        codec = match["encoding"]
        if codec and all(_decodes(raw, codec) for raw in legacy):
            return codecs.lookup(codec).name
    log.debug("no encoding decodes every member name; falling back to cp437")
    return "cp437"


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
