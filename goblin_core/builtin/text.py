"""The built-in plain-text parser, with encoding detection."""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

_BOM_CODECS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_text(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """Decode bytes of unknown encoding; return (text, encoding).

    A BOM decides; then a declared encoding that decodes cleanly, read as browsers
    read its label (see ``declared_codecs``); a UTF-8 label over text with stray bytes
    and at least one UTF-8 sequence, as UTF-8 with those bytes read as Windows-1252;
    then ISO-2022 escape sequences; then
    strict UTF-8; then UTF-8 with a few stray bytes, those read as Windows-1252; then
    UTF-16 without a BOM; then chardet's best guess among the code pages in use
    (cp1252, cp1250, cp1251, cp866, KOI8-R, Shift_JIS, GB18030, EBCDIC...).

    >>> decode_text("São Paulo".encode("cp1252"))[0]
    'São Paulo'
    >>> decode_text("“10 €”".encode("cp1252"), "iso-8859-1")
    ('“10 €”', 'cp1252')
    """
    for bom, codec in _BOM_CODECS:
        if data.startswith(bom):
            return data.decode(codec, errors="replace"), codec
    if looks_utf16(data):
        codec = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        return data.decode(codec, errors="replace"), codec
    for codec in declared_codecs(declared) if declared else ():
        try:
            return data.decode(codec), codec
        except (UnicodeError, LookupError):
            # a declared name may be no text encoding at all ("hex", "rot13"), or one
            # that refuses to decode strictly ("idna" says UnicodeError)
            continue
    if declared and "utf-8" in declared_codecs(declared) and _UTF8_SEQUENCE.search(data):
        # Labelled UTF-8 and holding UTF-8's sequences: the stray bytes are the mistake,
        # not the label (a short mail with one pasted Windows quote read all as cp1252,
        # "olÃ¡"). The strays read as cp1252 either way.
        return data.decode(UTF8_STRAY_CP1252), UTF8_STRAY_CP1252
    iso2022 = _iso2022(data)
    if iso2022 is not None:
        return iso2022
    text: str | None = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        if _mostly_utf8(data):
            return data.decode(UTF8_STRAY_CP1252), UTF8_STRAY_CP1252
    else:
        # Cyrillic, Greek or Thai in UTF-16 is bytes below 0x80 alone: valid UTF-8,
        # but every other character of it a control code
        if not binary_content(text):
            return text, "utf-8"
    utf16 = utf16_without_bom(data)
    if utf16 is not None:
        return data.decode(utf16, errors="replace"), utf16
    if text is not None:
        return text, "utf-8"
    text, codec = _guess_legacy(data)
    if codec == "cp1252" and _latin9(data):
        return data.decode("iso8859-15"), "iso8859-15"
    return text, codec


# Labels of the WHATWG Encoding Standard (what browsers, and the mailers that follow
# them, honour) whose encoding is wider than the Python codec of that name: ISO-8859-1
# pages and mails are written in Windows-1252 (curly quotes, dashes, €), GB2312 in GBK
# or GB18030, Big5 with Microsoft's (€) and Hong Kong's extensions, EUC-KR in Windows'
# Unified Hangul Code, Shift_JIS with Microsoft's NEC and IBM characters. Each Python
# codec maps to the codecs tried before it. ASCII, which browsers read as Windows-1252
# too, is left as it is: a label that names no byte past 0x7F says nothing about them,
# and detection reads them (a UTF-8 mail labelled us-ascii is UTF-8).
_SUPERSETS: dict[str, tuple[str, ...]] = {
    "iso8859-1": ("cp1252",),
    "iso8859-9": ("cp1254",),
    "iso8859-11": ("cp874",),
    "tis-620": ("cp874",),
    "gb2312": ("gb18030",),
    "gbk": ("gb18030",),
    "big5": ("cp950", "big5hkscs"),
    "big5hkscs": ("big5hkscs", "cp950"),
    "euc_kr": ("cp949",),
    "shift_jis": ("cp932",),
    "iso2022_jp": ("iso2022_jp_ext",),  # half-width katakana, which browsers read too
}
#: WHATWG labels Python knows by no name, as the Python codec they name.
_WHATWG_LABELS: dict[str, str] = {
    "unicode-1-1-utf-8": "utf-8",
    "csiso88596e": "iso8859-6", "csiso88596i": "iso8859-6",
    "iso-8859-6-e": "iso8859-6", "iso-8859-6-i": "iso8859-6",
    "sun_eu_greek": "iso8859-7",
    "csiso88598e": "iso8859-8", "csiso88598i": "iso8859-8", "iso-8859-8-e": "iso8859-8",
    "iso-8859-8-i": "iso8859-8", "logical": "iso8859-8", "visual": "iso8859-8",
    "csisolatin9": "iso8859-15",
    "koi": "koi8-r", "koi8": "koi8-r",
    "csmacintosh": "mac-roman", "mac": "mac-roman", "x-mac-roman": "mac-roman",
    "x-mac-cyrillic": "mac-cyrillic", "x-mac-ukrainian": "mac-cyrillic",
    "dos-874": "cp874", "windows-874": "cp874",
    "csgb2312": "gbk", "gb_2312": "gbk", "gb_2312-80": "gbk", "x-gbk": "gbk",
    "cn-big5": "big5", "x-x-big5": "big5",
    "cseucpkdfmtjapanese": "euc_jp", "x-euc-jp": "euc_jp",
    "windows-31j": "cp932", "x-sjis": "cp932",
    "cseuckr": "cp949", "csksc56011987": "cp949", "iso-ir-149": "cp949",
    "ks_c_5601-1989": "cp949", "ksc_5601": "cp949", "windows-949": "cp949",
}
# "iso88591" and "x-cp1252", which the WHATWG labels write for every ISO-8859 part and
# Windows code page
_WHATWG_NUMBERED = re.compile(r"iso8859(\d{1,2})|x-(cp125\d)")


def declared_codecs(label: str) -> tuple[str, ...]:
    """The codecs that read text declared as ``label``, in the order to try them: the
    wider code page browsers read that label as (the WHATWG Encoding Standard's:
    ISO-8859-1 as Windows-1252, GB2312 as GB18030, Big5 with the cp950 and HKSCS
    extensions...), then the codec of that name; () when no codec has the name.

    >>> declared_codecs("ISO-8859-1"), declared_codecs("windows-31j"), declared_codecs("x")
    (('cp1252', 'iso8859-1'), ('cp932',), ())
    """
    name = label.strip().strip("\"'").lower()
    numbered = _WHATWG_NUMBERED.fullmatch(name)
    if numbered:
        name = f"iso8859-{numbered.group(1)}" if numbered.group(1) else str(numbered.group(2))
    name = _WHATWG_LABELS.get(name, name)
    try:
        codec = codecs.lookup(name).name
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        return ()
    return (*_SUPERSETS.get(codec, ()), codec)


# The escape sequences that switch ISO-2022-JP text to a double-byte set (JIS X 0208,
# 0212, 0213) or to half-width katakana, and that announce ISO-2022-KR's KS C 5601. The
# text is 7-bit, so it passes for ASCII and UTF-8 with its escapes left in.
_ISO2022_ESCAPE = re.compile(rb"\x1b(?:\$[@B]|\$\([@BDOPQ]|\(I|(\$\)C))")
_ISO2022_JP_CODECS = ("iso2022_jp", "iso2022_jp_2", "iso2022_jp_ext", "iso2022_jp_2004")
# what is left of a switch no codec read
_SHIFTS = re.compile("[\x0e\x0f\x1b]")


def _iso2022(data: bytes) -> tuple[str, str] | None:
    """``data`` read as ISO-2022-JP or -KR when it switches sets as they do."""
    if b"\x1b" not in data:
        return None
    found = _ISO2022_ESCAPE.search(data)
    if found is None:
        return None
    for codec in ("iso2022_kr",) if found.group(1) else _ISO2022_JP_CODECS:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if not _SHIFTS.search(text):
            return text, codec
    return None


# A well-formed UTF-8 sequence of two to four bytes (no overlong form, no surrogate).
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}"
    rb"|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
