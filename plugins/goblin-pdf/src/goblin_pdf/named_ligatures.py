"""Ligatures a font's encoding names the way PDFium does not read.

A simple font without a ToUnicode map takes its characters from the glyph names of
its encoding's /Differences. The Adobe Glyph List names a ligature by the glyphs it
joins, with underscores between them (``f_i``, ``f_f_l``), as InDesign and other
layout programs write it. PDFium reads no such name and gives the character code
itself instead: the ``fi`` drawn at code 33 comes out as ``!`` (``pro! ssionais``,
the space after it drawn inside the ligature), which no search for the word finds.
pdftotext reads the name.

Such a character is ASCII punctuation before a letter, and PDFium flags its
mapping as failed; only when a page shows one is the document read with qpdf
(pikepdf) for the fonts' encodings (once, and each font once), and the font that
drew the character (by its base name) says which ligature its code names. The
character becomes the ligature's one Unicode character (U+FB00 to U+FB06), which
the page's repairs then spell out: one character for one, so every character index
of the page still holds.

A font whose ToUnicode map sends a ligature its /Differences names to a character that
is no letter is read the same way, by the character PDFium gives. TeX fonts rewritten by
macOS's PDF writer (subset tags ``AAAAAA+``) map ``ff`` to U+21B5 and ``ffi`` to
U+0000, which PDFium shows as U+FFFE: ``e↵orts``, ``di\ufffeculties``. Such a character
after a letter opens the document with qpdf as a mark does; a line-end hyphen
PDFium marked (U+FFFE too, code 2) does not.
"""

from __future__ import annotations

import ctypes
import io
import logging
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice, repeat
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from fontTools.agl import toUnicode

from goblin_core.source import Source
from goblin_pdf.layout.native import BULK_CHAR_INDEX, BULK_MAP_ERROR, CHAR_INDEX

log = logging.getLogger(__name__)

# ASCII punctuation with a letter after it (past a space, perhaps), and no digit or other
# mark just before it: where a ligature read as its code shows (``pro! ssionais``,
# ``! nanceiros``). The mark comes first, so the scan tries the rest only at marks.
_IN_WORD_MARK = re.compile(r"[!-/:-@\[-`{-~](?<![\d_!-/:-@\[-`{-~].)(?= ?[^\W\d_])")
#: The ligatures Unicode has one character for, by the letters they join ("fi": "ﬁ").
LIGATURE_CHARACTERS = {unicodedata.normalize("NFKC", chr(code)): chr(code)
                       for code in range(0xFB00, 0xFB07)}
_SIMPLE_FONTS = frozenset({"/Type1", "/MMType1", "/TrueType", "/Type3"})
# Fonts and forms looked at on one page at most: the encodings of a page's own fonts,
# and of the forms it draws, are what its text comes from.
_MAX_FONTS = 256
_MAX_FORM_DEPTH = 4
# Page tree levels climbed for resources a page inherits.
_MAX_TREE_DEPTH = 64
_SUBSET_TAG = re.compile(r"^[A-Z]{6}\+")


