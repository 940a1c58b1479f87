"""Recovery of fonts whose ToUnicode map was written with each character's two bytes
swapped.

Some producers write a ToUnicode map's UTF-16 values little-endian, so ``M`` (U+004D)
is mapped to U+4D00 and a line of Latin text comes out as CJK ideographs:
``䴀甀氀琀椀挀漀氀漀爀`` for ``Multicolor``. Every engine that trusts the map reads the
same. A font whose characters nearly all have a zero low byte and a printable high
byte is such a font (in real CJK text under 1 character in 200 has a zero low byte);
its characters are read with their bytes swapped back. As with every recovery, the
text is a candidate the validators judge.
"""

from __future__ import annotations

from goblin_pdf.font_rereading import PageCharacters, PdfiumRereading, joined_text

#: A font needs this many characters on the page before its bytes are judged.
MIN_FONT_CHARS = 8
#: Share of a font's characters that must look swapped.
MIN_SWAPPED_SHARE = 0.9


def swapped(code: int) -> bool:
    """Whether ``code`` is a printable Latin-1 character with its bytes swapped.

    >>> swapped(0x4D00), swapped(0xE900), swapped(0x4E2D), swapped(0x0041)
    (True, True, False, False)
    """
    high, low = code >> 8, code & 0xFF
    return low == 0 and (0x20 <= high <= 0x7E or 0xA0 <= high <= 0xFF)


class ByteOrderRecovery(PdfiumRereading):
    """Swaps back the bytes of fonts whose ToUnicode map has them the wrong way round."""

    name = "pdf.byte_order"
    # PDFium in process, one pass over the characters, and only fonts of this kind
    # change: tried before the engines that read the same map.
    priority = 65

    def reread(self, chars: PageCharacters) -> str | None:
        counts: dict[int, list[int]] = {}  # font -> [characters, swapped ones]
        for code, font in zip(chars.codes, chars.font_keys, strict=True):
            if font and code > 0x20:
                seen = counts.setdefault(font, [0, 0])
                seen[0] += 1
                seen[1] += swapped(code)
        fonts = {font for font, (total, hits) in counts.items()
                 if total >= MIN_FONT_CHARS and hits >= MIN_SWAPPED_SHARE * total}
        if not fonts:
            return None
        return joined_text([
            chr(code >> 8) if font in fonts and swapped(code) else chr(code)
            for code, font in zip(chars.codes, chars.font_keys, strict=True)
            if code < 0x110000
        ])
