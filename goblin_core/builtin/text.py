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
    match = charset_normalizer.from_bytes(data).best()
    if match is not None:
        return str(match), match.encoding
    return data.decode("cp1252", errors="replace"), "cp1252"


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