#: Well-formed multi-byte sequences per stray byte that make text UTF-8.
_UTF8_SHARE = 2


def _mostly_utf8(data: bytes) -> bool:
    """Whether ``data``, not valid UTF-8, is UTF-8 with a few stray bytes (text pasted
    from a Windows program into a UTF-8 file): its well-formed multi-byte sequences
    outnumber the bytes outside them at least two to one.

    Legacy text almost never forms a UTF-8 sequence (in cp1252 a capital accented
    letter followed by a symbol), so well-formed sequences mean UTF-8, where one code
    page for the whole text would garble every letter ("RelatÃ³rio"). The lines that
    hold non-ASCII bytes decide, as for the legacy guess.
    """
    sample = _informative(data)
    rest, sequences = _UTF8_SEQUENCE.subn(b"", sample)
    strays = len(rest.translate(None, _ASCII))
    return sequences >= _UTF8_SHARE * strays


def _stray_as_cp1252(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    stray = error.object[error.start : error.end]
    return stray.decode("cp1252", errors="replace"), error.end


_STRAY_AS_CP1252 = "goblin-stray-as-cp1252"
codecs.register_error(_STRAY_AS_CP1252, _stray_as_cp1252)

#: The encoding ``decode_text`` names for UTF-8 with stray Windows-1252 bytes; a codec
#: of that name reads such bytes again, as a caller given the name may (dBASE records).
UTF8_STRAY_CP1252 = "utf-8 (stray bytes as cp1252)"


def _utf8_stray_cp1252(data: ReadableBuffer, errors: str = "strict", /) -> tuple[str, int]:
    return codecs.utf_8_decode(data, _STRAY_AS_CP1252, True)


def _find_utf8_stray_cp1252(name: str) -> codecs.CodecInfo | None:
    # the lookup hands over the name lower-cased, its other signs as underscores
    if name != "utf_8_stray_bytes_as_cp1252":
        return None
    utf8 = codecs.lookup("utf-8")
    return codecs.CodecInfo(utf8.encode, _utf8_stray_cp1252, name=UTF8_STRAY_CP1252,
                            incrementalencoder=utf8.incrementalencoder)


codecs.register(_find_utf8_stray_cp1252)


# Bytes that 8-bit text holds only as control codes (not whitespace, backspace, escape
# or DOS's end-of-file mark), and that UTF-16 holds in the high byte of Greek (0x03),
# Cyrillic (0x04), Hebrew, Arabic and Thai (0x0E) letters or the low byte of CJK
# punctuation ("、" and "。" are U+3001 and U+3002).
_CONTROL_BYTES = bytes([*range(0x00, 0x08), *range(0x0E, 0x1A), *range(0x1C, 0x20)])
#: Bytes of BOM-less UTF-16 looked at.
_UTF16_SAMPLE = 65_536
# Format characters text holds: soft hyphen, Arabic letter mark, zero-width space and
# joiners, left-to-right and right-to-left marks, word joiner, a BOM within the text.
_TEXT_FORMAT_CHARS = frozenset("\u00ad\u061c\u200b\u200c\u200d\u200e\u200f\u2060\ufeff")
#: Share of the letters that may be neither Latin nor of the main script.
_OTHER_SCRIPT_SHARE = 0.1
_EAST_ASIAN = frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HANGUL",
                         "BOPOMOFO", "IDEOGRAPHIC", "HALFWIDTH", "FULLWIDTH"})


