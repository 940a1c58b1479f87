"""XML, FictionBook, Word XML (Flat OPC) and RTF files cut short exactly between two tags
or control words, where the text after the cut is lost all the same.

A file whose end tags or closing braces alone are missing, after the end of a block,
loses nothing. But one cut right after a start tag (what the element held is gone),
right after an element in the middle of a sentence, inside a paragraph (a FictionBook
``<p>``, a Word ``<w:p>``) or inside a table row (RTF: ``\\trowd`` seen, ``\\row``
not) read as clean, with exit status 0. Each is now read in part: a ``Truncated``
warning naming where the file ends.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from packages import docx, flat_opc, para

from goblin_core import Document
from samples import fictionbook

Read = Callable[..., Document]

_XML = (b'<?xml version="1.0"?><book><chapter><title>Cap\xc3\xadtulo um</title>'
        b"<para>Primeira frase aqui.</para><para>Segunda frase <emphasis>forte</emphasis>"
        b" ali.</para></chapter><chapter><title>Cap\xc3\xadtulo dois</title>"
        b"<para>Terceira frase final.</para></chapter></book>\n")


def _through(data: bytes, marker: bytes) -> bytes:
    """``data`` up to the end of the first ``marker`` in it."""
    return data[: data.index(marker) + len(marker)]


def _xml_before(marker: bytes) -> bytes:
    return _through(_XML, marker)


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


_XML_LOST = {
    "after-a-start-tag": _xml_before(b"ali.</para></chapter><chapter>"),
    "after-a-paragraph-start-tag": _xml_before(b"aqui.</para><para>"),
    "after-an-element-mid-sentence": _xml_before(b"</emphasis>"),
    "after-an-empty-element-mid-sentence": _XML.replace(b"</emphasis>", b"</emphasis><br/>")[
        : _XML.index(b"</emphasis>") + len(b"</emphasis><br/>")],
}
_XML_KEPT = {
    "after-a-paragraph-end": _xml_before(b"ali.</para>"),
    "after-a-chapter-end": _xml_before(b"ali.</para></chapter>"),
    "end-tag-missing": _XML.rstrip()[: -len(b"</book>")],
}


@pytest.mark.parametrize("data", _XML_LOST.values(), ids=_XML_LOST.keys())
def test_xml_cut_between_tags_inside_its_text_is_read_in_part(read: Read, data: bytes) -> None:
    document = read(data, "livro.xml")
    assert "Primeira frase aqui." in document.text
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "cut short" in message


@pytest.mark.parametrize("data", _XML_KEPT.values(), ids=_XML_KEPT.keys())
def test_xml_missing_only_its_end_tags_after_a_block_loses_nothing(read: Read,
                                                                  data: bytes) -> None:
    document = read(data, "livro.xml")
    assert "Segunda frase forte ali." in document.text
    assert any("read leniently" in w.message for w in document.report.warnings)
    assert not document.report.truncated


def test_a_long_xml_cut_after_a_start_tag_is_read_in_part(read: Read) -> None:
    # past the tail the check reads (it may begin inside a tag)
    body = b"".join(b'<para n="%d">Frase n\xc3\xbamero %d.</para>' % (n, n) for n in range(9000))
    document = read(b"<book>" + body + b"<para>", "longo.xml")
    assert "Frase número 8999." in document.text
    assert document.report.truncated


_BOOK = fictionbook("<section><title><p>Capítulo um</p></title><p>Primeira frase aqui.</p>"
                    "<p>Segunda frase <emphasis>forte</emphasis> ali.</p></section>"
                    "<section><title><p>Capítulo dois</p></title>"
                    "<p>Terceira frase final.</p></section>")


def _book_before(marker: str) -> bytes:
    return _through(_BOOK, marker.encode())


@pytest.mark.parametrize("marker", ["aqui.</p><p>", "</p></section><section>",
                                    "<emphasis>forte</emphasis>"])
def test_a_book_cut_between_tags_inside_its_text_is_read_in_part(read: Read,
                                                                 marker: str) -> None:
    document = read(_book_before(marker), "livro.fb2")
    assert "Primeira frase aqui." in document.text
    assert document.report.truncated


def test_a_book_cut_after_a_paragraph_end_loses_nothing(read: Read) -> None:
    document = read(_book_before("ali.</p>"), "livro.fb2")
    assert "Segunda frase forte ali." in document.text
    assert not document.report.truncated


def _word_xml() -> bytes:
    runs = "".join(f'<w:r>{props}<w:t xml:space="preserve">{text}</w:t></w:r>'
                   for props, text in (("", "Primeira parte da frase, "),
                                       ("<w:rPr><w:b/></w:rPr>", "em negrito"),
                                       ("", ", e o fim da frase.")))
    return flat_opc(docx(f"<w:p>{runs}</w:p>" + para("Último parágrafo.")), "Word.Document")


def test_a_word_xml_cut_between_two_runs_of_a_paragraph_is_read_in_part(read: Read) -> None:
    whole = _word_xml()
    bold = whole.index(b"em negrito")
    cut = whole[: whole.index(b"</w:r>", bold) + len(b"</w:r>")]
    document = read(cut, "relatorio.xml")
    assert document.parsed_by == ("office.flat_opc",)
    assert "Primeira parte da frase, em negrito" in document.text
    assert document.report.truncated
    assert any("<w:p>" in message for message in _truncated(document))


def test_a_word_xml_cut_between_two_paragraphs_of_its_body_is_read_in_part(read: Read) -> None:
    # the parts after the body's (styles, notes, headers) are lost with its end
    whole = _word_xml()
    cut = whole[: whole.index(b"</w:p>") + len(b"</w:p>")]
    document = read(cut, "relatorio.xml")
    assert document.text == "Primeira parte da frase, em negrito, e o fim da frase."
    assert document.report.truncated


def test_a_word_xml_cut_after_its_last_part_loses_nothing(read: Read) -> None:
    whole = _word_xml()
    document = read(whole[: whole.rindex(b"</pkg:part>") + len(b"</pkg:part>")],
                    "relatorio.xml")
    assert document.text.splitlines()[-1] == "Último parágrafo."
    assert not document.report.truncated


_RTF = (rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 Antes da tabela.\par "
        rb"\trowd\cellx1000\cellx2000\cellx3000 Alfa\cell Beta\cell Gama\cell\row "
        rb"\pard Depois da tabela.\par}")


def _rtf_before(marker: bytes) -> bytes:
    return _through(_RTF, marker)


@pytest.mark.parametrize("marker", [rb"Alfa\cell", rb"Beta\cell", rb"Gama\cell",
                                    rb"\trowd\cellx1000", rb"\trowd"])
def test_an_rtf_cut_inside_a_table_row_is_read_in_part(read: Read, marker: bytes) -> None:
    document = read(_rtf_before(marker), "tabela.rtf")
    assert "Antes da tabela." in document.text
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "cut short" in message


def test_an_rtf_cut_after_a_row_end_loses_nothing(read: Read) -> None:
    document = read(_rtf_before(rb"\row "), "tabela.rtf")
    assert "Alfa\tBeta\tGama" in document.text
    assert not document.report.truncated


def test_an_rtf_whose_rows_all_end_is_clean(read: Read) -> None:
    document = read(_RTF, "tabela.rtf")
    assert document.text.splitlines()[-1] == "Depois da tabela."
    assert not document.report.warnings


# a footnote and a comment in the middle of their paragraphs, a header between two
_RTF_NOTES = (rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 Primeiro par\'e1grafo.\par "
              rb"Texto com nota{\super\chftn}{\footnote\pard\plain{\super\chftn} Nota.\par}"
              rb" e mais texto.\par Coment\'e1rio{\*\atnauthor Rui}\chatn{\*\annotation"
              rb"\pard Revisar.\par} aqui.\par {\header Cabe\'e7alho\par}"
              rb"{\field{\*\fldinst HYPERLINK \"x\"}{\fldrslt Liga\'e7\'e3o}}\par}")


@pytest.mark.parametrize("marker", [rb"Nota.\par}", rb"Revisar.\par}", rb"\'e3o}}"],
                         ids=["after-a-footnote", "after-an-annotation", "after-a-field"])
def test_an_rtf_cut_right_after_a_note_in_a_paragraph_is_read_in_part(read: Read,
                                                                       marker: bytes) -> None:
    # the note's own text ended with \par, but the paragraph holding it had not
    document: Document = read(_through(_RTF_NOTES, marker), "notas.rtf")
    assert "Texto com nota" in document.text
    assert document.report.truncated


def test_an_rtf_cut_right_after_a_header_between_paragraphs_loses_nothing(read: Read) -> None:
    document = read(_through(_RTF_NOTES, rb"alho\par}"), "notas.rtf")
    assert "Cabeçalho" in document.text
    assert not document.report.truncated


def test_row_marks_in_a_skipped_group_begin_no_row(read: Read) -> None:
    # the row properties before a tracked change, kept in a group readers skip
    data = (rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 Antes.\par "
            rb"{\*\oldtprops\trowd\cellx1000}Depois.\par")
    document = read(data, "antigas.rtf")
    assert document.text.split() == ["Antes.", "Depois."]
    assert not document.report.truncated
