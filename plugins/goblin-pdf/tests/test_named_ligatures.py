"""Ligatures an encoding names as the glyphs they join (f_i), which PDFium reads as codes,
and ligatures a ToUnicode map sends to symbols."""

from __future__ import annotations

import time

import pypdfium2 as pdfium
import pytest
from pdf_builders import saved, standard_font_pages
from pikepdf import Array, Dictionary, Name

import goblin_core


def pdfium_text(data: bytes) -> str:
    """PDFium's own text of the first page."""
    raw = pdfium.PdfDocument(data)
    try:
        return str(raw[0].get_textpage().get_text_range())
    finally:
        raw.close()


def ligatures_pdf() -> bytes:
    """Helvetica twice under one base name: /F1 names codes 33 and 34 f_i and f_l (as
    InDesign does), with a space drawn inside the ligature before the letter after it;
    /F2 is plain WinAnsi, whose code 33 is a real exclamation mark."""
    pdf = standard_font_pages(
        b"BT /F1 11 Tf 60 700 Td [(atividades pro!) 222 ( ) 56 (ssionais e cient\xed!) 222 "
        b"( ) 56 (cas, servi\xe7os ) (!) 222 ( ) 56 (nanceiros, \"or de sal)] TJ "
        b"/F2 11 Tf ( Viva!) Tj ET",
        fonts={"F1": "ABCDEF+Helvetica", "F2": "GHIJKL+Helvetica"})
    pdf.pages[0].Resources.Font.F1.Encoding = Dictionary(
        Type=Name.Encoding, BaseEncoding=Name.WinAnsiEncoding,
        Differences=Array([33, Name("/f_i"), Name("/f_l")]))
    return saved(pdf)


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_ligatures_named_by_their_letters_are_read_as_them(layout: str) -> None:
    data = ligatures_pdf()
    assert "pro! ssionais" in pdfium_text(data)
    document = goblin_core.extract(data, name="edital.pdf", ocr="never", pdf={"layout": layout})
    assert " ".join(document.text.split()) == (
        "atividades profissionais e científicas, serviços financeiros, flor de sal Viva!")


def _refuse_to_open_the_document_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from goblin_pdf import named_ligatures

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the document opened for a page with no ligature misread")

    monkeypatch.setattr(named_ligatures.NamedLigatures, "_document", refuse)


def test_a_page_without_such_marks_never_opens_the_document_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _refuse_to_open_the_document_again(monkeypatch)
    data = saved(standard_font_pages(
        b"BT /F2 11 Tf 60 700 Td (Edital n. 12, de 2024: aquisicao de cafe!) Tj ET",
        fonts={"F2": "Helvetica"}))
    document = goblin_core.extract(data, name="plain.pdf", ocr="never")
    assert "aquisicao de cafe!" in document.text


def test_a_line_end_hyphen_pdfium_marked_never_opens_the_document_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _refuse_to_open_the_document_again(monkeypatch)
    data = saved(standard_font_pages(
        b"BT /F2 11 Tf 60 700 Td (The committee did not substan-) Tj 0 -14 Td "
        b"(tially change the text of the report.) Tj ET", fonts={"F2": "Helvetica"}))
    assert "substan\ufffe" in pdfium_text(data)
    document = goblin_core.extract(data, name="plain.pdf", ocr="never")
    assert "substantially" in document.text.split()


def _misread_ligatures_pdf(to_unicode: bytes) -> bytes:
    """A TeX page as macOS's PDF writer leaves it: the font's /Differences names codes 33
    and 34 ff and ffi, and its ToUnicode map sends them to characters that are no
    letters (``to_unicode``: the map's entries)."""
    pdf = standard_font_pages(
        b"BT /F1 11 Tf 60 700 Td (Their e!orts met practical di\"culties with o!-the-) Tj "
        b"0 -14 Td (shelf tools, and the sta! found it di\"cult to work e\"ciently.) Tj ET",
        fonts={"F1": "AAAAAB+Helvetica"}, encoding=None)
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            b"/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            + to_unicode + b"endcmap CMapName currentdict /CMap defineresource pop end end\n")
    font = pdf.pages[0].Resources.Font.F1
    font.Encoding = Dictionary(Type=Name.Encoding,
                               Differences=Array([33, Name("/ff"), Name("/ffi")]))
    font.ToUnicode = pdf.make_stream(cmap)
    return saved(pdf)


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_ligatures_a_tounicode_map_sends_to_symbols_are_read_by_their_names(layout: str) -> None:
    data = _misread_ligatures_pdf(b"2 beginbfchar\n<21> <21B5>\n<22> <0000>\nendbfchar\n")
    assert "e\u21b5orts met practical di\ufffeculties" in pdfium_text(data)
    document = goblin_core.extract(data, name="quartz.pdf", ocr="never", pdf={"layout": layout})
    assert " ".join(document.text.split()) == (
        "Their efforts met practical difficulties with off-the-shelf tools, and the staff "
        "found it difficult to work efficiently.")


def test_two_ligatures_read_as_one_symbol_are_left_as_read() -> None:
    """Nothing tells which of the two was drawn."""
    data = _misread_ligatures_pdf(b"2 beginbfchar\n<21> <21B5>\n<22> <21B5>\nendbfchar\n")
    document = goblin_core.extract(data, name="quartz.pdf", ocr="never")
    assert "e\u21b5orts" in document.text
    assert "difficulties" not in document.text


def test_a_tounicode_map_spanning_millions_of_codes_is_read_no_further() -> None:
    """One line of a hostile map would have the parser add sixteen million entries."""
    data = _misread_ligatures_pdf(b"2 beginbfchar\n<21> <21B5>\n<22> <0000>\nendbfchar\n"
                                  b"1 beginbfrange\n<000100> <FFFFFF> <0041>\nendbfrange\n")
    started = time.monotonic()
    document = goblin_core.extract(data, name="quartz.pdf", ocr="never")
    assert time.monotonic() - started < 10
    assert "efforts met practical difficulties" in document.text
