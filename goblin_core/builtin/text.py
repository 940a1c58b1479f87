"""The built-in plain-text parser, with encoding detection."""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from itertools import chain

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
    UTF-8; then chardet's best guess among the code pages in use (cp1252,
    cp1250, cp1251, cp866, KOI8-R, Shift_JIS, GB18030, EBCDIC...).

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
        except (UnicodeError, LookupError):
            # a declared name may be no text encoding at all ("hex", "rot13"), or one
            # that refuses to decode strictly ("idna" says UnicodeError)
            pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    return _guess_legacy(data)


#: Non-ASCII characters Western European text is made of besides letters.
_WESTERN_SIGNS = frozenset("ºª°§¶©®±×÷«»€£¥¢¹²³µ¼½¾–—‘’‚“”„•…·¡¿ ")


def _cp1252_bytes(keep: Callable[[str], bool]) -> bytes:
    """The bytes 0x80-0xFF whose cp1252 character ``keep`` accepts."""
    found = bytearray()
    for byte in range(0x80, 0x100):
        char = bytes([byte]).decode("cp1252", errors="replace")
        if char != "\ufffd" and keep(char):
            found.append(byte)
    return bytes(found)


_ASCII = bytes(range(0x80))
_LETTER_BYTES = _cp1252_bytes(str.isalpha)
_SIGN_BYTES = _cp1252_bytes(lambda char: char in _WESTERN_SIGNS)
_WORD_BYTES = _LETTER_BYTES + b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# A sign inside a word: in cp1252 only an apostrophe, a dash or a no-break space sits
# there. DOS letters read as cp1252 land on quotes and ellipses ("n„chsten", "K”ln").
_IN_WORD_SIGN_BYTES = _cp1252_bytes(lambda char: char in _WESTERN_SIGNS and char not in "’–—\xa0")
# Each byte as 1 when it is a letter (a sign), else 0: the bytes of a slice so read
# make one integer, and a sign inside a word is where the shifted integers overlap.
_IS_LETTER = bytes(byte in _WORD_BYTES for byte in range(256))
_IS_SIGN = bytes(byte in _IN_WORD_SIGN_BYTES for byte in range(256))
#: Bytes looked at a time (plus two of overlap, so no sign is missed at a seam).
_SIGN_CHUNK = 1 << 20

#: What the detector reads at most; ASCII-only lines say nothing about a code page.
_SAMPLE_BYTES = 200_000
#: Below this confidence the detector has too little text to go on (a name, a word).
_WEAK = 0.1
#: A weak guess yields to cp1252 when cp1252 scored at least this share of it.
_WEAK_SHARE = 0.5


def _guess_legacy(data: bytes) -> tuple[str, str]:
    """chardet's best reading that decodes all of ``data``.

    chardet scores each code page with byte-pair models per language, which tells
    Portuguese cp1252 from cp1250, Czech cp1250 from cp1252 and KOI8-R from Shift_JIS
    where character-frequency checks cannot. A few words give it little to go on: then
    a Western reading within reach wins, cp1252 being the commonest legacy code page,
    as does one whose only non-ASCII characters are typographic signs.
    """
    western = _looks_western(data)
    if western and not data.translate(None, _ASCII + _SIGN_BYTES):
        # ASCII text with typographic quotes, dashes, € or °: Windows text, and the
        # detector has nothing but those few bytes to weigh
        return data.decode("cp1252"), "cp1252"
    # imported here: most runs never meet undeclared legacy text, and chardet's import
    # and models cost a tenth of a second
    import chardet
    from chardet import EncodingEra

    # Code pages text is written in today: Windows, DOS (OEM), EBCDIC and the CJK ones.
    # Pre-OS X Mac and regional sets are left out: on a few words they win by chance far
    # more often than a file in them turns up.
    eras = EncodingEra.MODERN_WEB | EncodingEra.DOS | EncodingEra.MAINFRAME
    sample = _informative(data)
    matches = [(codecs.lookup(m["encoding"]).name, m["confidence"])
               for m in chardet.detect_all(sample, prefer_superset=True,
                                           encoding_era=eras, compat_names=False)
               if m["encoding"]]
    # the detector's models weigh byte pairs only: a reading that writes control
    # characters or letters of two alphabets in one word is its mistake, never the text
    # (when every reading is such, the detector's order stands)
    plausible = (m for m in matches if _reads_as_text(sample[:_CHECKED_BYTES], m[0]))
    for codec, confidence in chain(plausible, matches):
        if western and codec != "cp1252" and confidence < _WEAK:
            cp1252 = next((c for name, c in matches if name == "cp1252"), 0.0)
            if cp1252 >= _WEAK_SHARE * confidence:
                break
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            continue
    return data.decode("cp1252", errors="replace"), "cp1252"


