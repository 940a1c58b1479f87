"""Marks PDFium reads apart from the text they belong to.

TeX and some other producers draw ``é`` as ``e`` plus a separate acute
glyph; extraction then reads ``prote´ge´``. An accent right after a letter is
combined with it when Unicode has the precomposed letter; anything else is
left exactly as it was. A full stop or comma set slightly below the line
comes out on a line of its own; it is put back at the end of the line above.
A soft hyphen drawn inside a line is the hyphen it shows.
"""

from __future__ import annotations

import re
import unicodedata

_COMBINING = {
    "\u00b4": "\u0301",  # acute
    "`": "\u0300",       # grave
    "\u00a8": "\u0308",  # diaeresis
    "\u02dc": "\u0303",  # small tilde
    "\u02c6": "\u0302",  # circumflex
    "\u02d8": "\u0306",  # breve
    "\u02c7": "\u030c",  # caron
    "\u00b8": "\u0327",  # cedilla
    "\u02da": "\u030a",  # ring
    "\u02dd": "\u030b",  # double acute
    "\u02db": "\u0328",  # ogonek
}
_DOTLESS = {"\u0131": "i", "\u0237": "j"}
_PATTERN = re.compile(r"([^\W\d_])([" + "".join(_COMBINING) + r"])(?=[^\W\d_]|\s|$|[.,;:!?)])")


def attach_spacing_accents(text: str) -> str:
    """Combine a spacing accent with the letter before it.

    >>> attach_spacing_accents("prote´ge´ performance, Luı´s")
    'protégé performance, Luís'
    >>> attach_spacing_accents("it´s")
    'it´s'
    """
    # a substring test per accent finds none far sooner than a character-class scan
    if not any(map(text.__contains__, _COMBINING)):
        return text
    return _PATTERN.sub(_combine, text)


def _combine(match: re.Match[str]) -> str:
    letter, accent = match.group(1), match.group(2)
    base = _DOTLESS.get(letter, letter)
    composed = unicodedata.normalize("NFC", base + _COMBINING[accent])
    return composed if len(composed) == 1 else match.group(0)


_LONE_PUNCTUATION = re.compile(r"(?<=\S)[ \t]*\n[ \t]*([.,;:!?])[ \t]*(?=\n|$)")
# The same from its line break on: a literal first character, so the scan runs in C
# (the full pattern's lookbehind is tried at every position of every page).
_LONE_HINT = re.compile(r"\n[ \t]*[.,;:!?][ \t]*(?:\n|$)")


def join_lone_punctuation(text: str) -> str:
    r"""Put a line holding only ``.`` (or , ; : ! ?) back at the end of the line above.

    >>> join_lone_punctuation("on this table\n.\nYou should see")
    'on this table.\nYou should see'
    """
    if _LONE_HINT.search(text) is None:
        return text
    return _LONE_PUNCTUATION.sub(r"\1", text)


# Latin ligatures as the letters they join (ﬁ as fi), as PDFium spells them: pdftotext,
# pdfminer and fonts read by glyph name give the ligature's one character, which no
# search for "films" or "reflets" finds.
_LIGATURES = {code: unicodedata.normalize("NFKC", chr(code)) for code in range(0xFB00, 0xFB07)}
_LIGATURE_CHARACTERS = "".join(map(chr, _LIGATURES))


def plain_ligatures(text: str) -> str:
    """``text`` with its Latin ligature characters spelled out.

    >>> plain_ligatures("ﬁlms, reﬂets, eﬀort, aﬃne")
    'films, reflets, effort, affine'
    """
    return text.translate(_LIGATURES) if any(map(text.__contains__, _LIGATURE_CHARACTERS)) \
        else text


# A soft hyphen with more of its line after it
_DRAWN_SOFT_HYPHEN = re.compile("\u00ad(?![ \t]*(?:\n|$))")


def drawn_soft_hyphens(text: str) -> str:
    """Soft hyphens inside a line made hyphens.

    A page's text holds only glyphs drawn, and a soft hyphen is drawn only where a line
    breaks on it, so one inside a line is a hyphen glyph its font maps to U+00AD (as
    poppler-made PDFs map WinAnsi's 0xAD): a hyphen the page shows, which the soft
    hyphen the core leaves out of every text would take with it (``3844-8200`` read
    ``38448200``). At a line's end it stays, and the core joins the word broken there.

    >>> drawn_soft_hyphens("Fone 3844\\u00ad8200, Bundes\\u00ad\\nrepublik")
    'Fone 3844-8200, Bundes\\xad\\nrepublik'
    """
    return _DRAWN_SOFT_HYPHEN.sub("-", text) if "\u00ad" in text else text


def repair(text: str) -> str:
    """The repairs: accents onto their letters, lone punctuation onto its line, ligatures
    spelled out, soft hyphens inside a line made hyphens."""
    return drawn_soft_hyphens(plain_ligatures(join_lone_punctuation(attach_spacing_accents(text))))
