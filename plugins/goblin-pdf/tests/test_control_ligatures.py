"""Ligatures a bitmap font of TeX's draws at control codes: the page's words say which."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import pikepdf
import pytest
from pdf_builders import saved

import goblin_core
from goblin_pdf.control_ligatures import _decide, _glyph_controls, _words, _words_by_code

# TeX's two font layouts: where each puts ff, fi, fl, ffi and ffl.
OT1 = {"ff": 11, "fi": 12, "fl": 13, "ffi": 14, "ffl": 15}
T1 = {"ff": 27, "fi": 28, "fl": 29, "ffi": 30, "ffl": 31}

PROSE = ("The o[ffi]cial notice says the [fi]les were modi[fi]ed and the [ff]ers were "
         "made to the [fl]ow of work in the o[ffi]ce, where the sta[ff] read the [fi]nal "
         "text of the a[ff]ected parts and the [fi]gures of the e[ff]ort with care.")
READ = ("The official notice says the files were modified and the ffers were made to the "
        "flow of work in the office, where the staff read the final text of the affected "
        "parts and the figures of the effort with care.")


def _drawn(text: str, layout: dict[str, int]) -> bytes:
    """``text`` with each ``[letters]`` as the code ``layout`` puts that ligature at."""
    for letters, code in sorted(layout.items(), key=lambda item: -len(item[0])):
        text = text.replace(f"[{letters}]", chr(code))
    return text.encode("latin-1")


class Typewriter(NamedTuple):
    """A line set in the document's typewriter face, whose glyphs all advance alike."""

    text: bytes


class Helvetica(NamedTuple):
    """A line set in a standard font with a name and WinAnsi encoding."""

    text: bytes


Line = bytes | tuple[bytes | int, ...] | Typewriter | Helvetica


def advance(code: int) -> int:
    """The advance of the glyph at ``code`` of the proportional face, in 1/1000 em."""
    return 300 if code == 32 else 400 + 50 * (code % 7)


def bitmap_font_pdf(*pages: list[Line]) -> bytes:
    """Pages of lines drawn in Type 3 fonts like those dvips and pdfTeX embed for
    Metafont's bitmaps: glyphs named by number (``/a12``), no ToUnicode map. Every
    glyph is a bar (a space draws nothing), of an advance of its own (``advance``), or
    0.525 em in the typewriter face. A line given as a tuple is drawn as a TJ array: its
    numbers move the pen back, as TeX sets an accent over the letter after it."""
    pdf = pikepdf.new()
    fonts = pikepdf.Dictionary(F1=_bitmap_font(pdf, advance), F2=_bitmap_font(pdf, lambda _: 525),
                               F3=pikepdf.Dictionary(Type=pikepdf.Name.Font,
                                                     Subtype=pikepdf.Name.Type1,
                                                     BaseFont=pikepdf.Name.Helvetica,
                                                     Encoding=pikepdf.Name.WinAnsiEncoding))
    for lines in pages:
        content = b"BT 11 TL 40 800 Td " + b" ".join(map(_shown, lines)) + b" ET"
        page = pdf.add_blank_page(page_size=(595, 842))
        page.Resources = pikepdf.Dictionary(Font=fonts)
        page.Contents = pdf.make_stream(content)
    return saved(pdf)


def _bitmap_font(pdf: pikepdf.Pdf, width: Callable[[int], int]) -> pikepdf.Object:
    procs = pikepdf.Dictionary()
    differences: list[object] = [0]
    for code in range(128):
        name = f"/a{code}"
        differences.append(pikepdf.Name(name))
        drawing = (f"{width(code)} 0 d0" if code == 32 else
                   f"{width(code)} 0 0 0 {width(code)} 700 d1 50 0 {width(code) - 100} 700 re f")
        procs[name] = pikepdf.Stream(pdf, drawing.encode("ascii"))
    return pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3,
        FontBBox=[0, 0, 800, 700], FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
        CharProcs=procs, FirstChar=0, LastChar=127, Widths=[width(c) for c in range(128)],
        Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                                    Differences=pikepdf.Array(differences)),
        Resources=pikepdf.Dictionary()))