class NamedLigatures:
    """The ligature characters PDFium read as their codes, page by page, for one document.

    ``source`` and ``password`` open the document with qpdf the first time a page
    shows such a character; a document qpdf cannot read is left as PDFium reads it.
    """

    def __init__(self, source: Source, password: str | None) -> None:
        self.source = source
        self.password = password
        self._pdf: Any = None
        self._unreadable = False
        # the pages of a document share their fonts: each font object is read once
        self._by_font: dict[tuple[int, int], dict[tuple[str, int], str]] = {}

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
        self._pdf = None

    def corrections(self, textpage: pdfium.PdfTextPage, text: str,
                    page_index: int) -> dict[int, str]:
        """PDFium character index -> the ligature character drawn there, for the
        characters of page ``page_index`` that PDFium gave as their codes; ``text`` is
        PDFium's text of ``textpage``."""
        suspects = [*_failed_marks(textpage, text), *_misread_in_words(textpage, text)]
        if not suspects:
            return {}
        by_font = self._page_ligatures(page_index)
        found: dict[int, str] = {}
        for index, code in suspects:
            ligature = by_font.get((font_base_name(textpage, index), code))
            if ligature is not None:
                found[index] = ligature
        return found

    def _page_ligatures(self, page_index: int) -> dict[tuple[str, int], str]:
        """(font base name, code) -> ligature character, for the page's simple fonts."""
        pdf = self._document()
        if pdf is None:
            return {}
        try:
            fonts = _fonts(_page_resources(pdf.pages[page_index].obj), 0, [0])
            # two fonts of one base name may read one character as two ligatures
            return _unambiguous(pair for font in fonts
                                for pair in self._font_ligatures(font).items())
        except Exception as exc:  # an extra: PDFium's reading stands
            log.debug("%s: fonts of page %d unreadable by qpdf: %s",
                      self.source.display_name, page_index + 1, exc)
            return {}

    def _font_ligatures(self, font: Any) -> dict[tuple[str, int], str]:
        """``_font_ligatures`` of ``font``, kept for the document when it is an indirect
        object (a direct one has no number to know it again by)."""
        key = getattr(font, "objgen", (0, 0))
        if key == (0, 0):
            return _font_ligatures(font)
        found = self._by_font.get(key)
        if found is None:
            found = self._by_font[key] = _font_ligatures(font)
        return found

    def _document(self) -> Any:
        """The document as qpdf (pikepdf) reads it, opened on first use; None when it
        cannot be. qpdf indexes the pages of a long document far faster than pypdf."""
        if self._pdf is None and not self._unreadable:
            import pikepdf  # only documents that show such a character need it

            target: Any = (str(self.source.path()) if self.source.is_file
                           else io.BytesIO(self.source.bytes()))
            try:
                self._pdf = pikepdf.open(target, password=self.password or "")
            except Exception as exc:
                log.debug("%s: unreadable by qpdf: %s", self.source.display_name, exc)
                self.close()
                self._unreadable = True
        return self._pdf


def _failed_marks(textpage: pdfium.PdfTextPage, text: str) -> Iterator[tuple[int, int]]:
    """(character index, code) of the in-word marks whose mapping PDFium flags as failed.

    A page has a mark before a letter at every comma and full stop, so the native calls
    are the bulk ones (``untyped``) driven by ``map``, with no Python loop body around each.
    """
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p)
    positions = [match.start() for match in _IN_WORD_MARK.finditer(text)]
    if len(text) != pdfium_c.FPDFText_CountChars(textpage):
        positions = list(map(BULK_CHAR_INDEX, repeat(handle, len(positions)), positions))
    for index, failed in zip(positions, map(BULK_MAP_ERROR, repeat(handle, len(positions)),
                                            positions), strict=True):
        if failed == 1 and index >= 0:
            yield index, pdfium_c.FPDFText_GetUnicode(textpage, index)


# A symbol or control character after a letter, where a ToUnicode map sending a
# ligature to a character that is no letter shows (``e↵orts``, ``o↵-the-shelf``). ASCII
# punctuation (the marks above), Latin-1's signs and General Punctuation follow words.
# The character comes first and the letter is looked behind for, so the scan runs in C.
_IN_WORD_SYMBOL = re.compile(r"[^\w\s!-/:-@\[-`{-~\u00a0-\u00bf\u2010-\u205f](?<=[^\W\d_].)")
# Other symbols and control, unassigned or private characters: math, currency and
# modifier signs follow letters in formulas and prices.
_MISREAD_CATEGORY = re.compile("So|C")
# The code PDFium gives a line-end hyphen it marked, which its text shows as U+FFFE.
_HYPHEN_MARK = 2


