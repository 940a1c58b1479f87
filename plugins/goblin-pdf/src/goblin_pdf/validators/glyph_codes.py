"""Raw glyph codes in the text: glyph-name tokens, ``(cid:N)`` markers, codes on punctuation.

When an engine cannot map a glyph to Unicode it writes what it has: a glyph
name (``/g143``, ``/120``), pdfminer's ``(cid:N)``, or the raw code, which for
many subset fonts lands on punctuation and digits (``"7+%-``). Numbers are
left out of the letter share, so a clean table of quantities and amounts is
never taken for codes.
"""

from __future__ import annotations

import re

from goblin_core.engines import BaseEngine
from goblin_core.model import PageContext, Verdict

from goblin_pdf.validators.words import raw_tokens

_GLYPH_NAME = re.compile(r"/[A-Za-z]{0,4}\d{1,5}")
_CID = re.compile(r"\(cid:\d+\)")
# Numbers as documents write them: 1.234,56  12/03/2020  15%  R$ 4.000  (3)  nº 12  1st
_NUMBER = re.compile(
    r"(?<!\w)[-+−(]?(?:[A-Z]{1,3}\$|[$€£¥])?\s?\d[\d.,:/\-–]*\d?%?\)?(?:º|ª|st|nd|rd|th)?(?!\w)"
)
# Leader dots and rules (". . . . .", "_____", "-----") of tables of contents and forms.
_LEADERS = re.compile(r"([^\w\s])(?:\s?\1){2,}")
_MIN_CHARS = 3


class GlyphCodeValidator(BaseEngine):
    """Garbage when a page is glyph names, ``(cid:N)`` markers, or codes on punctuation."""

    name = "pdf.glyph_codes"
    formats = ("application/pdf",)
    priority = 60

    def check(self, text: str, context: PageContext) -> Verdict:
        options = context.options
        reasons: list[str] = []
        score = 1.0
        tokens = raw_tokens(text)
        names = sum(1 for t in text.split() if _GLYPH_NAME.fullmatch(t))
        if len(tokens) >= int(options.get("glyph_name_min_tokens", 8)):
            share = names / len(tokens)
            if share >= float(options.get("glyph_name_share", 0.4)):
                reasons.append("glyph_names")
                score = min(score, 1 - share)
        stripped = text.strip()
        if len(stripped) >= 8:
            cid_chars = sum(len(m) for m in _CID.findall(stripped))
            share = cid_chars / len(stripped)
            if share >= float(options.get("cid_share", 0.3)):
                reasons.append("cid_markers")
                score = min(score, 1 - share)
        letters = letter_share(text)
        if letters is not None and letters < float(options.get("min_letter_share", 0.3)):
            reasons.append("codes_on_punctuation")
            score = min(score, letters)
        if reasons:
            return Verdict("garbage", round(max(score, 0.0) * 0.5, 4), tuple(reasons))
        return Verdict("ok", 1.0)


def letter_share(text: str) -> float | None:
    """Letters among the non-space characters left once numbers are removed.

    None when too little is left to judge (a page of figures, a page number).

    >>> letter_share("Quantidade 1.234,56 12 15% R$ 4.000,00 total")
    1.0
    >>> round(letter_share('"7+%- #$&*@!" =+') or 0, 2)
    0.0
    """
    rest = _CID.sub(" ", _NUMBER.sub(" ", _LEADERS.sub(" ", text)))
    chars = [c for c in rest if not c.isspace()]
    if len(chars) < _MIN_CHARS:
        return None
    return sum(1 for c in chars if c.isalpha()) / len(chars)
