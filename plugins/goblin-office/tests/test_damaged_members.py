"""A package member that does not inflate costs what it holds, not the whole document.

Each test breaks one member's deflate stream (``packages.damaged``): zipfile still
lists it and fails only when it is read, with zlib.error, which is no OSError.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable

import pytest
from packages import damaged, docx, para, zip_bytes

import goblin_core
import samples
from goblin_core import Document
from goblin_core.testing.corpus import corpus_dir

Read = Callable[..., Document]


def _warned(document: Document, member: str) -> bool:
    return any(member in w.message and w.kind == "CorruptDocument"
               for w in document.report.warnings)


@pytest.mark.parametrize("member", ["word/styles.xml", "word/header1.xml", "word/footer1.xml",
                                    "docProps/core.xml", "word/_rels/document.xml.rels"])
def test_a_damaged_docx_part_the_body_does_not_stand_on_leaves_the_body(
    read: Read, member: str
) -> None:
    data, name = samples.sample_docx()
    whole = read(data, name)
    document = read(damaged(data, member), name)
    assert document.parsed_by == ("office.docx",)
    assert samples.PHRASE in document.text
    assert "Cimento" in document.text
    if member.startswith("word/") and not member.endswith(".rels"):
        assert _warned(document, member)
    assert len(document.text) <= len(whole.text)


def test_a_docx_whose_package_relationships_are_damaged_is_read_from_its_content_types(
    read: Read,
) -> None:
    data, name = samples.sample_docx()
    document = read(damaged(data, "_rels/.rels"), name)
    assert samples.PHRASE in document.text


def test_a_docx_body_damaged_midway_keeps_the_text_before_the_damage(read: Read) -> None:
    # a deflate stream decodes in order: what comes before the damage still inflates
    body = "".join(para(f"Parágrafo {n} do memorial descritivo, item {n}.")
                   for n in range(1, 2001))
    data = docx(body)
    document = read(damaged(data, "word/document.xml", at=0.5), "memorial.docx")
    assert document.parsed_by == ("office.docx_salvage",)
    lines = document.text.splitlines()
    assert lines[0] == "Parágrafo 1 do memorial descritivo, item 1."
    assert 50 < len(lines) < 2000
    assert document.raw_metadata["salvaged"] is True
    assert _warned(document, "word/document.xml")


def test_a_damaged_docx_body_is_a_clear_error_naming_it(read: Read) -> None:
    data, name = samples.sample_docx()
    with pytest.raises(goblin_core.CorruptDocument,
                       match=r"member 'word/document.xml' cannot be read \(Error -3"):
        read(damaged(data, "word/document.xml"), name)


def test_a_damaged_embedded_object_leaves_the_docx_text(read: Read) -> None:
    data = docx(para("Texto antes do objeto"), {})
    members = {"word/embeddings/oleObject1.bin": b"objeto " * 500}
    package = zip_bytes({**_members(data), **members})
    document = read(damaged(package, "word/embeddings/oleObject1.bin"), "objeto.docx")
    assert document.text.strip() == "Texto antes do objeto"
    assert not document.children


def test_a_damaged_sheet_costs_that_sheet_only(read: Read) -> None:
    data, name = samples.sample_xlsx()
    document = read(damaged(data, "xl/worksheets/sheet2.xml"), name)
    assert document.parsed_by == ("office.calamine",)
    assert [(p.label, p.status) for p in document.pages] == [
        ("Planilha", "clean"), ("Resumo", "failed")]
    assert samples.PHRASE in document.pages[0].text
    assert document.status == "partially_recovered"


@pytest.mark.parametrize("member", ["xl/styles.xml", "xl/theme/theme1.xml", "docProps/app.xml"])
def test_a_damaged_workbook_part_the_cells_do_not_stand_on_leaves_every_sheet(
    read: Read, member: str
) -> None:
    # calamine refuses the whole workbook over a damaged styles part
    data, name = samples.sample_xlsx()
    document = read(damaged(data, member), name)
    assert document.parsed_by == ("office.calamine",)
    assert [(p.label, p.status) for p in document.pages] == [
        ("Planilha", "clean"), ("Resumo", "clean")]
    assert samples.PHRASE in document.text and "Total geral" in document.text
    if member == "xl/styles.xml":  # the only one of them a reader opens
        assert _warned(document, member)


@pytest.mark.parametrize("sample", [samples.sample_odt, samples.sample_ods, samples.sample_odp])
@pytest.mark.parametrize("member", ["styles.xml", "META-INF/manifest.xml", "meta.xml"])
def test_a_damaged_odf_part_other_than_content_leaves_the_text(
    read: Read, sample: Callable[[], tuple[bytes, str]], member: str
) -> None:
    data, name = sample()
    document = read(damaged(data, member), name)
    assert samples.PHRASE in document.text
    if member != "META-INF/manifest.xml":
        assert _warned(document, member)


def test_a_damaged_epub_chapter_costs_that_chapter_only(read: Read) -> None:
    data, name = samples.sample_epub()
    members = _members(data)
    members["OEBPS/c2.xhtml"] = members["OEBPS/c1.xhtml"].replace(
        samples.PHRASE.encode(), "Segundo capítulo".encode())
    members["OEBPS/book.opf"] = members["OEBPS/book.opf"].replace(
        b"</manifest>", b'<item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>'
        b"</manifest>").replace(b"</spine>", b'<itemref idref="c2"/></spine>')
    book = zip_bytes(members)
    assert "Segundo capítulo" in read(book, name).text
    document = read(damaged(book, "OEBPS/c1.xhtml"), name)
    assert "Segundo capítulo" in document.text
    assert samples.PHRASE not in document.text
    assert _warned(document, "OEBPS/c1.xhtml")


@pytest.mark.parametrize("member", ["ppt/slideLayouts/slideLayout2.xml", "ppt/theme/theme1.xml",
                                    "ppt/slideMasters/slideMaster1.xml", "docProps/core.xml",
                                    "ppt/notesMasters/notesMaster1.xml"])
def test_a_damaged_pptx_part_no_slide_text_is_in_leaves_every_slide(
    read: Read, member: str
) -> None:
    # python-pptx loads every part before it reads one
    data, name = samples.sample_pptx()
    whole = read(data, name)
    document = read(damaged(data, member), name)
    # every line is read; a layout or master lost takes the placeholders' positions,
    # so the reading order may change
    assert sorted(document.text.splitlines()) == sorted(whole.text.splitlines())
    assert _warned(document, member)


def test_a_damaged_slide_is_a_failed_page_and_the_others_keep_their_numbers(
    read: Read,
) -> None:
    from pptx import Presentation

    deck = Presentation()
    for title in ("Primeiro", "Segundo", "Terceiro"):
        deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = title
    buffer = io.BytesIO()
    deck.save(buffer)
    document = read(damaged(buffer.getvalue(), "ppt/slides/slide2.xml"), "tres.pptx")
    assert [(p.number, p.status, p.text.strip()) for p in document.pages] == [
        (1, "clean", "Primeiro"), (2, "failed", ""), (3, "clean", "Terceiro")]
    assert _warned(document, "ppt/slides/slide2.xml")


@pytest.mark.parametrize(("sample", "member"), [
    (samples.sample_pptx, "[Content_Types].xml"),
    (samples.sample_pptx, "ppt/presentation.xml"),
    (samples.sample_pptx, "ppt/_rels/presentation.xml.rels"),
    (samples.sample_xlsx, "xl/_rels/workbook.xml.rels"),
])
def test_a_damaged_part_a_document_cannot_do_without_is_a_clear_error_naming_it(
    read: Read, sample: Callable[[], tuple[bytes, str]], member: str
) -> None:
    data, name = sample()
    with pytest.raises(goblin_core.CorruptDocument, match=re.escape(member)):
        read(damaged(data, member), name)


def _members(package: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


@pytest.mark.parametrize(("sample", "mime"), [
    (samples.sample_epub, "application/epub+zip"),
    (samples.sample_odt, "application/vnd.oasis.opendocument.text"),
])
def test_a_package_whose_mimetype_member_is_damaged_is_known_by_its_manifest_or_container(
    read: Read, sample: Callable[[], tuple[bytes, str]], mime: str
) -> None:
    # some writers deflate the mimetype member; under a name that says nothing, the
    # package's other members still tell what it is
    data, _name = sample()
    package = zip_bytes(_members(data))
    document = read(damaged(package, "mimetype"), "anexo.bin")
    assert document.mime == mime
    assert samples.PHRASE in document.text


def test_an_encrypted_odf_package_whose_manifest_is_damaged_says_so(read: Read) -> None:
    # what decrypts each member is in the manifest: without it the content is noise
    path = corpus_dir(__file__) / "office" / "testODTEncrypted.odt"
    with pytest.raises(goblin_core.CorruptDocument,
                       match=r"META-INF/manifest\.xml.*content\.xml is not XML: the package is "
                             r"encrypted"):
        read(damaged(path.read_bytes(), "META-INF/manifest.xml"), "cifrado.odt",
             password="tika")
