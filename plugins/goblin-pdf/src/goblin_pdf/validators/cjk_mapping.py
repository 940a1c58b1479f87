"""Mis-mapped CJK: real Han characters, but not the ones the page draws.

A CID font without a ToUnicode map leaves the engine to guess each glyph's
character from its code, and a wrong guess still lands on Han characters, so
nothing looks broken. The guesses fall evenly over the Han blocks, though,
while real text keeps to the few thousand characters every East Asian
encoding has. A character that GB 2312, Big5's frequent block, Hong Kong's
supplement to Big5 (HKSCS: the characters of written Cantonese), JIS X 0208 and
KS X 1001 all lack is rare in any real Chinese, Japanese or Korean page (well
under one in a thousand), yet over 40% of a random guess.

A page is garbage when rare characters are a large share of its Han text and
there are enough of them, together with other signs of a broken font such as
spacing modifier letters glued to digits or Han characters (``Date˖2019``,
``Buyer˖哾``, where the page draws full-width colons), to rule out one rare
name on an otherwise short page.
"""

from __future__ import annotations

import functools
import re

from goblin_core.engines import BaseEngine
from goblin_core.model import PageContext, Verdict
from goblin_pdf.formats import PDF_PAGES

_HAN = re.compile(
    "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]"
)
# A spacing modifier letter (U+02B0-U+02FF) touching a digit or a Han character.
# Phonetic transcription puts them next to Latin letters, never there.
_STRAY_MODIFIER = re.compile(
    "(?:(?<=[0-9\u3400-\u9fff])[\u02b0-\u02ff])|(?:[\u02b0-\u02ff](?=[0-9\u3400-\u9fff]))"
)
# Big5's frequent-character block (the Ministry of Education's 5,401 common characters).
_BIG5_FREQUENT = (0xA440, 0xC67E)
_UNIFIED = (0x4E00, 0x9FFF)
_COMPATIBILITY = (0xF900, 0xFAFF)

#: Rare characters a flagged page has at least.
MIN_RARE = 2
#: Rare characters plus stray modifier letters a flagged page has at least.
MIN_EVIDENCE = 4
#: Share of the page's Han characters that are rare, at or above which it is flagged.
RARE_SHARE = 0.25


class CJKMappingValidator(BaseEngine):
    """Garbage when the page's Han characters are mostly ones real text hardly uses."""

    name = "pdf.cjk_mapping"
    formats = PDF_PAGES
    priority = 50

    def check(self, text: str, context: PageContext) -> Verdict:
        if text.isascii():  # a flag of the string, no scan
            return Verdict("ok", 1.0)
        han = _HAN.findall(text)
        if len(han) < MIN_RARE:
            return Verdict("ok", 1.0)
        common = common_han()
        rare = sum(1 for char in han if char not in common)
        if rare < MIN_RARE:
            return Verdict("ok", 1.0)
        share = rare / len(han)
        strays = len(_STRAY_MODIFIER.findall(text))
        if share < RARE_SHARE or rare + strays < MIN_EVIDENCE:
            return Verdict("ok", 1.0)
        reasons: tuple[str, ...] = ("cjk_mismapped", f"rare_han_share={share:.2f}")
        if strays:
            reasons += (f"stray_modifiers={strays}",)
        # A wrong guess at every glyph is beyond what recovery engines reading the same font
        # can fix: the score sends the page to OCR.
        return Verdict("garbage", round(0.25 * (1 - share), 4), reasons)


@functools.cache
def common_han() -> frozenset[str]:
    """Han characters of GB 2312, Big5's frequent block, HKSCS, JIS X 0208 or KS X 1001.

    >>> {"的", "國", "語", "倣", "嘅"} <= common_han()
    True
    >>> "㦓" in common_han() or "哾" in common_han()
    False
    """
    chars = (chr(code) for start, end in (_UNIFIED, _COMPATIBILITY)
             for code in range(start, end + 1))
    return frozenset(char for char in chars if _in_common_encoding(char))


def _in_common_encoding(char: str) -> bool:
    if _encodes(char, "gb2312") or _encodes(char, "euc_kr"):
        return True
    big5 = _encodes(char, "big5")
    if big5 and _BIG5_FREQUENT[0] <= int.from_bytes(big5, "big") <= _BIG5_FREQUENT[1]:
        return True
    if not big5 and _encodes(char, "big5hkscs"):
        return True
    # EUC-JP writes JIS X 0208 in two bytes; three bytes are JIS X 0212's rarer supplement.
    euc_jp = _encodes(char, "euc_jp")
    return len(euc_jp) == 2


def _encodes(char: str, codec: str) -> bytes:
    try:
        return char.encode(codec)
    except UnicodeEncodeError:
        return b""