def _shown(line: Line) -> bytes:
    if isinstance(line, Typewriter | Helvetica):
        font = b"/F2" if isinstance(line, Typewriter) else b"/F3"
        return font + b" 9 Tf <" + line.text.hex().encode("ascii") + b"> Tj T*"
    if isinstance(line, bytes):
        return b"/F1 9 Tf <" + line.hex().encode("ascii") + b"> Tj T*"
    parts = [str(part).encode("ascii") if isinstance(part, int)
             else b"<" + part.hex().encode("ascii") + b">" for part in line]
    return b"/F1 9 Tf [" + b" ".join(parts) + b"] TJ T*"


def _lines(text: str, layout: dict[str, int], width: int = 60) -> list[bytes]:
    drawn = _drawn(text, layout)
    lines, line = [], b""
    for word in drawn.split(b" "):
        if line and len(line) + len(word) >= width:
            lines.append(line)
            line = b""
        line = line + b" " + word if line else word
    return [*lines, line]


@pytest.mark.parametrize("layout", [OT1, T1], ids=["OT1", "T1"])
def test_ligatures_a_bitmap_font_draws_at_control_codes_are_read_as_letters(
        layout: dict[str, int]) -> None:
    data = bitmap_font_pdf(_lines(PROSE.replace("[ff]ers", "o[ff]ers"), layout))
    document = goblin_core.extract(data, name="tex-bitmap.pdf", ocr="never")
    assert " ".join(document.text.split()) == READ.replace("ffers", "offers")


def test_a_code_a_page_decides_is_that_ligature_on_later_pages() -> None:
    """Broken at a line end, the only word of its code on its page, ``e\\x1bec-`` is
    read with the ligature the first page's words decided for the code."""
    second = [b"The second page reads on with the e" + bytes([T1["ff"]]) + b"ec-",
              b"tive date of the notice."]
    data = bitmap_font_pdf(_lines(PROSE, T1), second)
    document = goblin_core.extract(data, name="tex-bitmap.pdf", ocr="never")
    assert "effective date" in document.pages[1].text


def test_a_control_character_in_a_formula_is_left_as_read() -> None:
    """A math sign read as a control code between letters makes no word with any
    ligature: the page's text keeps it."""
    line = b"The norm of the vector k" + bytes([1]) + b"h is the length we measure here."
    data = bitmap_font_pdf([line] * 3)
    text = goblin_core.extract(data, name="formula.pdf", ocr="never").text
    assert "k\x01h" in text


@pytest.mark.parametrize(("text", "decided"), [
    # one word, in both lists with different ligatures: the page's language decides
    ("The o\x0ecial notice was read by the members of the board at the meeting in "
     "the town hall on the first day of the month, as the rules say it must be.",
     {14: "\ufb03"}),
    ("O documento o\x0ccial foi lido pelos membros do conselho na reunião da câmara "
     "municipal no primeiro dia do mês, como dizem as regras da cidade.",
     {12: "\ufb01"}),
    # a page written in no language of the lists is not judged
    ("Xq\x0cow zMw vbq\x0cow tWq kkr pzq mmx qwz zzkq wpt qrz", {}),
    # a word in a case of its own is no word
    ("The vector wMMw\x0f and \x0fOw are read from the table of the results of the "
     "experiment that the group ran on the first day of the month.", {}),
])
def test_the_page_s_language_and_words_decide_a_code(text: str, decided: dict[int, str]) -> None:
    assert _decide(_words_by_code(_words(_glyph_controls(text))), text) == decided


def test_a_document_in_one_of_tex_s_layouts_has_its_other_control_codes_read() -> None:
    """Ligatures found where T1 puts them make the document T1: its quotes and dashes,
    at control codes too, are read as T1 has them. A code beside no letter or digit is
    left as read."""
    quoted = (b"The word \x10licensee\x11 means the person in years 1990\x152007 and "
              b"\x10you\x11 is the same \x16 whoever it is; a lone \x15 stays.")
    data = bitmap_font_pdf([*_lines(PROSE, T1), quoted])
    text = goblin_core.extract(data, name="tex-bitmap.pdf", ocr="never").text
    assert "“licensee” means" in text and "1990–2007" in text and "“you” is" in text
    assert "same \x16 whoever" in text and "lone \x15 stays" in text


def test_ligatures_where_no_layout_of_tex_s_puts_them_read_no_other_code() -> None:
    """``fi`` decided at a code where neither layout has it says nothing of the font."""
    layout = {"ff": 20, "fi": 21, "fl": 22, "ffi": 23, "ffl": 24}
    line = b"The word \x10licensee\x11 means the person."
    data = bitmap_font_pdf([*_lines(PROSE, layout), line])
    text = goblin_core.extract(data, name="bitmap.pdf", ocr="never").text
    assert "modified" in text and "\x10licensee\x11" in text


