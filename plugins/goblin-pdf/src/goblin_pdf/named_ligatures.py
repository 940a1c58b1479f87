"""Ligatures a font's encoding names the way PDFium does not read.

A simple font without a ToUnicode map takes its characters from the glyph names of
its encoding's /Differences. The Adobe Glyph List names a ligature by the glyphs it
joins, with underscores between them (``f_i``, ``f_f_l``), as InDesign and other
layout programs write it. PDFium reads no such name and gives the character code
itself instead: the ``fi`` drawn at code 33 comes out as ``!`` (``pro! ssionais``,
the space after it drawn inside the ligature), which no search for the word finds.
pdftotext reads the name.

Such a character is ASCII punctuation before a letter, and PDFium flags its
mapping as failed; only when a page shows one is the document read with pypdf for
the fonts' encodings (once), and the font that drew the character (by its base
name) says which ligature its code names. The character becomes the ligature's
one Unicode character (U+FB00 to U+FB06), which the page's repairs then spell out:
one character for one, so every character index of the page still holds.
"""

from __future__ import annotations

import ctypes
import logging
import re
import unicodedata
from collections.abc import Iterator, Mapping
from itertools import repeat
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from fontTools.agl import toUnicode

from goblin_core.source import Source
from goblin_pdf.layout.native import CHAR_INDEX, MAP_ERROR
from goblin_pdf.pypdf_warnings import pypdf_warnings_held

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
_SUBSET_TAG = re.compile(r"^[A-Z]{6}\+")


class NamedLigatures:
    """The ligature characters PDFium read as their codes, page by page, for one document.

    ``source`` and ``password`` open the document with pypdf the first time a page
    shows such a character; a document that cannot be read that way is left as
    PDFium reads it.
    """

    def __init__(self, source: Source, password: str | None) -> None:
        self.source = source
        self.password = password
        self._reader: Any = None
        self._stream: Any = None
        self._unreadable = False

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
        self._reader = self._stream = None

    def corrections(self, textpage: pdfium.PdfTextPage, text: str,
                    page_index: int) -> dict[int, str]:
        """PDFium character index -> the ligature character drawn there, for the
        characters of page ``page_index`` that PDFium gave as their codes; ``text`` is
        PDFium's text of ``textpage``."""
        suspects = list(_failed_marks(textpage, text))
        if not suspects:
            return {}
        by_font = self._page_ligatures(page_index)
        found: dict[int, str] = {}
        for index, code in suspects:
            ligature = by_font.get((_font_name(textpage, index), code))
            if ligature is not None:
                found[index] = ligature
        return found

    def _page_ligatures(self, page_index: int) -> dict[tuple[str, int], str]:
        """(font base name, code) -> ligature character, for the page's simple fonts."""
        reader = self._pypdf()
        if reader is None:
            return {}
        try:
            with pypdf_warnings_held():
                page = reader.pages[page_index]
                found: dict[tuple[str, int], str] = {}
                for font in _fonts(page.get("/Resources"), 0, [0]):
                    found.update(_font_ligatures(font))
            return found
        except Exception as exc:  # an extra: PDFium's reading stands
            log.debug("%s: fonts of page %d unreadable by pypdf: %s",
                      self.source.display_name, page_index + 1, exc)
            return {}

    def _pypdf(self) -> Any:
        if self._reader is None and not self._unreadable:
            import pypdf  # only documents that show such a character need it

            try:
                self._stream = self.source.open()
                with pypdf_warnings_held():
                    reader = pypdf.PdfReader(self._stream, strict=False)
                    if reader.is_encrypted:
                        reader.decrypt(self.password or "")
                self._reader = reader
            except Exception as exc:
                log.debug("%s: unreadable by pypdf: %s", self.source.display_name, exc)
                self.close()
                self._unreadable = True
        return self._reader


def _failed_marks(textpage: pdfium.PdfTextPage, text: str) -> Iterator[tuple[int, int]]:
    """(character index, code) of the in-word marks whose mapping PDFium flags as failed.

    A page has a mark before a letter at every comma and full stop, so the native calls
    are typed ones driven by ``map``, with no Python loop body around each.
    """
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
    positions = [match.start() for match in _IN_WORD_MARK.finditer(text)]
    if len(text) != pdfium_c.FPDFText_CountChars(textpage):
        positions = list(map(CHAR_INDEX, repeat(handle, len(positions)), positions))
    for index, failed in zip(positions, map(MAP_ERROR, repeat(handle, len(positions)),
                                            positions), strict=True):
        if failed == 1 and index >= 0:
            yield index, pdfium_c.FPDFText_GetUnicode(textpage, index)


def _font_name(textpage: pdfium.PdfTextPage, index: int) -> str:
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


def _fonts(resources: Any, depth: int, seen: list[int]) -> Iterator[Any]:
    """The font dictionaries of ``resources`` and of the forms they hold, a bounded few."""
    if resources is None or depth > _MAX_FORM_DEPTH:
        return
    resources = resources.get_object()
    fonts = resources.get("/Font")
    for font in (fonts.get_object().values() if fonts is not None else ()):
        seen[0] += 1
        if seen[0] > _MAX_FONTS:
            return
        yield font.get_object()
    forms = resources.get("/XObject")
    for form in (forms.get_object().values() if forms is not None else ()):
        form = form.get_object()
        if form.get("/Subtype") == "/Form" and seen[0] <= _MAX_FONTS:
            yield from _fonts(form.get("/Resources"), depth + 1, seen)


def _font_ligatures(font: Mapping[str, Any]) -> dict[tuple[str, int], str]:
    """(base name, code) -> ligature character for the codes ``font``'s /Differences
    names with a ligature's name."""
    if font.get("/Subtype") not in _SIMPLE_FONTS:
        return {}
    encoding = font.get("/Encoding")
    encoding = encoding.get_object() if encoding is not None else None
    differences = encoding.get("/Differences") if isinstance(encoding, Mapping) else None
    if differences is None:
        return {}
    name = _SUBSET_TAG.sub("", str(font.get("/BaseFont", "")).lstrip("/"))
    found: dict[tuple[str, int], str] = {}
    code = 0
    for item in list(differences.get_object())[:512]:
        item = item.get_object()
        if isinstance(item, int):
            code = item
            continue
        glyph = str(item).lstrip("/")
        if "_" in glyph and 0 <= code < 256:
            ligature = LIGATURE_CHARACTERS.get(toUnicode(glyph))
            if ligature is not None:
                found[(name, code)] = ligature
        code += 1
    return found


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
