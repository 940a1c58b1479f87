"""Spaces Tesseract puts between Chinese and Japanese characters.

Its Chinese and Japanese models treat single characters as words and write a
space between them; those scripts use no spaces, so a phrase search fails on
the reading. Korean Hangul does use spaces and is left alone.
"""

from __future__ import annotations

import re

_CJK = (
    "\u3000-\u303f"  # CJK punctuation
    "\u3040-\u309f"  # Hiragana
    "\u30a0-\u30ff"  # Katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # compatibility ideographs
    "\uff00-\uffef"  # full-width forms
)
_SPACE_BETWEEN = re.compile(f"(?<=[{_CJK}])[ \t]+(?=[{_CJK}])")


def join_cjk(text: str) -> str:
    """Drop spaces between two Chinese or Japanese characters.

    >>> join_cjk("元 来 日本 語 は ok now")
    '元来日本語は ok now'
    """
    return _SPACE_BETWEEN.sub("", text)
