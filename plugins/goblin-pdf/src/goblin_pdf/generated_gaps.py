"""Spaces and line breaks PDFium made up inside a word or a line, taken back.

PDFium writes a space where the gap between two glyphs looks wide for their
font, and a line break where the next glyph does not follow on from the last.
Two kinds of PDF fool it. OCR text layers spread their letters to match the
scan, so the last letter of a word often comes out alone (``Nort h Buon a``).
Producers that place glyph after glyph, each at its own position, get a line
break between pieces of one word (``c`` / ``olu`` / ``m`` / ``n``). Both make
words no search finds.

Only generated characters next to a short line, or before a one-character token
on a page where one-letter tokens abound (an OCR layer's symptom; prose has a
few "a" and "I", formulas and tables more), are looked at: an ordinary page
costs two regex scans. Each is judged from the glyph boxes on either side: a
space stays unless the text is letter-spaced and the gap is no wider than the
gaps between its letters; a line break between two glyphs of one line becomes
nothing when they touch like letters of a word, else a space (a superscript, a
second word).

Some producers also draw a real space inside a ligature: the ``fi`` glyph's
advance stops short of its ink, a space glyph starts within it, and the next
letter follows the ligature with no gap (``Erfi nder``, ``Infl uenza``). PDFium
spells the ligature as letters sharing one box; a space that starts inside that
box, before a letter that touches it, is taken back too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_pdf.layout.native import IS_GENERATED, MARKED_HYPHEN, TEXT_OBJECT
from goblin_pdf.loose_boxes import Box, LooseBoxes

# A space before a one-letter token ("Nort h", "JA N"); the token before it is
# checked apart: a leading literal lets the scan run in C.
_LONE_LETTER = re.compile(r" [^\W\d_](?=\s)")
_LONE_WORD_CHAR = re.compile(r" \w\s")  # counted first: a cheaper bound on lone letters
_LONE_CHAR = re.compile(r" \S(?=\s|\Z)")  # the suspects once letters set it off: "13858 8"
# Share of the page's tokens that must be lone letters before their spaces are judged.
_LONE_SHARE = 0.15
_MIN_LONE = 4
# A line of at most three characters between two line breaks.
_SHORT_LINE = re.compile(r"\n[ \t]*\S{1,3}[ \t]*\r")
_SAME_LINE = 0.5  # vertical overlap, in the lower glyph's height, of one line
_LETTER_SPACED = 0.05  # letter gap, in glyph heights, of letter-spaced text
_TOUCHING = 0.03  # slack, in glyph heights, of a gap that is still a letter gap
_RUN_GAP = 0.8  # a gap wider than this (in glyph heights) is a column or table gap
SCRIPT = 0.8  # height ratio below which one glyph is a superscript or subscript
#: Gap, in the smaller glyph height of the two, beyond the letter spacing around it,
#: that parts two words
WORD_GAP = 0.12
# Glyphs of scripts that put no space between words, and full-width forms: a gap
# between two of them is justification, not a word gap.
UNSPACED = re.compile("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u30ff"
                       "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
# Four tokens or more of at most three glyphs, each set apart by one space: letter-spaced
# type (tracked headings, CSS letter-spacing) where PDFium made up a space between every
# two letters but kerned pairs (``T r a c k e d  h e a d i n g``, ``f j o rd``), or short
# words. Most tokens of a letter-spaced run are single glyphs.
_SPACED_RUN = re.compile(r"(?<!\S)\S{1,3}(?: \S{1,3}){3,}(?!\S)")
# Three glyphs in a row each after a space: the literal first lets the scan run in C, a
# tenth of the run pattern's time on a page without, as most pages are
_SPACED_GLYPHS = re.compile(r" \S \S \S(?!\S)")
# The same with line breaks, or a mix: letter-spaced type PDFium broke at every letter
# or two (Chrome places each glyph of CSS letter-spacing apart, and PDFium, finding the
# next glyph further on than the font says, starts a line). Its gate scans for three
# short lines in a row.
_BROKEN_RUN = re.compile(r"(?<!\S)\S{1,3}(?:(?: |\r\n)\S{1,3}){3,}(?!\S)")
_BROKEN_GLYPHS = re.compile(r"\n\S{1,3}\r\n\S{1,3}\r\n\S{1,3}\r")
_SEPARATOR = re.compile("( |\r\n)")
# Three letters in a row, each standing alone: what a letter-spaced run shows and a
# formula or a dot leader seldom does.
_SPACED_LETTERS = re.compile(r"(?<!\S)[^\W\d_] [^\W\d_] [^\W\d_](?!\S)")
# How much wider than the letter spacing (in glyph heights) a gap of a letter-spaced run
# must be to be a word gap: a narrow font's space (a fifth of the height) at least.
_CLEAR_WORD_GAP = 1.5 * WORD_GAP
# The widest letter spacing (in glyph heights) such a run is read as letters at: half an
# em or so. Single-character table cells stand further apart.
_MAX_TRACKING = 0.6
_DROP_CAPITAL = 0.5  # height ratio, to the letters after it, of at most a drop capital
# how much further in (in the next letter's heights) the first line beside a drop capital
# starts than the next line, when a word space follows the capital: a space is about
# 0.4 to 0.5 of a letter's height
WORD_INDENT = 0.2
# the widest gap (in the next letter's heights) between a drop capital and its text: a
# letter set further off is a word or a label of its own
DROP_GAP = 0.5
# A space after the letters of an f-ligature (ff fi fl, and ffi ffl), or after a
# ligature's one character (named_ligatures), before a letter. The space comes first
# and the letters before it are looked behind from it, so the scan runs in C between
# spaces.
_LIGATURE_SPACE = re.compile(r" (?:(?<=f[fil] )|(?<=[\ufb00-\ufb06] ))(?=[^\W\d_])")
_LIGATURE = "ligature"  # the suspect kind of such a space
# A line break before a space or a mark that ends a phrase: where PDFium breaks the line
# after a superscript or subscript (``m2`` / `` in total``, ``CO2`` / ``. Next``), the
# next glyph's box not meeting the raised or lowered one's. A line of text seldom
# starts so, which keeps these suspects few.
_BREAK_BEFORE_MARK = re.compile(r"\r\n(?=[ .,;:!?)\]])")
_BEFORE_MARK = "before mark"  # the suspect kind of such a line break
# A footnote's number or mark opening a line, glued to the word after it: PDFium sees
# no gap between a raised ``4`` and ``Exceptions`` and writes ``4Exceptions``. The mark
# comes after the line break; the one opening the page is matched apart.
FOOTNOTE_MARKS = "0123456789*\u2020\u2021\u00a7\u00b6"
_LEADING_MARK_AT_START = re.compile(f"[{re.escape(FOOTNOTE_MARKS)}]{{1,3}}(?=[^\\W\\d_]{{2}})")
_LEADING_MARK = re.compile("\n" + _LEADING_MARK_AT_START.pattern)
_LEADING = "leading mark"  # the suspect kind of such a mark's last character
RAISED = 0.15  # how far above the next glyph's bottom (in its height) a raised mark sits
# A space before the hyphen ending a line: LibreOffice draws the hyphen of a word it breaks
# on its own, at the margin, a little apart from the justified word (``de -`` /
# ``signed``), and PDFium, finding the gap wide, writes a space and no hyphen mark.
_SPACED_HYPHEN = re.compile(r" -\r\n")
_HYPHEN = "hyphen"  # the suspect kind of such a space
# A space after a hyphen: where PDFium runs the lines of a paragraph together with spaces
# (wkhtmltopdf's), a word broken at a line end reads ``infringe- ment``. A space made
# up between a hyphen and a glyph on the line below is that line break.
_HYPHEN_THEN_SPACE = re.compile("[-\u2010\u00ad] ")
_WRAPPED = "wrapped"  # the suspect kind of such a space
# The widest gap (in the glyph height) before a hyphen set apart so, and its share of the
# narrowest word gap of its line: a dash after a word stands a whole word gap away.
_HYPHEN_GAP = 0.3
_HYPHEN_SHARE = 0.9
_LINE_GAPS = 40  # word gaps of the line measured at most, back from its end



@dataclass(frozen=True)
class MendedText:
    """``text`` with the made-up gaps taken back; ``joined`` the PDFium character
    indices of generated characters that turned out not to separate words; ``edits``
    what was done, as ``apply_edits`` takes it."""

    text: str
    joined: frozenset[int]
    edits: Mapping[int, str] = field(default_factory=dict)


def apply_edits(text: str, edits: Mapping[int, str]) -> str:
    """``text`` with the character at each index of ``edits`` (both of a ``\r\n``)
    replaced by what it maps to."""
    parts: list[str] = []
    last = 0
    for index in sorted(edits):
        parts += [text[last:index], edits[index]]
        last = index + (2 if text[index] == "\r" else 1)
    parts.append(text[last:])
    return "".join(parts)


def mend_generated_gaps(textpage: pdfium.PdfTextPage, text: str,
                        word_gaps: Mapping[int, str] | None = None) -> MendedText:
    """Take back generated spaces and line breaks that split a word or a line.

    ``text`` is PDFium's text of ``textpage``, one character per PDFium character
    (line breaks as ``\\r\\n``, as PDFium writes them). ``word_gaps`` are the edits
    that put PDFium's word gaps right (``word_gaps.word_gap_edits``), made along.
    """
    suspects = [(m.start(), _LIGATURE) for m in _LIGATURE_SPACE.finditer(text)]
    # the other suspects are judged with text positions as character indices: only when
    # PDFium left no character out of its text
    aligned = len(text) == pdfium_c.FPDFText_CountChars(textpage)
    if aligned:
        suspects += _lone_char_spaces(text) + _short_line_breaks(text) + [
            (m.start(), _BEFORE_MARK) for m in _BREAK_BEFORE_MARK.finditer(text)] + [
            (m.end() - 1, _LEADING) for m in _leading_marks(text)] + [
            (m.start(), _HYPHEN) for m in _SPACED_HYPHEN.finditer(text)] + [
            (m.end() - 1, _WRAPPED) for m in _HYPHEN_THEN_SPACE.finditer(text)]
    spaced = aligned and _SPACED_GLYPHS.search(text) is not None
    broken = aligned and _BROKEN_GLYPHS.search(text) is not None
    if not suspects and not word_gaps and not spaced and not broken:
        return MendedText(text, frozenset())
    judge = _Judge(textpage, text, aligned)
    edits: dict[int, str] = {}
    if spaced:
        for match in _SPACED_RUN.finditer(text):
            edits.update(judge.spaced_run(match.start(), match.end()))
    if broken:
        for match in _BROKEN_RUN.finditer(text):
            if "\r" in match.group():
                edits.update(judge.broken_run(match.start(), match.end()))
    for index, kind in suspects:
        replacement = judge.replacement(index, kind)
        if replacement is not None:
            edits.setdefault(index, replacement)
            if kind == _HYPHEN:
                # marked as PDFium marks the hyphens it finds, to be mended alike
                edits[index + 1] = MARKED_HYPHEN
            elif kind == _WRAPPED and text[index - 1] in "-\u00ad":
                # the hyphen PDFium would have marked, had it seen the line end
                edits[index - 1] = MARKED_HYPHEN
    for index, replacement in (word_gaps or {}).items():
        edits.setdefault(index, replacement)
    if not edits:
        return MendedText(text, frozenset())
    joined = frozenset(judge.char_index(i) for index, new in edits.items() if not new
                       for i in range(index, index + (2 if text[index] == "\r" else 1)))
    return MendedText(apply_edits(text, edits), joined, edits)


def _leading_marks(text: str) -> list[re.Match[str]]:
    """The digits or marks that open a line right before a word."""
    first = _LEADING_MARK_AT_START.match(text)
    return ([first] if first else []) + list(_LEADING_MARK.finditer(text))


def _lone_char_spaces(text: str) -> list[tuple[int, str]]:
    """The spaces before one-character tokens, when one-letter tokens abound."""
    enough = max(_MIN_LONE, _LONE_SHARE * (text.count(" ") + text.count("\n")))
    if len(_LONE_WORD_CHAR.findall(text)) < enough or len(_LONE_LETTER.findall(text)) < enough:
        return []
    return [(m.start(), " ") for m in _LONE_CHAR.finditer(text)
            if m.start() and not text[m.start() - 1].isspace()]


def _short_line_breaks(text: str) -> list[tuple[int, str]]:
    """The line breaks (index of their ``\\r``) around every short line."""
    breaks: set[int] = set()
    for match in _SHORT_LINE.finditer(text):
        start, end = match.span()  # the short line's \n before it and \r after it
        if start >= 1 and text[start - 1] == "\r":
            breaks.add(start - 1)
        if text[end - 1:end + 1] == "\r\n":
            breaks.add(end - 1)
    # the first line has no \n before it, the last no \r after it
    first, last = text.find("\r\n"), text.rfind("\r\n")
    if first > 0 and _is_short(text[:first]):
        breaks.add(first)
    if last >= 0 and _is_short(text[last + 2:]):
        breaks.add(last)
    return [(index, "\r\n") for index in sorted(breaks)]


def follows_on_line(a: Box, b: Box) -> bool:
    """Whether glyph box ``b`` follows ``a`` on its line: level with it by half the lower
    one's height, and starting no further left."""
    low = min(a[3] - a[1], b[3] - b[1])
    return min(a[3], b[3]) - max(a[1], b[1]) >= _SAME_LINE * low and b[0] >= a[0]


