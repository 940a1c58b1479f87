"""An OOXML package whose ``[Content_Types].xml`` was lost is still the document it was.

A tool that rewrote the zip and dropped the member with brackets in its name leaves
every part in place. Read as a plain zip, such a docx came out as a dump of its XML
parts, styles and settings included, and python-pptx refused such a pptx outright.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable

import pytest

from goblin_core import Document
from goblin_core.source import Source
from goblin_office.content_types import CONTENT_TYPES, rebuilt_content_types
from goblin_office.sniffing import ContainerSniffer

Read = Callable[..., Document]


def _docx() -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph("Parecer técnico sobre a licitação")
    document.sections[0].header.paragraphs[0].text = "Cabeçalho da prefeitura"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _xlsx() -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.active["A1"] = "Quantidade"
    workbook.active["B1"] = 1250
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _pptx() -> bytes:
    from pptx import Presentation

    deck = Presentation()
    for number in (1, 2):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = f"Slide número {number}"
    deck.slides[0].notes_slide.notes_text_frame.text = "Nota do orador"
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def _without(package: bytes, member: str = CONTENT_TYPES,
             renamed: dict[str, str] | None = None) -> bytes:
    """``package`` without ``member``, its other members renamed by ``renamed`` (and the
    names replaced in every relationships part)."""
    renamed = renamed or {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, \
            zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as copy:
        for name in source.namelist():
            if name == member:
                continue
            body = source.read(name)
            if name.endswith(".rels"):
                for old, new in renamed.items():
                    body = body.replace(old.encode(), new.encode())
            copy.writestr(renamed.get(name, name), body)
    return buffer.getvalue()


def _overrides(types: bytes) -> dict[str, str]:
    return dict(re.findall(r'PartName="/([^"]+)" ContentType="([^"]+)"', types.decode()))


@pytest.mark.parametrize("make", [_docx, _xlsx, _pptx])
def test_the_rebuilt_content_types_are_those_the_writer_declared(
        make: Callable[[], bytes]) -> None:
    """Every part of a type the standard defines; Microsoft's extension parts
    (``stylesWithEffects``) are typed by their extension, as nothing reads them."""
    with zipfile.ZipFile(io.BytesIO(make())) as package:
        names = package.namelist()
        declared = {part: kind for part, kind in _overrides(package.read(CONTENT_TYPES)).items()
                    if kind.startswith("application/vnd.openxmlformats")}
        relationships = {name: package.read(name) for name in names if name.endswith(".rels")}
    rebuilt = _overrides(rebuilt_content_types(names, relationships))
    assert declared
    assert {part: rebuilt.get(part) for part in declared} == declared


def test_a_docx_without_content_types_is_read_as_a_docx(read: Read) -> None:
    document = read(_without(_docx()), "parecer.docx")
    assert document.mime.endswith("wordprocessingml.document")
    assert "Parecer técnico sobre a licitação" in document.text
    assert "Cabeçalho da prefeitura" in document.text
    assert not document.children
    assert "Normal" not in document.text  # the styles part is no text of the document


def test_a_docx_whose_main_part_only_its_relationships_name_is_read(read: Read) -> None:
    package = _without(_docx(), renamed={"word/document.xml": "word/corpo.xml",
                                         "word/_rels/document.xml.rels":
                                             "word/_rels/corpo.xml.rels"})
    document = read(package, "parecer.bin")
    assert document.mime.endswith("wordprocessingml.document")
    assert "Parecer técnico sobre a licitação" in document.text


def test_an_xlsx_without_content_types_is_read_as_a_workbook(read: Read) -> None:
    document = read(_without(_xlsx()), "planilha.xlsx")
    assert document.mime.endswith("spreadsheetml.sheet")
    assert "Quantidade" in document.text and "1250" in document.text


def test_a_pptx_without_content_types_reads_every_slide_and_its_notes(read: Read) -> None:
    document = read(_without(_pptx()), "apresentacao.pptx")
    assert document.mime.endswith("presentationml.presentation")
    assert document.parsed_by == ("office.pptx",)
    assert "Slide número 1" in document.text and "Slide número 2" in document.text
    assert "Nota do orador" in document.text
    assert not document.report.errors


def test_a_zip_that_only_looks_like_a_package_stays_an_archive() -> None:
    """Relationships that name no main part make no office document: the zip is left to
    the archive handlers (not installed in this plugin's own test session)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("_rels/.rels", "<Relationships/>")
        archive.writestr("notes.txt", "just a text file in a zip")
    data = buffer.getvalue()
    assert ContainerSniffer().sniff(data, Source.from_bytes(data, "bundle.zip")) is None
