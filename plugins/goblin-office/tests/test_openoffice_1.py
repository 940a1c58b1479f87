"""OpenOffice.org 1.x / StarOffice 6-7 documents (sxw, sxc, sxi, sxd and templates):
ODF's forerunner, read by the ODF readers."""

from __future__ import annotations

import pytest

import goblin_core
from goblin_office import formats as fmt
from goblin_office.safexml import STREAM_XML_FROM
from samples import PHRASE, openoffice_1, sample_sxc, sample_sxi, sample_sxw


def test_text_keeps_headings_tables_and_metadata() -> None:
    data, _ = sample_sxw()
    document = goblin_core.extract(data, name="documento")  # no name: the package says
    assert (document.mime, document.status) == (fmt.SXW, "clean")
    blocks = [(b.kind, b.level, b.text) for b in document.pages[0].blocks]
    assert blocks == [("heading", 2, "Título"), ("paragraph", 0, PHRASE), ("table", 0, "célula")]
    assert document.metadata["title"] == "Edital 42"


def test_a_spreadsheet_has_a_page_a_sheet_with_its_cells() -> None:
    data, _ = sample_sxc()
    document = goblin_core.extract(data, name="dados.sxc")
    [sheet] = document.pages
    assert sheet.label == "Dados" and sheet.tables[0].rows == ((PHRASE, "7"),)


def test_a_presentation_has_a_page_a_slide() -> None:
    data, _ = sample_sxi()
    document = goblin_core.extract(data, name="slides.sxi")
    assert [(p.label, p.text) for p in document.pages] == [("Capa", PHRASE)]


TEXT = f"<text:p>{PHRASE}</text:p>"
CELLS = f"<table:table><table:table-row><table:table-cell>{TEXT}</table:table-cell>" \
        "</table:table-row></table:table>"


@pytest.mark.parametrize(("declared", "mime", "body"), [
    ("application/vnd.sun.xml.writer.template", fmt.SXW, TEXT),
    ("application/vnd.sun.xml.writer.global", fmt.SXW, TEXT),
    ("application/vnd.sun.xml.calc.template", fmt.SXC, CELLS),
])
def test_templates_and_master_documents_are_read_as_their_kind(declared: str, mime: str,
                                                               body: str) -> None:
    data = openoffice_1(declared, "text", body)
    document = goblin_core.extract(data, name="modelo")
    assert document.mime == mime and PHRASE in document.text


def test_a_long_text_is_read_as_it_parses() -> None:
    paragraph = f"<text:p>{PHRASE} e mais texto para encher a linha.</text:p>"
    count = STREAM_XML_FROM // len(paragraph.encode()) + 1000
    data = openoffice_1(fmt.SXW, "text", paragraph * count)
    document = goblin_core.extract(data, name="longo.sxw")
    assert document.text.count(PHRASE) == count