def judge_gap(kind: str, a: Box, b: Box, letter_gap: Callable[[], float]) -> str | None:
    """What a generated ``kind`` (" " or "\\r\\n") between glyph boxes ``a`` and ``b``
    (x0, y0, x1, y1) becomes: "" (the glyphs belong together), " ", or None (kept).
    ``letter_gap`` gives the gap between letters of the words around, asked for last.

    Glyphs of rotated text do not follow each other left to right on one line, so
    the tests leave them alone without asking for their angles.

    >>> judge_gap("\\r\\n", (0, 0, 5, 10), (5, 0, 10, 10), lambda: 0.0)  # one word
    ''
    >>> judge_gap("\\r\\n", (0, 0, 5, 10), (0, -12, 5, -2), lambda: 0.0) is None  # next line
    True
    >>> judge_gap(" ", (0, 0, 5, 10), (7, 0, 12, 10), lambda: 2.0)  # letter-spaced: "Nort h"
    ''
    """
    low = min(a[3] - a[1], b[3] - b[1])
    high = max(a[3] - a[1], b[3] - b[1])
    gap = b[0] - a[2]
    if not follows_on_line(a, b) or gap > _RUN_GAP * high or gap < -0.25 * low:
        return None  # not the next glyph of the same line
    if low < SCRIPT * high:  # a superscript or subscript
        if kind == " ":
            return None
        # one that touches its neighbour belongs to it (``m2``, ``CO2.``, ``note3``)
        return "" if gap <= _TOUCHING * high else " "
    letter = letter_gap()
    spaced = letter >= _LETTER_SPACED * low
    touching = gap <= (letter if spaced else 0.0) + _TOUCHING * low
    if kind == " ":
        return "" if spaced and touching else None
    return "" if touching else " "