def test_accents_of_a_document_in_ot1_are_set_on_their_letters() -> None:
    """OT1 puts its accents at control codes (the acute at 19, the diaeresis at 127) and
    a dotless i at 16: with OT1's ligatures found, ``caf\\x13e`` and ``na\\x7f\\x10ve``
    read ``café`` and ``naïve``."""
    accented: Line = (b"They met at the caf", bytes([19]), advance(19), b"e to read a na",
                      bytes([127]), advance(127), bytes([16]), b"ve poem in the stra",
                      bytes([25]), b"e.")
    data = bitmap_font_pdf([*_lines(PROSE, OT1), accented])
    text = goblin_core.extract(data, name="tex-bitmap.pdf", ocr="never").text
    assert "caf\u00e9 to read a na\u00efve poem in the stra\u00dfe." in text


def test_ot1_s_quotes_and_dashes_at_ascii_codes_are_read_outside_typewriter_type() -> None:
    """OT1 puts its quotes and dashes where ASCII has the backslash, the double quote,
    the brace and the bar; its typewriter face keeps ASCII there. A typewriter face
    advances every letter alike, and its line is left as read."""
    quoted: Line = (b"The word \\licensee\" means the person in years 1990{2007, and "
                    b"\\you\" means the same | whoever it is; see Erd}", advance(125),
                    b"os or \\a\".")
    typewriter = [b'print("\\section{Licence}|more")', b"ls | grep x", b'print("x")', b"a{b}"]
    data = bitmap_font_pdf([*_lines(PROSE, OT1), quoted, *map(Typewriter, typewriter)])
    text = goblin_core.extract(data, name="tex-bitmap.pdf", ocr="never").text
    assert ("The word \u201clicensee\u201d means the person in years 1990\u20132007, and "
            "\u201cyou\u201d means the same \u2014 whoever it is; see Erd\u0151s or "
            "\u201ca\u201d.") in text
    assert text.endswith("\n".join(line.decode() for line in typewriter))


def test_a_ligature_broken_off_at_a_line_end_is_read() -> None:
    """TeX breaks ``final`` after its ``fi``: the code stands alone before the hyphen."""
    lines = _lines(PROSE, OT1)
    lines[1] = lines[1] + b" and the " + bytes([OT1["fi"]]) + b"-"
    lines[2] = b"nal one " + lines[2]
    data = bitmap_font_pdf(lines)
    text = goblin_core.extract(data, name="tex-bitmap.pdf", ocr="never").text
    assert "the fi-\nnal one" in text


def test_t1_s_letters_above_code_127_are_read_in_a_font_without_a_name() -> None:
    """T1 puts Latin Extended-A at 128 to 191 and ß at 255, where PDFium reads a code of
    a font without a name as Latin-1 (``Dvo°ák``, ``straÿe``); a font with a name and
    an encoding of its own is read as PDFium reads it."""
    names = b"They met Dvo\xb0\xe1k in \x8a\xf3d\xb9 on the stra\xffe of the \xf7uvre."
    data = bitmap_font_pdf([*_lines(PROSE, T1), names, Helvetica(b"It is 20\xb0 in Paris.")])
    text = goblin_core.extract(data, name="tex-bitmap.pdf", ocr="never").text
    assert ("They met Dvo\u0159\u00e1k in \u0141\u00f3d\u017a on the stra\u00dfe of the "
            "\u0153uvre.") in text
    assert "It is 20\u00b0 in Paris." in text


def test_a_page_of_thousands_of_codes_and_quotes_is_read_in_seconds() -> None:
    """A safety ceiling: a word is grown once from its codes, a code judged once for the
    page, and a page of more OT1 quotes than prose has is left as read."""
    codes = [b"a\x0cb " * 15] * 120
    quotes = [b'a"b"' * 15] * 120
    data = bitmap_font_pdf(_lines(PROSE, OT1), codes, quotes)
    started = time.perf_counter()
    document = goblin_core.extract(data, name="hostile.pdf", ocr="never")
    assert time.perf_counter() - started < 10
    assert 'a"b"' in document.pages[2].text
