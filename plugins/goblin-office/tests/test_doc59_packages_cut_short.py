"""Presentations, OpenDocument files, Visio drawings and XPS documents cut short (a
download or a copy that stopped).

A zip package cut short has lost its central directory, which zip writers put last:
``zipfile`` cannot open it, and a .pptx, .odt, .odp, .odg, .vsdx or .xps failed whole
(an .xps without its name was even read as an empty zip), though its slides, pages or
content.xml, written before the cut, were still in the file (a .docx was already read
from what survives, by ``office.docx_salvage``). ``office.package_salvage`` now packs the
members found behind their local headers again, the last one as far as it inflates, and
reads them with the format's own engine: the text before the cut is kept, a slide or
page the cut took is a failed page in its place, and the document counts as read in part
(a ``Truncated`` warning naming the cut, exit status 1).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from odf.opendocument import OpenDocumentText
from odf.text import P
from packages import vsdx, xps
from pptx import Presentation
from pptx.util import Inches
from test_doc59_cli import assert_read_in_part

from goblin_core import CorruptDocument, Document
from goblin_core.config import Config
from goblin_core.source import Source
from goblin_office.salvage import PackageSalvageParser

Read = Callable[..., Document]


def _odt(paragraphs: int) -> bytes:
    document = OpenDocumentText()
    for number in range(paragraphs):
        document.text.addElement(P(text=f"Parágrafo número {number} do relatório anual."))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _pptx(slides: int) -> bytes:
    deck = Presentation()
    for number in range(1, slides + 1):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = f"Slide número {number}"
        box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(4), Inches(1))
        box.text_frame.text = f"Texto do slide {number}"
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def _cut_inside(package: bytes, member: str, fraction: float = 0.5) -> bytes:
    """``package`` cut inside ``member``'s compressed data."""
    info = zipfile.ZipFile(io.BytesIO(package)).getinfo(member)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    return package[: start + int(info.compress_size * fraction)]


def _cut_before(package: bytes, member: str) -> bytes:
    return package[: zipfile.ZipFile(io.BytesIO(package)).getinfo(member).header_offset]


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_an_odt_cut_inside_its_content_keeps_the_paragraphs_before_the_cut(read: Read) -> None:
    whole = _odt(400)
    document = read(_cut_inside(whole, "content.xml"), "relatorio.odt")
    assert document.parsed_by == ("office.package_salvage",)
    lines = document.text.splitlines()
    assert lines[0] == "Parágrafo número 0 do relatório anual."
    assert 20 < len(lines) < 400
    assert any("zip directory lost" in message for message in _truncated(document))


def test_a_pptx_cut_before_its_last_slide_reads_the_others(read: Read) -> None:
    whole = _pptx(3)
    document = read(_cut_before(whole, "ppt/slides/slide3.xml"), "aula.pptx")
    assert document.parsed_by == ("office.package_salvage",)
    assert [page.text.splitlines() for page in document.pages[:2]] == [
        ["Slide número 1", "Texto do slide 1"], ["Slide número 2", "Texto do slide 2"]]
    assert document.pages[2].status == "failed"
    assert document.report.truncated


@pytest.mark.parametrize("whole, name", [(_odt(3), "relatorio.odt"), (_pptx(1), "aula.pptx")],
                         ids=["odt", "pptx"])
def test_a_whole_package_is_left_to_its_engine(read: Read, whole: bytes, name: str) -> None:
    document = read(whole, name)
    assert document.parsed_by != ("office.package_salvage",)
    assert not document.report.warnings
    with pytest.raises(CorruptDocument, match="nothing to salvage"):
        PackageSalvageParser().open(Source.from_bytes(whole, name), Config({}))


def test_an_xps_cut_before_its_last_page_reads_the_others_by_its_content(read: Read) -> None:
    glyphs = ('<Glyphs OriginX="10" OriginY="20" FontRenderingEmSize="12" '
              'UnicodeString="{}"/>')
    whole = xps([glyphs.format(f"Página {number}") for number in (1, 2, 3)])
    document = read(_cut_before(whole, "Documents/1/Pages/3.fpage"), "impresso")
    assert document.mime == "application/vnd.ms-xpsdocument"
    assert document.parsed_by == ("office.package_salvage",)
    assert [page.text for page in document.pages[:2]] == ["Página 1", "Página 2"]
    assert document.pages[2].status == "failed"
    assert document.report.truncated


def test_a_visio_drawing_cut_before_its_second_page_reads_the_first(read: Read) -> None:
    whole = vsdx([("Fluxo", "<Shape ID='1'><Text>Início do processo</Text></Shape>"),
                  ("Resumo", "<Shape ID='1'><Text>Fim do processo</Text></Shape>")])
    document = read(_cut_before(whole, "visio/pages/page2.xml"), "fluxo.vsdx")
    assert document.parsed_by == ("office.package_salvage",)
    assert document.pages[0].text == "Início do processo"
    assert document.report.truncated


def test_a_package_cut_before_its_text_still_fails(read: Read) -> None:
    with pytest.raises(CorruptDocument):
        read(_cut_before(_pptx(2), "ppt/slides/slide1.xml"), "aula.pptx")


def test_the_command_line_exits_1_for_a_cut_package(tmp_path: Path) -> None:
    assert_read_in_part(tmp_path / "relatorio.odt", _cut_inside(_odt(400), "content.xml"),
                        "Parágrafo número 0 do relatório anual.")