def _misread_in_words(textpage: pdfium.PdfTextPage, text: str) -> Iterator[tuple[int, int]]:
    """(character index, code PDFium read) of the symbols and control characters
    after a letter, PDFium's hyphen marks left out."""
    positions = [match.start() for match in _IN_WORD_SYMBOL.finditer(text)
                 if _MISREAD_CATEGORY.match(unicodedata.category(match.group()))]
    if positions and len(text) != pdfium_c.FPDFText_CountChars(textpage):
        handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
        positions = list(map(CHAR_INDEX, repeat(handle, len(positions)), positions))
    for index in positions:
        code = pdfium_c.FPDFText_GetUnicode(textpage, index) if index >= 0 else _HYPHEN_MARK
        if code != _HYPHEN_MARK:
            yield index, code


def font_base_name(textpage: pdfium.PdfTextPage, index: int) -> str:
    """The base name of the font that drew character ``index``, its subset tag left off."""
    text_object = pdfium_c.FPDFText_GetTextObject(textpage, index)
    font = pdfium_c.FPDFTextObj_GetFont(text_object) if text_object else None
    if not font:
        return ""
    size = pdfium_c.FPDFFont_GetBaseFontName(font, None, 0)
    if size <= 1:
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFFont_GetBaseFontName(font, buffer, size)
    return _SUBSET_TAG.sub("", buffer.value.decode("latin-1"))


def _page_resources(page: Any) -> Any:
    """The resources of the page dictionary ``page``: its own, or the nearest ones of the
    page tree nodes above it, which it inherits."""
    node, resources = page, page.get("/Resources")
    for _ in range(_MAX_TREE_DEPTH):
        if resources is not None:
            break
        node = node.get("/Parent")
        if node is None:
            break
        resources = node.get("/Resources")
    return resources


def _fonts(resources: Any, depth: int, seen: list[int]) -> Iterator[Any]:
    """The font dictionaries of ``resources`` and of the forms they hold, a bounded few."""
    if resources is None or depth > _MAX_FORM_DEPTH:
        return
    fonts = resources.get("/Font")
    for font in (fonts.values() if fonts is not None else ()):
        seen[0] += 1
        if seen[0] > _MAX_FONTS:
            return
        yield font
    forms = resources.get("/XObject")
    for form in (forms.values() if forms is not None else ()):
        if form.get("/Subtype") == "/Form" and seen[0] <= _MAX_FONTS:
            yield from _fonts(form.get("/Resources"), depth + 1, seen)


def _font_ligatures(font: Any) -> dict[tuple[str, int], str]:
    """(base name, code PDFium reads) -> ligature character for the codes ``font``'s
    /Differences names with a ligature's name, where PDFium misreads them: a name of
    joined glyphs (``f_i``) without a ToUnicode entry, which PDFium reads as the code
    itself, or any ligature name the ToUnicode map sends to one character that is no
    letter, which PDFium reads as that character. A character two codes are read as
    is left out: it cannot say which ligature was drawn."""
    import pikepdf

    if str(font.get("/Subtype")) not in _SIMPLE_FONTS:
        return {}
    encoding = font.get("/Encoding")
    differences = (encoding.get("/Differences")
                   if isinstance(encoding, pikepdf.Dictionary | pikepdf.Stream) else None)
    if not isinstance(differences, pikepdf.Array):
        return {}
    name = _SUBSET_TAG.sub("", _text(font.get("/BaseFont", "")).lstrip("/"))
    mapped: dict[int, str] | None = None
    found: list[tuple[tuple[str, int], str]] = []
    code = 0
    for item in islice(differences, 512):
        # pikepdf gives numbers as Python's own; a boolean is no code
        if isinstance(item, int) and not isinstance(item, bool):
            code = item
            continue
        glyph = (_text(item).lstrip("/")
                 if isinstance(item, pikepdf.Name | pikepdf.String) else "")
        ligature = _ligature(glyph) if glyph else None
        if ligature is not None and 0 <= code < 256:
            if mapped is None:
                mapped = _to_unicode(font)
            read = mapped.get(code)
            if read is None and "_" in glyph:
                read = chr(code)
            if read is not None and len(read) == 1 and not read.isalpha():
                found.append(((name, ord(read)), ligature))
        code += 1
    return _unambiguous(found)