# C0 and C1 controls other than the whitespace ones (NEL ends EBCDIC lines) and DOS's
# end-of-file mark
_CONTROL = re.compile("[\x00-\x08\x0e-\x19\x1b-\x1f\x7f-\x84\x86-\x9f]")
#: What the plausibility check reads of the detector's sample.
_CHECKED_BYTES = 65_536
#: Share of the words with a non-ASCII letter that may mix alphabets ("iPhone-приложение").
_MIXED_SHARE = 0.25
# Alphabets written with spaces between words; CJK and Thai text runs Latin words into
# its own without one, so it never counts as mixed.
_SPACED_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "HEBREW", "ARABIC", "ARMENIAN",
                             "GEORGIAN"})


def _reads_as_text(sample: bytes, codec: str) -> bool:
    """Whether ``codec``'s reading of ``sample`` could be someone's text: no control
    characters, and few words that mix letters of two alphabets (``Perchй``,
    ``дNDERUNGEN``: Western letters read in a Cyrillic code page)."""
    try:
        text = sample.decode(codec)
    except UnicodeDecodeError as exc:
        if exc.start < len(sample) - 4:
            return False
        text = sample[:exc.start].decode(codec)  # a character cut where the sample ends
    if _CONTROL.search(text):
        return False
    words = [w for w in set(text.split()) if not w.isascii()]
    mixed = sum(1 for w in words if len({_script(c) for c in w if c.isalpha()} - {""}) > 1)
    return mixed <= _MIXED_SHARE * len(words)


@lru_cache(maxsize=4096)
def _script(char: str) -> str:
    """The spaced alphabet ``char`` belongs to, "" for any other character."""
    script = unicodedata.name(char, "").split(" ", 1)[0]
    return script if script in _SPACED_SCRIPTS else ""


_NON_ASCII = re.compile(rb"[\x80-\xff]")


def _informative(data: bytes) -> bytes:
    """The lines of ``data`` holding non-ASCII bytes, up to ``_SAMPLE_BYTES``: a
    CSV whose one accented name sits on its last line still shows it to chardet."""
    if len(data) <= _SAMPLE_BYTES:
        return data
    kept = bytearray()
    position = 0
    while len(kept) < _SAMPLE_BYTES:
        found = _NON_ASCII.search(data, position)
        if found is None:
            break
        start = data.rfind(b"\n", max(position, found.start() - 4096), found.start()) + 1
        end = data.find(b"\n", found.end(), found.end() + 4096)
        end = found.end() + 4096 if end < 0 else end
        kept += data[max(start, position):end] + b"\n"
        position = end
    return bytes(kept) or data[:_SAMPLE_BYTES]


def _looks_western(data: bytes) -> bool:
    """Whether the cp1252 reading of ``data`` looks like Western text: only letters and
    typographic signs, and no sign where a letter belongs."""
    if data.translate(None, _ASCII + _LETTER_BYTES + _SIGN_BYTES):
        return False
    # a slice at a time, in C: a loop over the signs took 35 s on 100 MB of them
    for start in range(0, len(data), _SIGN_CHUNK):
        piece = data[start : start + _SIGN_CHUNK + 2]
        letters = int.from_bytes(piece.translate(_IS_LETTER), "big")
        signs = int.from_bytes(piece.translate(_IS_SIGN), "big")
        # a letter, then a sign, then a letter
        if letters & (signs << 8) & (letters << 16):
            return False
    return True