def utf16_without_bom(data: bytes) -> str | None:
    """The codec of BOM-less UTF-16 text too poor in NUL bytes for ``looks_utf16``
    (Chinese, Japanese, Korean, Cyrillic, Greek...), or None.

    Each test is one that 8-bit text fails: it holds bytes that are control codes in
    an 8-bit code page, and read as UTF-16 it has no unpaired surrogate, control,
    private-use or unassigned character, is mostly letters of one script (and Latin)
    and has spaces or punctuation between them. Read as UTF-16, Western text gives
    unassigned and invisible characters wherever a word meets a space, and CJK code
    pages a jumble of ideographs with none of the punctuation UTF-16 holds. When both
    byte orders read as text (Greek read backwards is ideographs and Hangul), the one
    whose characters come from fewer blocks of 256 is the text: a script's letters
    share their high byte.
    """
    sample = data[:_UTF16_SAMPLE]
    if len(data) % 2 or len(sample) < 4:
        return None
    if len(sample.translate(None, _CONTROL_BYTES)) == len(sample):
        return None
    readings: list[tuple[int, str]] = []
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError as exc:
            if exc.start < len(sample) - 2:
                continue
            text = sample[: exc.start].decode(codec)  # a surrogate pair cut where the sample ends
        if _reads_as_utf16_text(text):
            readings.append((len({ord(char) >> 8 for char in text}), codec))
    return min(readings)[1] if readings else None


#: Characters of UTF-16 text per space or punctuation mark, at most.
_CHARS_PER_SEPARATOR = 80


