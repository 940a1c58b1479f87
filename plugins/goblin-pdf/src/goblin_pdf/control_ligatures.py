"""Ligatures drawn at codes PDFium reads as control characters, and the other
characters of TeX's font layouts.

TeX's bitmap fonts, as dvips and pdfTeX embed Metafont's output, are Type 3 fonts that
name their glyphs by number (``/a12``) and carry no ToUnicode map, so PDFium reads each
glyph as its code. TeX's font layouts put letters and digits at their ASCII codes, so
most text comes out right; but they put the ligatures at control codes (ff, fi, fl, ffi
and ffl at 11 to 15 in OT1, at 27 to 31 in T1), and those come out as ``modi\\x0ced``,
``o\\x0ber`` and ``\\row`` (a carriage return, which the page's text then breaks the line
at). Every extractor reads them so; the words are lost to any search.

No name says which ligature a code draws; the page's words do. The ligature that makes
the words holding a code known words of the word lists is that code's, when it makes at
least half of them words and no other ligature makes as many. The code becomes the
ligature's one Unicode character (U+FB00 to U+FB04), which the page's repairs spell
out: one character for one, so every character index of the page still holds.

Ligatures found where one of TeX's layouts (OT1, T1) puts them make the document that
layout, and the other characters it puts where PDFium reads something else are read as
it has them: accents, quotes, dashes and letters at control codes, OT1's quotes and
dashes at ASCII's codes (outside the typewriter face, which keeps ASCII there), T1's
letters above code 127 (in fonts without a name, which PDFium reads as Latin-1).
"""

from __future__ import annotations

import ctypes
import re
from collections import defaultdict
from itertools import islice, repeat

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_pdf.layout.native import CHAR_INDEX
from goblin_pdf.named_ligatures import font_base_name
from goblin_pdf.validators.words import known_in, languages_of

# Control codes a glyph may be read as: not PDFium's line breaks (a CR it writes is
# followed by LF, see ``_glyph_controls``), tabs or code 0 (what a hidden glyph becomes);
# 127 too (OT1's diaeresis: ``na\x7f\x10ve`` is one word, not ``\x10ve``).
_CONTROL = "\x01-\x08\x0b-\x1f\x7f"
# The characters of a word of ASCII letters holding such codes, where a code must
# touch a letter.
_WORD_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             + "".join(map(chr, [*range(1, 9), *range(11, 32), 127])))
_TOUCHING = re.compile(rf"[A-Za-z][{_CONTROL}]|[{_CONTROL}][A-Za-z]")
# The codes of a word.
_ANY_CONTROL = re.compile(rf"[{_CONTROL}]")
# The codes in PDFium's text other than CR, which is a glyph's only where no LF follows
# it (a CR before an LF is a line break of its own, see ``_has_glyph_control``).
_GLYPH_CODES = "".join(map(chr, [*range(1, 9), 11, 12, *range(14, 32), 127]))
_LIGATURES = {"ff": "\ufb00", "fi": "\ufb01", "fl": "\ufb02", "ffi": "\ufb03", "ffl": "\ufb04"}
# Letters a word needs besides its codes to be judged: ``o`` and a code is ``off`` or
# ``of`` and a math sign alike; ``\row`` is ``flow``.
_MIN_LETTERS = 2
# The lists that judge a page are those of the languages it is written in, among the two
# the validators load for any page, or else among the others (read only for a page
# written in neither: a math sign between letters on an English page loads no list).
# The share of a page's words a list must know for the page to be in its language: less
# than for prose elsewhere, as the words a ligature is missing from are not words yet
# (and codes 28 to 31, T1's fi, fl, ffi and ffl, are whitespace to the tokenizer).
_WRITTEN_SHARE = 0.5