# C0 controls that no text holds: not the whitespace ones, backspace (the overstrikes of
# a saved man page), DOS's end-of-file mark or escape (terminal colours in a log)
_BINARY_CONTROL = re.compile("[\x00-\x07\x0e-\x19\x1c-\x1f\x7f]")
#: Characters of decoded content looked at for control codes.
_BINARY_SAMPLE = 65_536


def binary_content(text: str) -> bool:
    r"""Whether decoded ``text`` is binary data rather than text: a NUL anywhere, or more
    than one character in fifty of its first 64 KB a control code no text holds (random
    bytes give about one in eleven, whatever code page reads them).

    >>> binary_content("Edital n.\u00ba 12\tR$ 1.234,56\n\f"), binary_content("a\x00b")
    (False, True)
    >>> binary_content("x\x03\x11y\x02" * 20)
    True
    """
    if "\x00" in text:
        return True
    sample = text[:_BINARY_SAMPLE]
    return len(_BINARY_CONTROL.findall(sample)) > max(8, len(sample) // 50)


class PlainTextParser(BaseEngine):
    """Plain text in any common encoding; form feeds split pages."""

    name = "text.plain"
    formats = ("text/plain",)
    priority = 10

    def open(self, source: Source, config: Config) -> TextDocument:
        limit = int(config.get("limits", "max_output_chars", 100_000_000))
        # Only what the output limit keeps is read: a character takes at most four
        # bytes. A text file is one page whatever its size, and a gigabyte line read
        # whole took 28 s and 2 GB before the pipeline cut it. The character kept past
        # the limit lets the pipeline see, and say, that the text was cut.
        wanted = _MAX_CHAR_BYTES * (limit + 1)
        data = source.read(wanted)
        cut = len(data) == wanted and source.size > wanted
        text, encoding = decode_text(_without_split_character(data) if cut else data)
        if binary_content(text):
            raise CorruptDocument(f"binary content in a text file (decoded as {encoding})",
                                  file=source.display_name)
        # NEL (U+0085) ends the lines of EBCDIC text
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x85", "\n")
        if cut:  # after the line ends are made one character each, which shortens it
            text = text[: limit + 1]
        pages = text.split("\f", MAX_PAGES - 1) if "\f" in text else [text]
        warnings: list[tuple[str, str]] = []
        if len(pages) == MAX_PAGES and "\f" in pages[-1]:
            # every page costs the pipeline its own work: a file of form feeds alone
            # would be a page per byte (200 KB of them took 17 s)
            pages[-1] = pages[-1].replace("\f", "\n")
            warnings.append(("FormFeedPages", f"more than {MAX_PAGES:,} form feeds: the text "
                             f"after page {MAX_PAGES - 1:,} is read as one last page"))
        document = TextDocument(pages, metadata={"encoding": encoding})
        document.warnings = warnings
        return document


#: Most pages form feeds split a text file into; the text past them is kept whole.
MAX_PAGES = 10_000
#: Most bytes one character takes (UTF-8, UTF-32, GB18030).
_MAX_CHAR_BYTES = 4


def _without_split_character(data: bytes) -> bytes:
    """``data``, cut where reading stopped, less a UTF-8 character the cut split.

    >>> _without_split_character("né".encode()[:-1])
    b'n'
    >>> _without_split_character("né".encode())
    b'n\\xc3\\xa9'
    """
    for back in range(1, min(len(data), _MAX_CHAR_BYTES - 1) + 1):
        byte = data[-back]
        if byte < 0x80:
            return data
        if byte >= 0xC0:  # the first byte of a sequence of 2, 3 or 4
            length = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return data if length == back else data[:-back]
    return data


def looks_utf16(data: bytes) -> bool:
    """True for BOM-less UTF-16: every other byte of Latin text is NUL."""
    sample = data[:512]
    if len(sample) < 4:
        return False
    even_zero = sample[0::2].count(0)
    odd_zero = sample[1::2].count(0)
    half = len(sample) // 2
    return max(even_zero, odd_zero) > half * 0.6 and min(even_zero, odd_zero) < half * 0.1
