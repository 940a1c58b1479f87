"""Recovery of text drawn in TrueType fonts that carry no character map at all.

A PDF may embed a subset TrueType font addressed by glyph number (Identity-H, the
usual way of Word, Quartz and many printers' drivers) with neither a ToUnicode map
nor a ``cmap`` table in the font itself. Nothing in the file says which letter a glyph
is, so PDFium, pdfminer and Poppler all hand back the glyph numbers: ``Herausgeber``
comes out as ``+HUDXVJHEHU`` (every letter moved by 29 places), spaces as U+0003.

Most fonts (Arial, Times New Roman, Georgia, Segoe UI, DejaVu, ...) keep their first
glyphs in the order TrueType's ``post`` table calls standard (the 258 Macintosh glyph
names: ``space`` is 3, ``A`` 36, ``eacute`` 112), and subsetters that keep glyph
numbers keep that order. Reading the numbers through that table gives the words back.
The result is only a candidate: when a font orders its glyphs otherwise it reads as
nonsense, the validators say so, and the page keeps its verdict (OCR is then its
remedy, as before).
"""

from __future__ import annotations

import ctypes
import functools
import struct
from collections.abc import Sequence

import pypdfium2.raw as pdfium_c

from goblin_pdf.font_rereading import PageCharacters, PdfiumRereading, joined_text

_SFNT_TRUETYPE = (b"\x00\x01\x00\x00", b"true")
# A font program of a PDF page is at most this large here: a bigger one is not read
# for its table directory (CJK fonts run to tens of MB and always carry a cmap).
_MAX_FONT_BYTES = 64 * 1024**2
_SPACE_GLYPH = 3
_SHIFTS = (0, 1, -1, 2, -2)
_VOWELS = frozenset("aeiouyàáâãäåèéêëìíîïòóôõöùúûü")
_MIN_LETTERS_FOR_SHIFT = 12
# Standard glyphs 191 and 192 are guilsinglright and fi. A font without one of the rare
# glyphs before them (ydieresis to guilsinglleft) holds fi at 191 and fl at 192, which
# read as "›" and "ﬁ" in words: "édi›er", "›lms", "reﬁets" for "édifier", "films", "reflets".
_GUILSINGLRIGHT = 191
_LIGATURES_ONE_ON = (191, 192)
_MIN_WORD_GUILLEMETS = 2


@functools.lru_cache(maxsize=1)
def _standard_characters() -> tuple[str, ...]:
    """The character of each of TrueType's 258 standard glyph names ("" for the three
    that draw nothing)."""
    from fontTools.agl import toUnicode
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    characters = [toUnicode(name) for name in standardGlyphOrder]
    for control in range(_SPACE_GLYPH):  # .notdef, .null, nonmarkingreturn
        characters[control] = ""
    return tuple(characters)


def unnamed_truetype(font_program: bytes) -> bool:
    """Whether ``font_program`` is a TrueType font without a ``cmap`` table: its glyphs
    carry no character at all.

    >>> unnamed_truetype(b"\\x00\\x01\\x00\\x00" + struct.pack(">H", 1) + bytes(6)
    ...                  + b"glyf" + bytes(12))
    True
    >>> unnamed_truetype(b"\\x00\\x01\\x00\\x00" + struct.pack(">H", 1) + bytes(6)
    ...                  + b"cmap" + bytes(12))
    False
    """
    if len(font_program) < 12 or font_program[:4] not in _SFNT_TRUETYPE:
        return False
    (tables,) = struct.unpack_from(">H", font_program, 4)
    if not tables or len(font_program) < 12 + 16 * tables:
        return False
    tags = {font_program[12 + 16 * i: 16 + 16 * i] for i in range(tables)}
    return b"cmap" not in tags and b"glyf" in tags


def glyph_text(glyphs: Sequence[int]) -> str:
    """The characters of glyph numbers read in the standard order; U+FFFD past it.

    >>> glyph_text([43, 72, 79, 79, 82, 3, 90, 82, 85, 79, 71])
    'Hello world'
    """
    table = _standard_characters()
    return "".join(table[g] if g < len(table) else "\ufffd" for g in glyphs)


