"""Ligatures a bitmap font of TeX's draws at control codes: the page's words say which."""

from __future__ import annotations

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


def bitmap_font_pdf(*pages: list[bytes]) -> bytes:
    """Pages of lines drawn in a Type 3 font like those dvips and pdfTeX embed for
    Metafont's bitmaps: glyphs named by number (``/a12``), no ToUnicode map. Every
    glyph is a bar (a space draws nothing), 0.6 em wide."""
    pdf = pikepdf.new()
    procs = pikepdf.Dictionary()
    differences: list[object] = [0]
    for code in range(128):
        name = f"/a{code}"
        differences.append(pikepdf.Name(name))
        drawing = b"600 0 d0" if code == 32 else b"600 0 0 0 500 700 d1 50 0 450 700 re f"
        procs[name] = pikepdf.Stream(pdf, drawing)
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3,
        FontBBox=[0, 0, 600, 700], FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
        CharProcs=procs, FirstChar=0, LastChar=127, Widths=[600] * 128,
        Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                                    Differences=pikepdf.Array(differences)),
        Resources=pikepdf.Dictionary()))
    for lines in pages:
        content = b"BT /F1 9 Tf 11 TL 40 800 Td " + b" ".join(
            b"<" + line.hex().encode("ascii") + b"> Tj T*" for line in lines) + b" ET"
        page = pdf.add_blank_page(page_size=(595, 842))
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.Contents = pdf.make_stream(content)
    return saved(pdf)


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