class ControlLigatures:
    """The ligature characters PDFium read as control characters, page by page, for one
    document: a code a page's words decide is that ligature on the later pages whose
    own words do not decide it (``e\\x1bec-`` broken at a line end, alone on its page)."""

    def __init__(self) -> None:
        self._decided: dict[int, str] = {}

    def corrections(self, textpage: pdfium.PdfTextPage, text: str) -> dict[int, str]:
        """PDFium character index -> the character drawn there, for the control
        characters inside words of ``text`` (PDFium's text of ``textpage``) that are
        ligatures, and, in a document found in one of TeX's layouts, for the other
        characters that layout puts where PDFium reads something else.

        >>> words = ("We looked at the modi\\x0ced file and the \\x0cnal o\\x0bers, and at the "
        ...          "\\row of water over the rocks of the river near the old town bridge.")
        >>> sorted(_decide(_words_by_code(_words(_glyph_controls(words))), words).items())
        [(11, 'ﬀ'), (12, 'ﬁ'), (13, 'ﬂ')]
        """
        layout = _layout_of(self._decided)
        if not (_has_glyph_control(text)
                or (layout is _OT1_OTHERS and _OT1_ASCII.search(text))
                or (layout is _T1_OTHERS and _T1_UPPER.search(text))):
            return {}
        scanned = _glyph_controls(text)
        words = _words(scanned)
        decided = _decide(_words_by_code(words), text)
        self._decided.update(decided)
        chosen = {**self._decided, **decided}
        found = {start + i: chosen[ord(c)] for start, word in words
                 for i, c in enumerate(word) if ord(c) in chosen}
        layout = _layout_of(self._decided)
        found.update(_layout_characters(scanned, layout))
        if layout is _OT1_OTHERS:
            found.update(_ot1_ascii(scanned))
        elif layout is _T1_OTHERS:
            found.update((m.start(), _T1_UPPER_HALF[m.group()]) for m in _T1_UPPER.finditer(text))
        if not found:
            return {}
        positions = list(found)
        handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
        if len(text) != pdfium_c.FPDFText_CountChars(textpage):
            indices = list(map(CHAR_INDEX, repeat(handle, len(positions)), positions))
        else:
            indices = positions
        return {index: found[position]
                for index, position in zip(indices, positions, strict=True)
                if index >= 0 and _drawn_so(textpage, handle, index, text[position])}


def _drawn_so(textpage: pdfium.PdfTextPage, handle: int, index: int, read: str) -> bool:
    """Whether the character PDFium read as ``read`` at ``index`` is drawn in the layout
    found: an OT1 quote or dash at an ASCII code outside the typewriter face, a T1
    letter above code 127 in a font without a name, as TeX's bitmap fonts are (a font
    with one has its own encoding, which PDFium reads)."""
    if read in _OT1_ASCII_CHARACTERS:
        return not _typewriter(textpage, handle, index)
    if read in _T1_UPPER_HALF:
        return not font_base_name(textpage, index)
    return True


# TeX's two text font layouts: where each puts the ligatures, and the other characters
# it puts at control codes (OT1: capital Greek, dotless i and j, accents, ß æ œ ø Æ Œ Ø
# and the diaeresis at 127; T1: accents, quotes, guillemets, dashes, dotless i and j).
_OT1_OTHERS = dict(zip([*range(1, 9), *range(16, 32), 127],
                       "ΔΘΛΞΠΣΥΦ\u0131\u0237`\u00b4\u02c7\u02d8\u00af\u02da\u00b8ßæœøÆŒØ\u00a8",
                       strict=True))
_T1_OTHERS = dict(zip([*range(1, 9), *range(11, 23), 25, 26],
                      "\u00b4\u02c6\u02dc\u00a8\u02dd\u02da\u02c7\u02d8\u00b8\u02db"
                      "‚‹›“”„«»–—\u0131\u0237", strict=True))
# T1's upper half where it is not Latin-1 (which PDFium reads a code of a font without a
# name as): the letters of Latin Extended-A at 128 to 191, Œ, œ and ß.
_T1_UPPER_HALF = dict(zip(map(chr, [*range(128, 192), 215, 247, 255]),
                          "ĂĄĆČĎĚĘĞĹĽŁŃŇŊŐŔŘŚŠŞŤŢŰŮŸŹŽŻĲİđ§"
                          "ăąćčďěęğĺľłńňŋőŕřśšşťţűůÿźžżĳ¡¿£Œœß", strict=True))
_T1_UPPER = re.compile("[" + "".join(_T1_UPPER_HALF) + "]")
_LAYOUTS = (
    ({11: "\ufb00", 12: "\ufb01", 13: "\ufb02", 14: "\ufb03", 15: "\ufb04"}, _OT1_OTHERS),
    ({27: "\ufb00", 28: "\ufb01", 29: "\ufb02", 30: "\ufb03", 31: "\ufb04"}, _T1_OTHERS),
)
# (Codes 9 and 10, OT1's Ψ and Ω and T1's macron and dot, are PDFium's tab and line
# break too, and are left as read.)


def _layout_of(decided: dict[int, str]) -> dict[int, str]:
    """The other control characters of the one TeX layout that puts every ligature
    decided where it was found, or none."""
    fitting = [others for ligatures, others in _LAYOUTS
               if decided and all(ligatures.get(code) == char for code, char in decided.items())]
    return fitting[0] if len(fitting) == 1 else {}


