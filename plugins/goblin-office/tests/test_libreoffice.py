"""office.libreoffice, the engine of last resort: it reads the Word, OpenDocument and RTF
files the other engines refused, and refuses what LibreOffice would only turn into
stray characters."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from packages import docx, para, rewrite

import samples
from goblin_core import Source, default_registry, extract
from goblin_core.config import Config
from goblin_core.errors import CorruptDocument, GoblinError
from goblin_core.testing.corpus import corpus_dir, require_binary
from goblin_office.libreoffice import LibreOfficeParser, _import_filter

_ODF_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


@pytest.fixture(scope="module")
def config() -> Config:
    return default_registry().config()


def _source(data: bytes, name: str) -> Source:
    return Source.from_bytes(data, display_name=name)


def _word6() -> Path:
    return Path(corpus_dir(__file__)) / "office/testWORD6.doc"


@pytest.mark.parametrize(("data", "name", "expected"), [
    (samples.sample_docx()[0], "edital.docx", "MS Word 2007 XML"),
    (samples.sample_odt()[0], "edital.odt", "writer8"),
    (samples.flat_odf("text", "<text:p>Edital</text:p>"), "edital.fodt",
     "OpenDocument Text Flat XML"),
    (b"{\\rtf1\\ansi Edital\\par}", "edital.rtf", "Rich Text Format"),
])
def test_the_import_filter_of_each_container_is_forced(data: bytes, name: str, expected: str,
                                                       config: Config) -> None:
    assert _import_filter(_source(data, name), config) == expected


def test_a_word_binary_file_is_left_to_libreoffices_detection(config: Config) -> None:
    """Word 97 and Word 6 or 95 need different filters, which LibreOffice tells apart."""
    assert _import_filter(Source.from_path(_word6()), config) == ""


@pytest.mark.parametrize(("data", "name"), [
    (random.Random(7).randbytes(3000), "ruido.doc"),
    (b"Just a few lines of plain text\nnamed as a Word file.\n", "notas.docx"),
    (b"<html><body><p>A web page</p></body></html>", "pagina.odt"),
])
def test_what_libreoffice_would_import_as_plain_text_is_refused_before_it_runs(
        data: bytes, name: str) -> None:
    """LibreOffice imports any file it does not recognise as plain text: random bytes come
    out as a page of CJK characters. No soffice is started for them: the one configured
    here does not exist, and starting it would raise FileNotFoundError."""
    absent = default_registry().config(office={"libreoffice": "soffice-that-must-not-run"})
    with pytest.raises(CorruptDocument, match=f"^{name}: not a Word, OpenDocument or RTF"):
        LibreOfficeParser().open(_source(data, name), absent)


def test_libreoffice_reads_a_word6_document(config: Config) -> None:
    require_binary("soffice", "libreoffice-writer-nogui")
    document = LibreOfficeParser().open(Source.from_path(_word6()), config)
    text = "".join(page.text for page in document.pages())
    assert "The quick brown fox jumps over the lazy dog" in text


def test_an_odt_libreoffice_reads_no_text_from_is_refused(config: Config) -> None:
    """A document without a text body comes out of LibreOffice empty: the engine of last
    resort read nothing, which is a failure, not an empty document."""
    require_binary("soffice", "libreoffice-writer-nogui")
    content = (f'<office:document-content xmlns:office="{_ODF_OFFICE}"><office:body>'
               "<office:drawing/></office:body></office:document-content>")
    data = rewrite(samples.sample_odt()[0], {"content.xml": content.encode()})
    with pytest.raises(CorruptDocument, match="LibreOffice read no text from it"):
        LibreOfficeParser().open(_source(data, "nobody.odt"), config)


def test_a_docx_past_the_xml_depth_limit_is_not_handed_to_libreoffice() -> None:
    """The depth limit is a verdict on the file: no parser after office.docx reads it, and
    the error names the limit."""
    require_binary("soffice", "libreoffice-writer-nogui")
    nested = "<w:sdt><w:sdtContent>" * 40 + para("fundo") + "</w:sdtContent></w:sdt>" * 40
    with pytest.raises(GoblinError, match="max_xml_depth") as caught:
        extract(docx(nested), name="fundo.docx", ocr="never", limits={"max_xml_depth": 32})
    assert "office.libreoffice" not in str(caught.value)
