"""A damaged part a document reads for its text (a header, the notes, a chart) is text lost.

The body is still read, and each damaged part is named in a warning; the document
counts as read in part (a ``Truncated`` warning, exit status 1), where it read as clean
before. A damaged part that holds no text (the styles, a theme) loses nothing and stays
a warning only.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from packages import damaged, docx, para, rewrite

from goblin_core import Document
from goblin_core.cli import cli

Read = Callable[..., Document]

_PARTS = {
    "header1.xml": "<w:hdr>" + para("Cabeçalho do contrato") + "</w:hdr>",
    "footnotes.xml": '<w:footnotes><w:footnote w:id="1">' + para("Nota de rodapé")
                     + "</w:footnote></w:footnotes>",
    "comments.xml": '<w:comments><w:comment w:id="0" w:author="Ana">' + para("Revisar")
                    + "</w:comment></w:comments>",
    "styles.xml": "<w:styles/>",
}


def _contract() -> bytes:
    return docx(para("Cláusula primeira do contrato."), _PARTS)


def _cut_xml(package: bytes, member: str) -> bytes:
    """The package with ``member``'s XML cut in half, stored whole in the zip."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        whole = archive.read(member)
    return rewrite(package, {member: whole[: len(whole) // 2]})


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_the_whole_contract_reads_every_part_as_clean(read: Read) -> None:
    document = read(_contract(), "contrato.docx")
    for phrase in ("Cláusula primeira", "Cabeçalho do contrato", "Nota de rodapé", "Revisar"):
        assert phrase in document.text
    assert not document.report.truncated


@pytest.mark.parametrize("member", ["word/header1.xml", "word/footnotes.xml",
                                    "word/comments.xml"])
@pytest.mark.parametrize("damage", ["deflate", "xml"])
def test_a_damaged_docx_part_holding_text_is_a_loss(read: Read, member: str,
                                                    damage: str) -> None:
    whole = _contract()
    data = damaged(whole, member) if damage == "deflate" else _cut_xml(whole, member)
    document = read(data, "contrato.docx")
    assert "Cláusula primeira do contrato." in document.text
    assert document.report.truncated
    (message,) = _truncated(document)
    assert member in message


def test_a_damaged_docx_part_holding_no_text_is_no_loss(read: Read) -> None:
    document = read(_cut_xml(_contract(), "word/styles.xml"), "contrato.docx")
    assert "Cabeçalho do contrato" in document.text
    assert any("word/styles.xml" in w.message for w in document.report.warnings)
    assert not document.report.truncated


def test_a_docx_with_a_damaged_header_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "contrato.docx"
    path.write_bytes(damaged(_contract(), "word/header1.xml"))
    result = CliRunner().invoke(cli, ["extract", str(path), "--ocr", "never"])
    assert "Cláusula primeira do contrato." in result.stdout
    assert result.exit_code == 1
    assert "Truncated" in result.stderr and "word/header1.xml" in result.stderr


def _deck() -> bytes:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    for title in ("Primeiro", "Segundo"):
        deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = title
    deck.slides[0].notes_slide.notes_text_frame.text = "Nota do orador"
    values = CategoryChartData()
    values.categories = ["Jan", "Fev"]
    values.add_series("Custo", (1, 2))
    chart = deck.slides[1].shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1),
                                            Inches(2), Inches(4), Inches(2), values).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Custos mensais"
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def test_the_whole_deck_reads_notes_and_chart_as_clean(read: Read) -> None:
    document = read(_deck(), "deck.pptx")
    assert "Nota do orador" in document.text and "Custos mensais" in document.text
    assert not document.report.truncated


@pytest.mark.parametrize("member", ["ppt/notesSlides/notesSlide1.xml", "ppt/charts/chart1.xml"])
@pytest.mark.parametrize("damage", ["deflate", "xml"])
def test_a_damaged_pptx_part_holding_text_is_a_loss(read: Read, member: str,
                                                    damage: str) -> None:
    whole = _deck()
    data = damaged(whole, member) if damage == "deflate" else _cut_xml(whole, member)
    document = read(data, "deck.pptx")
    assert [p.text.splitlines()[0] for p in document.pages] == ["Primeiro", "Segundo"]
    assert document.report.truncated
    (message,) = _truncated(document)
    assert member in message


def test_a_damaged_pptx_theme_is_no_loss(read: Read) -> None:
    document = read(_cut_xml(_deck(), "ppt/theme/theme1.xml"), "deck.pptx")
    assert "Nota do orador" in document.text
    assert not document.report.truncated


def test_a_damaged_merged_chunk_costs_its_own_text_not_the_body(read: Read) -> None:
    from test_alt_chunks import RTF, chunk, with_chunks

    whole = with_chunks(para("Antes.") + chunk("A") + para("Depois."), {"afchunk.rtf": RTF * 40})
    document = read(damaged(whole, "word/afchunk.rtf"), "convertido.docx")
    # the Word reader keeps the body, rather than failing over to another engine
    assert document.parsed_by == ("office.docx",)
    assert document.text.splitlines() == ["Antes.", "Depois."]
    (message,) = _truncated(document)
    assert "word/afchunk.rtf" in message


@pytest.mark.parametrize("damage", ["deflate", "xml"])
def test_a_docx_whose_body_relationships_are_damaged_still_reads_its_parts(
    read: Read, damage: str
) -> None:
    # the headers, notes and comments are linked only from the body: the content types
    # still say which parts they are
    whole = docx(para("Cláusula primeira do contrato. " * 20), _PARTS)
    member = "word/_rels/document.xml.rels"
    data = damaged(whole, member) if damage == "deflate" else _cut_xml(whole, member)
    document = read(data, "contrato.docx")
    lines = document.text.splitlines()
    assert lines[0] == "Cabeçalho do contrato"
    assert lines[-2:] == ["Nota de rodapé", "Comment (Ana): Revisar"]
    assert any(member in w.message for w in document.report.warnings)