def _reads_as_utf16_text(text: str) -> bool:
    letters: dict[str, int] = {}
    signs = separators = 0
    for char, count in Counter(text).items():
        kind = _utf16_kind(char)
        if kind is None:
            return False
        if kind:
            letters[kind] = letters.get(kind, 0) + count
            continue
        if char.isspace() or unicodedata.category(char).startswith("P"):
            separators += count
        if not char.isspace():
            signs += count
    total = sum(letters.values())
    if not total or total < signs or separators * _CHARS_PER_SEPARATOR < len(text):
        return False
    main = max((count for script, count in letters.items() if script != "LATIN"), default=0)
    return total - main - letters.get("LATIN", 0) <= _OTHER_SCRIPT_SHARE * total


@lru_cache(maxsize=8192)
def _utf16_kind(char: str) -> str | None:
    """The script of a letter or mark, "" for another character text holds, None for
    one no text holds (a control, unassigned, private-use or surrogate code point)."""
    category = unicodedata.category(char)
    if category[0] in "LM":
        name = unicodedata.name(char, "")
        script = name.split(" ", 1)[0]
        return "CJK" if script in _EAST_ASIAN else script or "?"
    if category in ("Cn", "Co", "Cs") or (category == "Cc" and char not in "\t\n\r\f"):
        return None
    if category == "Cf" and char not in _TEXT_FORMAT_CHARS:
        return None
    return ""


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
# A sign that never starts a word (a currency, ©, ®, ±, a fraction, ¶) right before a
# lowercase letter: in ISO-8859-2 those bytes are capitals that do (Ľudia, Łódź, Žena).
_SIGN_BEFORE_LOWERCASE = re.compile(rb"[\xa3\xa5\xa9\xae\xb1\xb6\xbc\xbe][a-z\xdf-\xf6\xf8-\xff]")
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
    japanese = _kana_text(data)
    if japanese is not None:
        return japanese
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
        if codec == "cp1250" and _latin2(data, sample):
            codec = "iso8859-2"
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            continue
    return data.decode("cp1252", errors="replace"), "cp1252"


#: Japanese as it is written: kana, kanji, the ideographic punctuation and the full- and
#: half-width forms.
_JAPANESE = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                       "\uff01-\uff9f]")
_KANA = re.compile("[\u3041-\u30fa\u30fc]")
#: Full-width kana among the characters past ASCII from which a reading is Japanese.
# EUC-JP's hiragana are EUC-KR's Hangul letters (jamo), byte for byte: Japanese is not
# written in hiragana alone, where Korean chat may be written in jamo alone.
_HIRAGANA = re.compile("[\u3041-\u309f]*")
_ASCII_RUN = re.compile("[\x00-\x7f]+")
_KANA_SHARE = 0.3
_MIN_KANA = 4


