r"""An RTF ``\uN`` escape is followed by ``\ucN`` fallback characters a Unicode reader
skips; a control word or control symbol is one such character, as a ``\'xx`` byte is."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (rb"\u8220\ldblquote hi\u8221\rdblquote .", "\u201chi\u201d."),
        (rb"Dash \u8212\emdash  end", "Dash \u2014 end"),
        (rb"a\u160\~b", "a\u00a0b"),
        (rb"hex \u8212\'97 ok", "hex \u2014 ok"),
        (rb"\uc2 two \u8212\emdash\'97 x", "two \u2014 x"),
        (rb"\uc0 none \u8212\emdash x", "none \u2014\u2014x"),
        (rb"group {\u8212}\endash x", "group \u2014\u2013x"),
    ],
)
def test_fallback_control_words_are_skipped(read, body: bytes, expected: str) -> None:  # type: ignore[no-untyped-def]
    data = rb"{\rtf1\ansi\uc1 " + body + rb"\par}"
    assert read(data, "unicode.rtf").text.strip() == expected


@pytest.mark.parametrize("ansi", [rb"{\f0 Tokyo: ??}", rb"{Tokyo: ??}", rb"{\b Tokyo: ??}"])
def test_the_ansi_copy_of_upr_text_is_left_for_its_unicode_copy(read, ansi: bytes) -> None:  # type: ignore[no-untyped-def]
    """\\upr{ANSI}{\\*\\ud{Unicode}} holds the same text twice; the ANSI copy may open with
    text or with a control word."""
    rtf = rb"{\rtf1\ansi {\upr" + ansi + rb"{\*\ud{Tokyo: \u26481?\u20140?}}}\par after}"
    assert read(rtf, "upr.rtf").text == "Tokyo: 東京\nafter"
