"""Characters of the symbol fonts (Symbol, Wingdings) as the Unicode characters they draw.

Word keeps a character inserted from a symbol font as ``<w:sym w:font="Symbol"
w:char="F0B7"/>``: a code in the font's own 8-bit encoding, shifted into the private
use area (U+F000 + the byte), which shows as an empty box in any other font. No
maintained PyPI package offers these mappings as a library, so the tables are here.

- Symbol: the Adobe Symbol encoding's Unicode mapping (Adobe's ``symbol.txt``, as
  published in the Unicode Consortium's vendor mappings). Where Adobe maps a glyph to
  its own private use code (the radical extender, the Apple logo) the code is left as
  it is; the serif forms of (R), (C) and TM are the same characters as the sans ones.
- Wingdings: the glyphs Word offers as bullets, check boxes, arrows and hands, at the
  code points Unicode gave them (most of them added in Unicode 7.0 for the Wingdings
  and Webdings fonts). Other glyphs are left as they are.
"""

from __future__ import annotations

# "\0" marks a code that has no Unicode character of its own
_SYMBOL_LOW = (  # 0x20 to 0x7E
    " !∀#∃%&∋()∗+,−./0123456789:;<=>?"
    "≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_"
    "\0αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼"
)
_SYMBOL_HIGH = (  # 0xA0 to 0xFE
    "€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵"
    "ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓"
    "◊〈®©™∑⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪\0〉∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭"
)
_SYMBOL = {
    **{0x20 + offset: char for offset, char in enumerate(_SYMBOL_LOW) if char != "\0"},
    **{0xA0 + offset: char for offset, char in enumerate(_SYMBOL_HIGH) if char != "\0"},
}
_WINGDINGS = {
    0x22: "\u2702",  # scissors
    0x28: "\U0001f57f",  # black touchtone telephone
    0x2A: "\U0001f582",  # back of envelope
    0x43: "\U0001f44d",  # thumbs up
    0x44: "\U0001f44e",  # thumbs down
    0x45: "\u261c",  # white left pointing index
    0x46: "\u261e",  # white right pointing index
    0x47: "\u261d",  # white up pointing index
    0x48: "\u261f",  # white down pointing index
    0x4A: "\u263a",  # white smiling face
    0x4B: "\U0001f610",  # neutral face
    0x4C: "\u2639",  # white frowning face
    0x6C: "\u26ab",  # medium black circle
    0x6E: "\u25fc",  # black medium square
    0x6F: "\U0001f78f",  # medium white square
    0x70: "\U0001f790",  # bold white square
    0x71: "\u2751",  # lower right shadowed white square
    0x72: "\u2752",  # upper right shadowed white square
    0x74: "\u29eb",  # black lozenge
    0x75: "\u25c6",  # black diamond
    0x76: "\u2756",  # black diamond minus white x
    0x77: "\u2b29",  # black small diamond
    0x9E: "\u2219",  # bullet operator
    0x9F: "\u2022",  # bullet
    0xA7: "\u25aa",  # black small square
    0xA8: "\U0001f78e",  # light white square
    0xAB: "\u2605",  # black star
    0xD8: "\u2b9a",  # three-d top-lighted rightwards equilateral arrowhead
    0xE0: "\U0001f86a",  # rightwards arrow, medium
    0xE8: "\U0001f87a",  # heavy rightwards arrow
    0xEF: "\u21e6",  # leftwards white arrow
    0xF0: "\u21e8",  # rightwards white arrow
    0xF1: "\u21e7",  # upwards white arrow
    0xF2: "\u21e9",  # downwards white arrow
    0xFB: "\U0001f5f6",  # ballot bold script x
    0xFC: "\u2713",  # check mark
    0xFD: "\U0001f5f7",  # ballot box with bold script x
    0xFE: "\U0001f5f9",  # ballot box with bold check
}
_FONTS = {"symbol": _SYMBOL, "wingdings": _WINGDINGS}
_PRIVATE_USE_BASE = 0xF000


def symbol_text(font: str, char: str) -> str:
    """The character a ``w:sym`` draws: ``char`` is its hex code in ``font``; a code
    the font's table lacks stays the character it names, a malformed one is dropped.

    >>> symbol_text("Symbol", "F0B7"), symbol_text("Symbol", "61"), symbol_text("Wingdings", "F0FC")
    ('•', 'α', '✓')
    >>> symbol_text("Wingdings 3", "F07D") == chr(0xF07D)
    True
    """
    try:
        code = int(char, 16)
    except ValueError:
        return ""
    if not 0 < code < 0x110000 or 0xD800 <= code < 0xE000:
        return ""
    table = _FONTS.get(font.strip().lower())
    if table is None:
        return chr(code)
    return _drawn(table, chr(code))


def symbol_table(font: str | None) -> dict[int, str] | None:
    """The table of a symbol font goblin knows by name (Symbol, Wingdings), else None."""
    return _FONTS.get(font.strip().lower()) if font else None


def symbol_run_text(table: dict[int, str], text: str) -> str:
    """``text`` typed in a symbol font (``table`` from :func:`symbol_table`) as the
    characters it draws: Word keeps such a run's characters as the font's own bytes
    (``a`` for alpha), or shifted into the private use area as ``w:sym`` does.

    >>> symbol_run_text(symbol_table("Symbol"), "a + b \uf0a3 g")
    'α + β ≤ γ'
    """
    return "".join(_drawn(table, char) for char in text)


def _drawn(table: dict[int, str], char: str) -> str:
    code = ord(char)
    byte = code - _PRIVATE_USE_BASE if _PRIVATE_USE_BASE <= code <= 0xF0FF else code
    return table.get(byte, char)