def _kana_text(data: bytes) -> tuple[str, str] | None:
    """``data`` read as Shift_JIS or EUC-JP when it is Japanese written largely in kana,
    which the detector's models (built on kanji) miss: text in katakana or hiragana
    alone comes out as Baltic or Cyrillic letters. Only those readings hold kana in
    numbers: each code page puts them where other code pages have rare signs
    (Shift_JIS after 0x82 and 0x83, EUC-JP after 0xA4 and 0xA5), and any character
    outside Japanese writing rules a reading out, as does EUC-JP of hiragana alone."""
    for codec in ("cp932", "euc_jp"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        beyond = sum(1 for char in text if char >= "\x80")
        kana = len(_KANA.findall(text))
        if kana >= _MIN_KANA and kana >= _KANA_SHARE * beyond and \
                len(_JAPANESE.findall(text)) == beyond and \
                (codec == "cp932" or _HIRAGANA.fullmatch(_ASCII_RUN.sub("", text)) is None):
            return text, codec
    return None


# ISO-8859-15 (Latin-9, the "@euro" locales of Unix) moved the euro sign, "Š", "Œ", "œ"
# and "Ÿ" onto bytes where Windows-1252 has "¤", "¦", "¼", "½", "¾": signs no text writes
# for themselves, the currency sign anywhere, the others beside a letter ("c½ur" for
# "cœur") and no digit ("1½ kg" is a fraction)
_LATIN9_EVIDENCE = re.compile(
    rb"\xa4|(?<![0-9])(?:(?<=[A-Za-z\xc0-\xff])[\xa6\xbc-\xbe]|[\xa6\xbc-\xbe](?=[A-Za-z\xc0-\xff]))"
    rb"(?![0-9])")


def _latin9(data: bytes) -> bool:
    """Whether text read as Windows-1252 is ISO-8859-15: it holds none of the bytes
    0x80-0x9F, where Windows-1252 keeps its quotes, dashes and euro sign and ISO-8859-15
    control codes, and holds a byte only ISO-8859-15 reads as what text is written with.

    >>> _latin9("10 € pour le cœur".encode("iso8859-15")), _latin9("½ kg".encode("cp1252"))
    (True, False)
    """
    if len(data.translate(None, _C1_BYTES)) < len(data):
        return False
    return _LATIN9_EVIDENCE.search(_informative(data)) is not None


def _latin2_bytes(keep: Callable[[str, str], bool]) -> bytes:
    """The bytes whose ISO-8859-2 and Windows-1250 characters ``keep`` accepts."""
    found = bytearray()
    for byte in range(0x80, 0x100):
        latin2 = bytes([byte]).decode("iso8859-2")
        cp1250 = bytes([byte]).decode("cp1250", errors="replace")
        if keep(latin2, cp1250):
            found.append(byte)
    return bytes(found)


def _is_letter(char: str) -> bool:
    return unicodedata.category(char) in ("Lu", "Ll")


_C1_BYTES = bytes(range(0x80, 0xA0))
# ISO-8859-2 and Windows-1250 share their letters but for 0xA1-0xBF: where one has "ą",
# "ś", "Ś", "Š", "Ź" the other has "±", "¶", "¦", "©", "¬". "«", "»" and "®" stand
# beside words in Windows text, so their bytes prove nothing.
_LATIN2_ONLY_LETTERS = _latin2_bytes(
    lambda latin2, cp1250: _is_letter(latin2) and not _is_letter(cp1250) and cp1250 not in "«»®"
)
_LATIN2_WORD_BYTES = re.escape(_latin2_bytes(lambda latin2, _: _is_letter(latin2)))
_LATIN2_LETTER_IN_WORD = re.compile(
    b"(?<=[A-Za-z%s])[%s]|[%s](?=[A-Za-z%s])" % (
        _LATIN2_WORD_BYTES, re.escape(_LATIN2_ONLY_LETTERS),
        re.escape(_LATIN2_ONLY_LETTERS), _LATIN2_WORD_BYTES)
)
#: Letters only ISO-8859-2 reads as letters that make it the code page, not cp1250.
_LATIN2_EVIDENCE = 2


def _latin2(data: bytes, sample: bytes) -> bool:
    """Whether text the detector takes for Windows-1250 is ISO-8859-2.

    Only text with no byte of 0x80-0x9F can be: there ISO-8859-2 has control codes
    and cp1250 the letters and quotes of Polish and Czech ("ś", "ź", "š", "ž", "„").
    Then the two differ in 0xA1-0xBF alone. Letters only ISO-8859-2 reads as letters
    standing in words ("s±", "¶roda" for "są", "środa") decide; else the detector's
    language models score both readings of the same bytes ("příątí" is no Czech,
    "příští" is).
    """
    if len(data.translate(None, _C1_BYTES)) < len(data):
        return False
    if len(_LATIN2_LETTER_IN_WORD.findall(sample[:_CHECKED_BYTES])) >= _LATIN2_EVIDENCE:
        return True
    import chardet
    from chardet import EncodingEra

    scores = {codecs.lookup(m["encoding"]).name: m["confidence"]
              for m in chardet.detect_all(sample, encoding_era=EncodingEra.MODERN_WEB
                                          | EncodingEra.LEGACY_ISO, compat_names=False)
              if m["encoding"]}
    return scores.get("iso8859-2", 0.0) > scores.get("cp1250", 0.0)


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
    if data.translate(None, _ASCII + _LETTER_BYTES + _SIGN_BYTES) or \
            _SIGN_BEFORE_LOWERCASE.search(data):
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


# NULs in what is otherwise text are stray (a file padded with zeros where a write
# stopped, a field exported from a database with one in it) when no more than one
# character in this many is one
_STRAY_NUL_SHARE = 100


def without_stray_nuls(text: str) -> tuple[str, int]:
    """``text`` without its NULs, and how many there were, when they are stray: a run
    that ends the file (padding), or few among text that holds no other control code no
    text holds; else ``text`` as it is, for the binary check to refuse. Editors and
    spreadsheet programs open such a file, its NULs dropped.

    >>> without_stray_nuls("a,b\\n1,2\\n" + "\\x00" * 4096)
    ('a,b\\n1,2\\n', 4096)
    >>> without_stray_nuls("a,b\\n1,\\x002\\n")
    ('a,b\\n1,2\\n', 1)
    >>> without_stray_nuls("a\\x00,\\x00b\\x00\\n\\x001\\x00,\\x002\\x00")[1]
    0
    >>> without_stray_nuls("\\x00\\x01bin\\x02rio")[1]
    0
    """
    nuls = text.count("\x00")
    if not nuls:
        return text, 0
    body = text.rstrip("\x00")
    if body.count("\x00") > max(1, len(body) // _STRAY_NUL_SHARE):
        return text, 0
    kept = body.replace("\x00", "")
    if _BINARY_CONTROL.search(kept, 0, _BINARY_SAMPLE):
        return text, 0  # NULs beside other codes no text holds: binary data, not padding
    return kept, nuls


# A character struck over by others through backspaces: how terminals' pagers and nroff
# write bold ("N\bN") and underlined ("_\bN") letters, and what a saved man page holds
_OVERSTRUCK = re.compile("(?:[^\b\n]\b)+[^\b\n]")


def _struck_character(found: re.Match[str]) -> str:
    # an underline is struck under the letter, before or after it; else the last
    # character struck shows, as on paper
    struck = found.group()[::2]
    return next((char for char in reversed(struck) if char != "_"), "_")


def without_overstrikes(text: str) -> str:
    r"""``text`` with each character struck over through backspaces read as the one
    character it shows.

    >>> without_overstrikes("N\bNA\bAM\bME\bE ls _\bf_\bi_\bl_\be")
    'NAME ls file'
    >>> without_overstrikes("a\bb x\b_ \b")
    'b x \x08'
    """
    return _OVERSTRUCK.sub(_struck_character, text)


def without_end_of_file_mark(text: str) -> str:
    r"""``text`` without the end-of-file mark (Ctrl-Z, U+001A) DOS programs close a text
    file with, and the blanks after it: no character of the text, where it was read
    as one (the last row of an exported CSV, a stray control code in the output).

    >>> without_end_of_file_mark("CODE,NAME\r\n1,Ana\r\n\x1a"), without_end_of_file_mark("a\n")
    ('CODE,NAME\r\n1,Ana\r\n', 'a\n')
    """
    end = len(text.rstrip())
    if not end or text[end - 1] != "\x1a":
        return text
    return text[: len(text[:end].rstrip("\x1a"))]


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
        text, nuls = without_stray_nuls(text)
        text = without_end_of_file_mark(text)
        if binary_content(text):
            raise CorruptDocument(f"binary content in a text file (decoded as {encoding})",
                                  file=source.display_name)
        if "\b" in text:
            text = without_overstrikes(text)
        # NEL (U+0085) ends the lines of EBCDIC text
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x85", "\n")
        if cut:  # after the line ends are made one character each, which shortens it
            text = text[:_page_text_end(text, limit + 1)]
        pages = text.split("\f", MAX_PAGES - 1) if "\f" in text else [text]
        warnings: list[tuple[str, str]] = []
        if len(pages) == MAX_PAGES and "\f" in pages[-1]:
            # every page costs the pipeline its own work: a file of form feeds alone
            # would be a page per byte (200 KB of them took 17 s)
            pages[-1] = pages[-1].replace("\f", "\n")
            warnings.append(("FormFeedPages", f"more than {MAX_PAGES:,} form feeds: the text "
                             f"after page {MAX_PAGES - 1:,} is read as one last page"))
        metadata: dict[str, Any] = {"encoding": encoding}
        if nuls:
            metadata["nul_characters_dropped"] = nuls
            warnings.append(("CorruptDocument", f"{nuls:,} NUL character(s) dropped: no text "
                             "holds them (a file padded or damaged)"))
        document = TextDocument(pages, metadata=metadata)
        document.warnings = warnings
        return document


def _page_text_end(text: str, wanted: int) -> int:
    """Where ``text`` holds ``wanted`` characters besides its form feeds, which split it
    into pages and are no page's text: the pipeline sees the limit passed only if the
    pages hold the character past it.

    >>> _page_text_end("ab\fcd\fef", 4), _page_text_end("\f\f\fab", 1), _page_text_end("ab", 5)
    (5, 4, 2)
    """
    end = wanted
    while end < len(text):
        further = wanted + text.count("\f", 0, end)
        if further == end:
            break
        end = further
    return min(end, len(text))


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
