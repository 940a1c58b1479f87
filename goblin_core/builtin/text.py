"""The built-in plain-text parser, with encoding detection."""

from __future__ import annotations

import codecs

import charset_normalizer

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source

_BOM_CODECS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_text(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """Decode bytes of unknown encoding; return (text, encoding).

    A BOM decides; then a declared encoding that decodes cleanly; then strict
    UTF-8; then charset-normalizer's best guess (cp1252, latin-1, cp866,
    EBCDIC, UTF-16 without BOM...).

    >>> decode_text("São Paulo".encode("cp1252"))[0]
    'São Paulo'
    """
    for bom, codec in _BOM_CODECS:
        if data.startswith(bom):
            return data.decode(codec, errors="replace"), codec
    if looks_utf16(data):
        codec = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        return data.decode(codec, errors="replace"), codec
    if declared:
        try:
            return data.decode(declared), declared
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    return _guess_legacy(data)


#: Non-ASCII characters Western European text is made of besides letters.
_WESTERN_SIGNS = frozenset("ºª°§¶©®±×÷«»€£¥¢¹²³µ¼½¾–—‘’‚“”„•…·¡¿ ")


def _guess_legacy(data: bytes) -> tuple[str, str]:
    """charset-normalizer's guess, with cp1252 preferred when it fits as well.

    Short Western text is ambiguous: "Licitação" decodes without errors in
    cp1250 and cp1257 too, and "São Paulo" even as one Big5 ideograph among
    ASCII. Such ties go to cp1252, the most common legacy code page, when
    every non-ASCII character it yields is a letter or a typographic sign.
    """
    matches = list(charset_normalizer.from_bytes(data))
    western = _western(data)
    if not matches:
        if western is not None:
            return western, "cp1252"
        return data.decode("cp1252", errors="replace"), "cp1252"
    best = matches[0]
    if western is not None:
        tied = [m for m in matches if m.percent_chaos <= best.percent_chaos]
        if any(m.encoding == "cp1252" for m in tied) or _stray_ideographs(str(best)):
            return western, "cp1252"
    return str(best), best.encoding


def _western(data: bytes) -> str | None:
    """The cp1252 reading of ``data`` when it looks like Western text, else None."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    for char in text:
        if char.isascii() or char.isalpha() or char in _WESTERN_SIGNS:
            continue
        return None
    return text


def _stray_ideographs(text: str) -> bool:
    """A few CJK ideographs lost among ASCII: a multi-byte guess made of accents."""
    wide = sum(1 for c in text if ord(c) >= 0x2E80)
    visible = sum(1 for c in text if not c.isspace())
    return wide > 0 and wide * 5 < visible


class PlainTextParser(BaseEngine):
    """Plain text in any common encoding; form feeds split pages."""

    name = "text.plain"
    formats = ("text/plain",)
    priority = 10

    def open(self, source: Source, config: Config) -> TextDocument:
        data = source.bytes()
        text, encoding = decode_text(data)
        if "\x00" in text:
            raise CorruptDocument(f"binary content in a text file (decoded as {encoding})",
                                  file=source.display_name)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        pages = text.split("\f") if "\f" in text else [text]
        return TextDocument(pages, metadata={"encoding": encoding})


def looks_utf16(data: bytes) -> bool:
    """True for BOM-less UTF-16: every other byte of Latin text is NUL."""
    sample = data[:512]
    if len(sample) < 4:
        return False
    even_zero = sample[0::2].count(0)
    odd_zero = sample[1::2].count(0)
    half = len(sample) // 2
    return max(even_zero, odd_zero) > half * 0.6 and min(even_zero, odd_zero) < half * 0.1