def _unambiguous(pairs: Iterable[tuple[tuple[str, int], str]]) -> dict[tuple[str, int], str]:
    """``pairs`` as a mapping, without the keys given two different ligatures: nothing
    says which of them was drawn."""
    found: dict[tuple[str, int], str] = {}
    for key, ligature in pairs:
        found[key] = ligature if found.get(key, ligature) == ligature else ""
    return {key: ligature for key, ligature in found.items() if ligature}


def _ligature(glyph: str) -> str | None:
    """The ligature character the glyph name ``glyph`` stands for: ``ffi`` is U+FB03 in
    the Adobe Glyph List, ``f_f_i`` the letters it joins."""
    read = toUnicode(glyph)
    return read if read in _LIGATURES else LIGATURE_CHARACTERS.get(read)


_LIGATURES = frozenset(LIGATURE_CHARACTERS.values())


# A ToUnicode map of a simple font is a few hundred entries; a larger stream is not read,
# and entries past a simple font's 256 codes are counted up to a bound, as one line of a
# hostile map can span millions of codes, each of which the parser would add.
_MAX_TO_UNICODE = 1 << 18
_MAX_FOREIGN_ENTRIES = 4096


class _MapOverflow(Exception):
    """A ToUnicode map with more entries past code 255 than a simple font's map has."""


def _to_unicode(font: Any) -> dict[int, str]:
    """Code -> text of ``font``'s ToUnicode map (codes 0 to 255), read by pdfminer.six's
    CMap parser; empty when it has none or it cannot be read, what was read when it spans
    far more codes."""
    import pikepdf
    from pdfminer.cmapdb import CMapParser, FileUnicodeMap

    class SimpleFontMap(FileUnicodeMap):
        foreign = 0

        def add_cid2unichr(self, cid: int, code: Any) -> None:
            if 0 <= cid < 256:
                super().add_cid2unichr(cid, code)
                return
            self.foreign += 1
            if self.foreign > _MAX_FOREIGN_ENTRIES:
                raise _MapOverflow

    stream = font.get("/ToUnicode")
    if not isinstance(stream, pikepdf.Stream):
        return {}
    cmap = SimpleFontMap()
    try:
        data = stream.read_bytes()
        if len(data) > _MAX_TO_UNICODE:
            return {}
        CMapParser(cmap, io.BytesIO(data)).run()
    except _MapOverflow:
        log.debug("ToUnicode map spans far more codes than a simple font has; read no further")
    except Exception as exc:  # an extra: PDFium's reading stands
        log.debug("ToUnicode map unreadable: %s", exc)
        return {}
    return dict(cmap.cid2unichr)


def _text(value: Any) -> str:
    """A name or string as text; a name whose bytes are not UTF-8 read as Latin-1, one
    character a byte, so the underscores between its glyphs stay where they are."""
    import pikepdf

    try:
        return str(value)
    except UnicodeDecodeError:
        if not isinstance(value, pikepdf.Name):
            raise
        raw = _NAME_ESCAPE.sub(lambda m: bytes.fromhex(m[1].decode("ascii")), value.unparse())
        return raw.decode("latin-1")


_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


def apply_corrections(text: str, textpage: pdfium.PdfTextPage,
                      corrected: Mapping[int, str]) -> str:
    """``text`` (PDFium's of ``textpage``) with the characters at ``corrected``'s
    PDFium indices replaced, one character for one."""
    if not corrected:
        return text
    aligned = len(text) == pdfium_c.FPDFText_CountChars(textpage)
    chars = list(text)
    for index, char in corrected.items():
        position = index if aligned else \
            pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, index)
        if 0 <= position < len(chars):
            chars[position] = char
    return "".join(chars)