def _is_short(line: str) -> bool:
    token = line.strip(" \t")
    return 0 < len(token) <= 3 and not any(char.isspace() for char in token)


class _Judge:
    """Glyph boxes of one text page, read as the suspects need them."""

    def __init__(self, textpage: pdfium.PdfTextPage, text: str, aligned: bool = True) -> None:
        self._box = LooseBoxes(textpage)
        self.handle = self._box.handle
        self.text = text
        self.aligned = aligned
        self.raw = textpage.raw

    def char_index(self, position: int) -> int:
        """PDFium's character index of the text's ``position``."""
        if self.aligned:
            return position
        return int(pdfium_c.FPDFText_GetCharIndexFromTextIndex(self.raw, position))

    def replacement(self, index: int, kind: str) -> str | None:
        """What the generated ``kind`` at ``index`` becomes, or None to keep it."""
        if kind == _LIGATURE:
            return self._ligature_space(index)
        if kind == _BEFORE_MARK:
            return self._break_before_mark(index)
        if kind == _LEADING:
            return self._leading_mark(index)
        if kind == _HYPHEN:
            return self._hyphen_space(index)
        if kind == _WRAPPED:
            return self._wrapped_line(index)
        return self._judged(index, kind, index - 1, index + len(kind))

    def spaced_run(self, start: int, end: int) -> dict[int, str]:
        """"" for each space of the run ``text[start:end]`` (short tokens each set apart by
        a space, or by a line break ``broken_run`` found inside one line) that parts two
        letters of one word, and " " for each such line break that parts two words. The
        run must be letter-spaced type: most tokens single glyphs, three single letters in
        a row, every space made up by PDFium, its glyphs of one line. Its letter spacing
        is the lower median of the gaps at its spaces and those to the words beside it; a
        letter gap is at most ``WORD_GAP`` wider, a word gap ``_CLEAR_WORD_GAP``, and the
        run must show both, two letter gaps or more to each word gap. Letters or figures
        standing as words (``x y z``) are spaced alike throughout, cells of a table
        unevenly; formulas (``X = [0, 1)``) and dot leaders hold few letters standing
        alone."""
        parts = _SEPARATOR.split(self.text[start:end])
        tokens = parts[0::2]
        if 2 * sum(len(token) == 1 for token in tokens) <= len(tokens) \
                or not _SPACED_LETTERS.search(" ".join(tokens)):
            return {}
        spaces = []  # where each separator (a space, or a line break's \r) starts
        position = start
        for token, separator in zip(parts[0::2], parts[1::2], strict=False):
            position += len(token)
            spaces.append(position)
            position += len(separator)
        # the spaces to the words on either side on the line: a tracked word between two
        # longer ones shows its word gaps only there (``S E C TI O N OVERVIEW``), and they
        # must be word gaps
        bounds = []
        if start > 1 and self.text[start - 1] == " " and not self.text[start - 2].isspace():
            spaces.insert(0, start - 1)
            bounds.append(0)
        if end + 1 < len(self.text) and self.text[end] == " " \
                and not self.text[end + 1].isspace():
            spaces.append(end)
            bounds.append(len(spaces) - 1)
        # a space drawn beside the run (not made up) is a word gap whatever its width:
        # LibreOffice spaces the letters of a span, not the space before it
        drawn = [bound for bound in bounds if IS_GENERATED(self.handle, spaces[bound]) != 1]
        if any(IS_GENERATED(self.handle, space) != 1
               for k, space in enumerate(spaces) if k not in bounds):
            return {}
        unspaced = all(len(token) == 1 and UNSPACED.match(token) for token in tokens)
        ratios: list[float] = []
        for space in spaces:
            a, b = self._box(space - 1), self._box(space + self._width(space))
            if a is None or b is None:
                return {}
            low = min(a[3] - a[1], b[3] - b[1])
            high = max(a[3] - a[1], b[3] - b[1])
            # glyphs of unlike heights are a superscript, or boxes of the glyphs' ink
            # (a Type 3 font's, a font without metrics), whose gaps are no letter spacing;
            # but for a flat Chinese glyph (``一``) boxed by its ink beside others
            if not follows_on_line(a, b) or (low < SCRIPT * high and not unspaced):
                return {}
            ratios.append((b[0] - a[2]) / high)
        tracking = sorted(ratios)[(len(ratios) - 1) // 2]
        letters = [ratio <= tracking + WORD_GAP and k not in drawn
                   for k, ratio in enumerate(ratios)]
        if unspaced:
            # Chinese or Japanese spread out: no word gaps to show, every gap alike
            return dict.fromkeys(spaces, "") if all(letters) and not bounds \
                and tracking <= _MAX_TRACKING else {}
        words = sum(ratio >= tracking + _CLEAR_WORD_GAP or k in drawn
                    for k, ratio in enumerate(ratios))
        # a gap neither clearly a letter's nor a word's (a sentence's wider space in a
        # line of single letters) leaves the run as it is
        if not 0 < 2 * words <= letters.count(True) or words + letters.count(True) < len(
                ratios) or tracking > _MAX_TRACKING or any(letters[bound] for bound in bounds):
            return {}
        edits = {space: "" for space, letter in zip(spaces, letters, strict=True)
                 if letter and self.text[space - 1].isalpha()
                 and self.text[space + self._width(space)].isalpha()}
        # a line break between two words of one line becomes the space it stands for
        edits.update((space, " ") for space in spaces
                     if space not in edits and self.text[space] == "\r")
        return edits

    def broken_run(self, start: int, end: int) -> dict[int, str]:
        """``spaced_run`` for each stretch of ``text[start:end]`` (short tokens set apart by
        spaces or line breaks) whose glyphs stand on one line: a line break to a glyph
        that does not follow on the same line ends a stretch and stays."""
        edits: dict[int, str] = {}
        first = start
        for match in re.finditer("\r\n", self.text[start:end]):
            index = start + match.start()
            if self._on_one_line(index - 1, index + 2):
                continue
            edits.update(self._stretch(first, index))
            first = index + 2
        edits.update(self._stretch(first, end))
        return edits

    def _on_one_line(self, before: int, after: int) -> bool:
        """Whether the glyph at ``after`` follows the one at ``before`` on its line."""
        a, b = self._box(before), self._box(after)
        return a is not None and b is not None and follows_on_line(a, b)

    def _stretch(self, start: int, end: int) -> dict[int, str]:
        if _SPACED_RUN.fullmatch(self.text[start:end].replace("\r\n", " ")) is None:
            return {}
        return self.spaced_run(start, end)

    def _width(self, separator: int) -> int:
        """Characters of the separator at ``separator``: 2 for a line break's ``\r\n``."""
        return 2 if self.text[separator] == "\r" else 1

    def _leading_mark(self, index: int) -> str | None:
        """The mark at ``index`` and a space, when it is raised and smaller than the
        letter after it, as a footnote's number is (``4`` / ``Exceptions include``)."""
        a, b = self._box(index), self._box(index + 1)
        if a is None or b is None:
            return None
        low, high = a[3] - a[1], b[3] - b[1]
        if low < SCRIPT * high and a[1] > b[1] + RAISED * high and a[0] < b[0]:
            return self.text[index] + " "
        return None

    def _break_before_mark(self, index: int) -> str | None:
        """What the line break at ``index``, before a space or a mark, becomes: its
        judgement between the glyphs on either side, a space after it stepped over (the
        break then goes, and the space stays)."""
        text = self.text
        before, after = index - 1, index + 2
        if text[after] == " ":
            if after + 1 >= len(text) or text[after + 1].isspace():
                return None
            verdict = self._judged(index, "\r\n", before, after + 1)
            return None if verdict is None else ""
        return self._judged(index, "\r\n", before, after)

    def _judged(self, index: int, kind: str, before: int, after: int) -> str | None:
        """``judge_gap`` for the generated ``kind`` at ``index`` between the glyphs at
        ``before`` and ``after``; None when they are no glyphs of a line beside it."""
        text = self.text
        if (before < 0 or after >= len(text) or text[before].isspace()
                or text[after].isspace() or IS_GENERATED(self.handle, index) != 1):
            return None
        a, b = self._box(before), self._box(after)
        if a is None or b is None:
            return None
        capital = self._drop_capital(before, after, a, b)
        if capital is not None:
            return capital
        return judge_gap(kind, a, b, lambda: self._letter_gap(before, after, a[3] - a[1]))

    def _drop_capital(self, before: int, after: int, a: Box, b: Box) -> str | None:
        """What goes between a drop capital at ``before`` and the text beside it: ""
        when the capital starts the word there (``T`` / ``his is``), " " when it is a
        word of its own (``A`` / ``long time ago``); None when ``before`` is no drop
        capital. A drop capital is a capital starting a line, at least twice as tall
        as the lowercase letter after it, right beside it and level with its top.

        The lines below the first, beside the capital, start where its text would: a
        first line that starts a space further in follows a word the capital spelled
        alone."""
        text = self.text
        if not (text[before].isupper() and text[after].islower()
                and (before == 0 or text[before - 1] == "\n")):
            return None
        tall, low = a[3] - a[1], b[3] - b[1]
        gap = b[0] - a[2]
        if not (low <= _DROP_CAPITAL * tall and -_TOUCHING * tall <= gap <= DROP_GAP * low
                and a[3] - low <= b[3] <= a[3] + low):
            return None
        below = self._next_line_start(after)
        if (below is not None and a[1] < (below[1] + below[3]) / 2 < b[1]
                and a[2] - _TOUCHING * tall <= below[0] < b[0] - WORD_INDENT * low):
            return " "
        return ""

    def _next_line_start(self, index: int) -> Box | None:
        """The box of the first glyph of the line after the one holding ``index``."""
        end = self.text.find("\n", index)
        if end < 0 or end + 1 >= len(self.text) or self.text[end + 1].isspace():
            return None
        return self._box(end + 1)

    def _wrapped_line(self, index: int) -> str | None:
        """A line break for the space PDFium made up at ``index``, after a hyphen ending
        a word, when the letter after it starts the line below."""
        text = self.text
        if (index < 2 or not text[index - 2].isalpha() or not text[index + 1:index + 2].isalpha()
                or IS_GENERATED(self.handle, index) != 1):
            return None
        a, b = self._box(index - 1), self._box(index + 1)
        if a is None or b is None:
            return None
        below = b[3] <= (a[1] + a[3]) / 2 and b[0] < a[0]
        return "\r\n" if below else None

    def _hyphen_space(self, index: int) -> str | None:
        """"" when the space PDFium made up at ``index``, before the hyphen ending its
        line, parts a broken word from its hyphen: the hyphen is drawn on its own after a
        letter, on the letter's line, closer to it than a third of its height and than
        every word gap of the line, and the next line opens with a letter."""
        text = self.text
        before, hyphen = index - 1, index + 1
        if (before < 0 or not text[before].isalpha() or not text[index + 4:index + 5].isalpha()
                or IS_GENERATED(self.handle, index) != 1
                or TEXT_OBJECT(self.handle, hyphen) == TEXT_OBJECT(self.handle, before)):
            return None
        a, b = self._box(before), self._box(hyphen)
        if a is None or b is None or not follows_on_line(a, b):
            return None
        gap = b[0] - a[2]
        if gap > _HYPHEN_GAP * (a[3] - a[1]):
            return None
        start = text.rfind("\n", 0, index) + 1
        spaces = [m.start() for m in re.finditer(r"(?<=\S) (?=\S)", text[start:before])]
        for space in spaces[-_LINE_GAPS:]:
            left, right = self._box(start + space - 1), self._box(start + space + 1)
            if left is not None and right is not None and follows_on_line(left, right) \
                    and gap >= _HYPHEN_SHARE * (right[0] - left[2]):
                return None
        return ""

    def _ligature_space(self, index: int) -> str | None:
        """"" when the space at ``index`` was drawn inside the ligature before it."""
        if index < 1 or index + 1 >= len(self.text):
            return None
        one_character = "\ufb00" <= self.text[index - 1] <= "\ufb06"
        if index < 2 and not one_character:
            return None
        first, last, space, after = (self.char_index(i) for i in range(index - 2, index + 2))
        if not last == space - 1 == after - 2 or not (one_character or first + 1 == last):
            return None  # PDFium left a character out between them
        ligature = self._box(last)
        # a ligature PDFium spells as letters gives each of them the glyph's one box
        if ligature is None or not (one_character or self._box(first) == ligature):
            return None
        space_box, next_box = self._box(space), self._box(after)
        if space_box is None or next_box is None or not ligature[0] < space_box[0] < ligature[2]:
            return None
        height = ligature[3] - ligature[1]
        same_line = abs((next_box[1] + next_box[3]) - (ligature[1] + ligature[3])) < height
        touching = abs(next_box[0] - ligature[2]) <= _TOUCHING * height
        return "" if same_line and touching else None

    def _letter_gap(self, before: int, after: int, height: float) -> float:
        """The wider of the gaps between letters or digits of the words on either side
        (0 when unknown); punctuation is left out, as type often spaces it apart."""
        gaps = []
        for left, right in ((before - 1, before), (after, after + 1)):
            if left < 0 or right >= len(self.text) or not self.text[left].isalnum() \
                    or not self.text[right].isalnum():
                continue
            first, second = self._box(left), self._box(right)
            if first is not None and second is not None \
                    and abs((first[1] + first[3]) - (second[1] + second[3])) < height:
                gaps.append(second[0] - first[2])
        return max(gaps, default=0.0)