# OT1 puts its quotes, dashes, Spanish marks and the double acute at the codes of
# ASCII's backslash, double quote, braces, bar and angle brackets, which its text never
# uses otherwise; each is taken where it stands as the character it stands for does.
_OT1_ASCII = re.compile(r'(?P<open>\\(?=\w))|(?P<close>(?<=[\w.,;:!?\'])")'
                        r"|(?P<dash>(?<=\w)[{|](?=\w)|(?<= )[{|](?= ))"
                        r"|(?P<mark>(?<!\w)[<>](?=[^\W\d_]))|(?P<accent>(?<=[^\W\d_])\}(?=[^\W\d_]))")
_OT1_ASCII_CHARACTERS = {"\\": "\u201c", '"': "\u201d", "{": "\u2013", "|": "\u2014",
                         "<": "\u00a1", ">": "\u00bf", "}": "\u02dd"}


def _ot1_ascii(text: str) -> dict[int, str]:
    """Position -> character, for OT1's characters at ASCII codes in ``text``; none on
    a page of more than ``_MOST_ASCII`` (each is told from the typewriter face by a
    look at the glyphs around it, and prose has a few dozen)."""
    found = dict(islice(((match.start(), _OT1_ASCII_CHARACTERS[match.group()])
                         for match in _OT1_ASCII.finditer(text)), _MOST_ASCII + 1))
    return found if len(found) <= _MOST_ASCII else {}


_MOST_ASCII = 2000


# How far apart the advances of a typewriter face's glyphs may be (as a share), and the
# characters of a word looked at on either side of a character to tell.
_EVEN_ADVANCE = 0.03
_WORD_REACH = 16
# The advances a character's own word must show to tell alone, and with the words
# beside it: a few glyphs of a proportional face may happen to advance alike (``or
# “a”``), and the words beside may be set in another face (``and a{b}``).
_OWN_ADVANCES = 2
_WORDS_ADVANCES = 3


def _typewriter(textpage: pdfium.PdfTextPage, handle: int, index: int) -> bool:
    """Whether the glyphs around PDFium character ``index`` advance evenly: a typewriter
    face, whose layout keeps ASCII's characters (OT1's typewriter fonts draw ``\\``,
    ``"``, ``{`` and ``|`` as themselves: ``print("x")``, ``ls | grep``). The word the
    character is part of tells; a short one (``a{b}``), or the character alone, is told
    with the words beside it."""
    count = pdfium_c.FPDFText_CountChars(textpage)
    first, last = _word(textpage, index, count)
    advances = _word_advances(textpage, handle, first, last)
    if len(advances) < _OWN_ADVANCES:
        for space, beyond in ((first - 1, first - 2), (last + 1, last + 2)):
            if 0 <= beyond < count and pdfium_c.FPDFText_GetUnicode(textpage, space) == 0x20:
                advances += _word_advances(textpage, handle, *_word(textpage, beyond, count))
        if len(advances) < _WORDS_ADVANCES:
            return False
    return max(advances) <= (1 + _EVEN_ADVANCE) * min(advances)


def _word(textpage: pdfium.PdfTextPage, index: int, count: int) -> tuple[int, int]:
    """The first and last PDFium indices of the run of non-space characters holding
    ``index`` (``_WORD_REACH`` at most on either side)."""
    def visible(at: int) -> bool:
        return 0 <= at < count and not chr(pdfium_c.FPDFText_GetUnicode(textpage, at)).isspace()

    first = last = index
    while index - first < _WORD_REACH and visible(first - 1):
        first -= 1
    while last - index < _WORD_REACH and visible(last + 1):
        last += 1
    return first, last


def _word_advances(textpage: pdfium.PdfTextPage, handle: int, first: int,
                   last: int) -> list[float]:
    """The advances of the glyphs of characters ``first`` to ``last`` (how far the next
    one on its line starts from each), those of figures and of the characters judged
    (``\\`` and the like, whose widths some faces share with letters) left out."""
    found = []
    previous = None
    for at in range(first, last + 1):
        origin = _origin(handle, at)
        char = chr(pdfium_c.FPDFText_GetUnicode(textpage, at))
        if origin is not None and previous is not None and abs(previous[1][1] - origin[1]) < 0.5:
            measured = previous[0]
            if not (measured.isdigit() or measured in _OT1_ASCII_CHARACTERS):
                found.append(abs(origin[0] - previous[1][0]))
        previous = (char, origin) if origin is not None else None
    return [advance for advance in found if advance > 0]