class GlyphOrderRecovery(PdfiumRereading):
    """Reads glyph numbers of fonts without any character map through the standard
    TrueType glyph order."""

    name = "pdf.glyph_order"
    # PDFium in process and one pass over the page's characters: cheaper than
    # pdfplumber, which reads such fonts no better.
    priority = 70

    def available(self) -> tuple[bool, str]:
        try:
            import fontTools  # noqa: F401
        except ImportError:
            return False, "fontTools is not installed: pip install fonttools"
        return True, ""

    def reread(self, chars: PageCharacters) -> str | None:
        """The page's text with glyphs of unnamed fonts read in the standard order; None
        when the page has no such font (the other engines' text stands)."""
        unnamed = {key: _font_is_unnamed(font) for key, font in chars.fonts.items()}
        by_font: dict[int, list[int]] = {}
        for code, font in zip(chars.codes, chars.font_keys, strict=True):
            if unnamed.get(font):
                by_font.setdefault(font, []).append(code)
        if not by_font:
            return None
        shifts = {font: _shift(glyphs) for font, glyphs in by_font.items()}
        ligatures_one_on = _fonts_with_ligatures_one_on(
            {font: [g + shifts[font] for g in glyphs] for font, glyphs in by_font.items()})
        table = _standard_characters()
        parts: list[str] = []
        for code, font in zip(chars.codes, chars.font_keys, strict=True):
            if font in shifts:
                glyph = code + shifts[font]
                if glyph in _LIGATURES_ONE_ON and font in ligatures_one_on:
                    glyph += 1
                char = table[glyph] if 0 <= glyph < len(table) else "\ufffd"
            else:
                char = chr(code) if code < 0x110000 else "\ufffd"
            # PDFium sees no space in glyph 3 and puts one of its own in the gap after it
            if char == " " and parts and parts[-1] == " ":
                continue
            parts.append(char)
        return joined_text(parts)


def _shift(glyphs: list[int]) -> int:
    """How far a font's glyph numbers sit from the standard order: 0 for most fonts, a
    step or two for fonts with a glyph more or less before their letters.

    Letters read one place off turn vowels into rare consonants (``a`` into ``b`` or a
    backtick), so the shift whose reading holds the most vowels is the right one; a
    font with too few glyphs on the page to tell keeps the standard order.
    """
    table = _standard_characters()
    best, best_vowels = 0, -1.0
    for shift in _SHIFTS:
        letters = vowels = 0
        for glyph in glyphs:
            glyph += shift
            char = table[glyph] if 0 <= glyph < len(table) else ""
            if char.isalpha():
                letters += 1
                vowels += char.lower() in _VOWELS
        if letters < _MIN_LETTERS_FOR_SHIFT:
            return 0
        share = vowels / letters
        if share > best_vowels + (0.05 if best == 0 else 0):  # the standard order wins ties
            best, best_vowels = shift, share
    return best


def _fonts_with_ligatures_one_on(fonts: dict[int, list[int]]) -> set[int]:
    """The fonts (glyphs in the standard order, shift applied) whose fi and fl sit one
    place early: guilsinglright shows before letters, most of the times it shows at all.
    A closing guillemet ends a quotation, so a letter never follows it.

    The fonts of one page were subset by one program: a font with too few ligatures of
    its own to tell (one "ﬁuvial", no "›") goes with the page's other fonts when none
    of its own guillemets says otherwise.

    >>> sorted(_fonts_with_ligatures_one_on({1: [71, 76, 191, 72, 85, 3, 191, 79, 80],
    ...                                      2: [3, 192, 88, 89], 3: [68, 191, 3, 192]}))
    [1, 2]
    >>> _fonts_with_ligatures_one_on({1: [190, 68, 191, 3, 190, 69, 191, 3]})  # ‹a› ‹b›
    set()
    """
    counts = {font: _guillemets(glyphs) for font, glyphs in fonts.items()}
    before = sum(b for b, _ in counts.values())
    page = before >= _MIN_WORD_GUILLEMETS and 2 * before > sum(m for _, m in counts.values())
    return {font for font, (b, marks) in counts.items()
            if (b >= _MIN_WORD_GUILLEMETS and 2 * b > marks) or (page and b == marks)}


def _guillemets(glyphs: list[int]) -> tuple[int, int]:
    """How many guilsinglright glyphs come before a letter, and how many there are."""
    table = _standard_characters()
    marks = [i for i, glyph in enumerate(glyphs) if glyph == _GUILSINGLRIGHT]
    before = 0
    for i in marks:
        following = glyphs[i + 1] if i + 1 < len(glyphs) else -1
        before += 0 <= following < len(table) and table[following].isalpha()
    return before, len(marks)


def _font_is_unnamed(font: pdfium_c.FPDF_FONT) -> bool:
    if not pdfium_c.FPDFFont_GetIsEmbedded(font):
        return False
    size = ctypes.c_size_t(0)
    if not pdfium_c.FPDFFont_GetFontData(font, None, 0, ctypes.byref(size)):
        return False
    if not 12 <= size.value <= _MAX_FONT_BYTES:
        return False
    buffer = (ctypes.c_uint8 * size.value)()
    if not pdfium_c.FPDFFont_GetFontData(font, buffer, size.value, ctypes.byref(size)):
        return False
    return unnamed_truetype(bytes(buffer))
