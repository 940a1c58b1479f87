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
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.validators.char_classes import non_space_count
from goblin_pdf.validators.char_counts import letter_count
from goblin_pdf.validators.words import raw_tokens

_GLYPH_NAME = re.compile(r"(?<!\S)/[A-Za-z]{0,4}\d{1,5}(?!\S)")
_CID = re.compile(r"\(cid:\d+\)")
# Numbers as documents write them: 1.234,56  12/03/2020  15%  R$ 4.000  (3)  nº 12  1st
_NUMBER = re.compile(
    r"(?<!\w)[-+−(]?(?:[A-Z]{1,3}\$|[$€£¥])?\s?\d[\d.,:/\-–]*\d?%?\)?(?:º|ª|st|nd|rd|th)?(?!\w)"
)
# Leader dots and rules (". . . . .", "_____", "-----") of tables of contents and forms.
_LEADERS = re.compile(r"([^\w\s])(?:\s?\1){2,}")
_MIN_CHARS = 3
_LETTER = re.compile(r"[^\W\d_]")


class GlyphCodeValidator(BaseEngine):
    """Garbage when a page is glyph names, ``(cid:N)`` markers, or codes on punctuation."""

    name = "pdf.glyph_codes"
    formats = PDF_PAGES
    priority = 60

    def check(self, text: str, context: PageContext) -> Verdict:
        options = context.options
        reasons: list[str] = []
        score = 1.0
        names = len(_GLYPH_NAME.findall(text)) if "/" in text else 0
        tokens = raw_tokens(text) if names else ()
        if names and len(tokens) >= int(options.get("glyph_name_min_tokens", 8)):
            share = names / len(tokens)
            if share >= float(options.get("glyph_name_share", 0.4)):
                reasons.append("glyph_names")
                score = min(score, 1 - share)
        stripped = text.strip()
        if len(stripped) >= 8 and "(cid:" in stripped:
            cid_chars = sum(len(m) for m in _CID.findall(stripped))
            share = cid_chars / len(stripped)
            if share >= float(options.get("cid_share", 0.3)):
                reasons.append("cid_markers")
                score = min(score, 1 - share)
        letters = letter_share(text, float(options.get("min_letter_share", 0.3)))
        if letters is not None and letters < float(options.get("min_letter_share", 0.3)):
            reasons.append("codes_on_punctuation")
            score = min(score, letters)
        if reasons:
            return Verdict("garbage", round(max(score, 0.0) * 0.5, 4), tuple(reasons))
        return Verdict("ok", 1.0)


def letter_share(text: str, enough: float = 1.0) -> float | None:
    """Letters among the non-space characters left once numbers are removed.

    None when too little is left to judge (a page of figures, a page number). When
    the plain share is already ``enough``, it is returned without the cleaning.

    >>> letter_share("Quantidade 1.234,56 12 15% R$ 4.000,00 total")
    1.0
    >>> letter_share('"7+%- #$&*@!" =+')
    0.0
    """
    total = non_space_count(text)
    if total >= _MIN_CHARS:
        # Removing numbers and leaders only raises the share: skip it when already enough.
        share = letter_count(text) / total
        if share >= enough:
            return share
    rest = _CID.sub(" ", _NUMBER.sub(" ", _LEADERS.sub(" ", text)))
    chars = non_space_count(rest)
    if chars < _MIN_CHARS:
        return None
    return len(_LETTER.findall(rest)) / chars