def _origin(handle: int, index: int) -> tuple[float, float] | None:
    x, y = ctypes.c_double(), ctypes.c_double()
    return (x.value, y.value) if _ORIGIN(handle, index, ctypes.byref(x), ctypes.byref(y)) else None


_ORIGIN = ctypes.cast(pdfium_c.FPDFText_GetCharOrigin, ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p))


def _layout_characters(text: str, others: dict[int, str]) -> dict[int, str]:
    """Position -> character, for the codes of ``others`` in ``text`` beside a letter or
    a digit (a quote, an accent, a dash between figures)."""
    if not others:
        return {}
    found = {}
    for match in _ANY_CONTROL.finditer(text):
        at = match.start()
        char = others.get(ord(match.group()))
        if char is None:
            continue
        if (at and text[at - 1].isalnum()) or (at + 1 < len(text) and text[at + 1].isalnum()):
            found[at] = char
    return found


def _has_glyph_control(text: str) -> bool:
    """Whether PDFium's ``text`` holds a code a glyph was read as. A pattern for it with CR
    as an alternative is tried at every position of every page; a substring test per code
    clears a page sooner still than a scan for their class, and a CR with no LF after it
    shows in the counts: every CR LF holds one CR, so there are more CRs than CR LFs
    exactly when one CR stands alone."""
    return any(map(text.__contains__, _GLYPH_CODES)) or text.count("\r") != text.count("\r\n")


def _glyph_controls(text: str) -> str:
    """``text`` with PDFium's line breaks (CR LF) as two LFs: a CR left is a glyph's."""
    return text.replace("\r\n", "\n\n")


def _words(text: str) -> list[tuple[int, str]]:
    """(start, word) of the words of ASCII letters and control codes in ``text`` holding
    a code next to a letter, or ending in a code before a line-end hyphen. The codes
    are found by a scan in C, and each word is grown from its code: a page has few, and
    a pattern opening with a letter would be tried at every position of it."""
    found = []
    end = 0
    for match in _ANY_CONTROL.finditer(text):
        if match.start() < end:  # a code of the word found last
            continue
        start, end = match.start(), match.end()
        while start and text[start - 1] in _WORD_CHARACTERS:
            start -= 1
        while end < len(text) and text[end] in _WORD_CHARACTERS:
            end += 1
        word = text[start:end]
        # a ligature broken off at a line end (``\x0c-`` and ``nal`` on the next line)
        if _TOUCHING.search(word) or text.startswith(("-\n", "\ufffe"), end):
            found.append((start, word))
    return found


def _words_by_code(words: list[tuple[int, str]]) -> dict[int, list[str]]:
    """The words holding one control code, by that code, each with enough letters to
    judge; a word holding two codes judges neither."""
    found: dict[int, list[str]] = defaultdict(list)
    for _, word in words:
        codes = set(_ANY_CONTROL.findall(word))
        if len(codes) == 1 and sum(c.isalpha() for c in word) >= _MIN_LETTERS:
            found[ord(codes.pop())].append(word)
    return found


def _decide(by_code: dict[int, list[str]], text: str) -> dict[int, str]:
    """Code -> ligature character, for the codes one ligature makes words of in
    ``text``, the page's, judged by the list of the language the page is written in
    (``oficial`` is Portuguese, ``official`` English). A page written in no language of
    the lists (garbage, a rewritten font's codes) is not judged."""
    if not by_code:
        return {}
    written = languages_of(text, _WRITTEN_SHARE)
    if not written:
        return {}
    chosen = {}
    for code, words in by_code.items():
        ligature = _best(code, words, written)
        if ligature is not None:
            chosen[code] = _LIGATURES[ligature]
    return chosen


def _best(code: int, words: list[str], languages: tuple[str, ...]) -> str | None:
    """The ligature that makes the most of ``words`` known words, when it makes at least
    half and none other as many; a word in a case of its own (``flOw``) is none."""
    control = chr(code)
    hits = sorted(((sum(_cased(read) and known_in(read, languages)
                        for read in (word.replace(control, letters) for word in words)),
                    letters) for letters in _LIGATURES), reverse=True)
    (best, letters), (second, _) = hits[0], hits[1]
    return letters if best > second and 2 * best >= len(words) else None


def _cased(word: str) -> bool:
    """Whether ``word`` is written in lower case, in capitals, or capitalised."""
    return word.islower() or word.isupper() or word.istitle()
