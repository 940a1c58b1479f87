"""Title, author and dates of 97-2003 files (the compound file's property streams) and of
workbooks (docProps/core.xml), whichever engine reads the text."""

from __future__ import annotations

import io
import struct
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import olefile
import pytest
from bounds import bounded
from packages import compound_file, ppt_record

import samples
from goblin_core.testing.corpus import corpus_dir, require_binary

SUMMARY = "\x05SummaryInformation"
# FMTID_SummaryInformation, F29F85E0-4FF9-1068-AB91-08002B27B3D9, as stored
_SUMMARY_FMTID = bytes.fromhex("E0859FF2F94F6810AB9108002B27B3D9")
_PID_CODEPAGE, _PID_TITLE, _PID_AUTHOR, _PID_CREATED = 1, 2, 4, 12
_VT_I2, _VT_LPSTR, _VT_FILETIME = 2, 0x1E, 0x40
_FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)


def summary_information(codepage: int, title: bytes, author: bytes,
                        created: datetime | None) -> bytes:
    """A SummaryInformation property set: its code page, title, author and creation time."""
    def text(value: bytes) -> bytes:
        data = value + b"\0"
        return struct.pack("<II", _VT_LPSTR, len(data)) + data.ljust(-(-len(data) // 4) * 4,
                                                                   b"\0")

    values = [(_PID_CODEPAGE, struct.pack("<Ihxx", _VT_I2, codepage)),
              (_PID_TITLE, text(title)), (_PID_AUTHOR, text(author))]
    if created is not None:
        ticks = int((created - _FILETIME_EPOCH).total_seconds()) * 10_000_000
        values.append((_PID_CREATED, struct.pack("<IQ", _VT_FILETIME, ticks)))
    table_size = 8 + 8 * len(values)
    offsets, body = [], b""
    for pid, value in values:
        offsets.append(struct.pack("<II", pid, table_size + len(body)))
        body += value
    section = struct.pack("<II", table_size + len(body), len(values)) + b"".join(offsets) + body
    header = struct.pack("<HHI16sI", 0xFFFE, 0, 0x00020006, bytes(16), 1)
    return header + _SUMMARY_FMTID + struct.pack("<I", 48) + section


def _deck(**streams: bytes) -> bytes:
    """A one-slide PowerPoint 97-2003 file saying "Cronograma de obras", and ``streams``."""
    persist = ppt_record(0x03F3, bytes(20))  # SlidePersistAtom
    masters = ppt_record(0x0FF0, persist, instance=1, container=True)
    slides = ppt_record(0x0FF0, persist, instance=0, container=True)
    document_records = ppt_record(0x03E8, masters + slides, container=True)
    words = "Cronograma de obras".encode("utf-16-le")
    shape = ppt_record(0xF004, ppt_record(0x0FA0, words), container=True)
    drawing = ppt_record(0x040C, ppt_record(0xF002, shape, container=True), container=True)
    slide = ppt_record(0x03EE, drawing, container=True)
    return compound_file({"Current User": bytes(20),
                          "PowerPoint Document": document_records + slide, **streams})


def _with_core_properties(package: bytes, title: str, author: str) -> bytes:
    """The OOXML ``package`` with a docProps/core.xml saying ``title`` and ``author``."""
    core = ('<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties '
            'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f"<dc:title>{title}</dc:title><dc:creator>{author}</dc:creator>"
            "</cp:coreProperties>")
    link = ('<Relationship Id="rIdCore" Target="docProps/core.xml" Type="http://schemas.'
            'openxmlformats.org/package/2006/relationships/metadata/core-properties"/>')
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as old, zipfile.ZipFile(out, "w") as new:
        for item in old.infolist():
            data = old.read(item)
            if item.filename == "_rels/.rels":
                data = data.replace(b"</Relationships>", link.encode() + b"</Relationships>")
            new.writestr(item, data)
        new.writestr("docProps/core.xml", core)
    return out.getvalue()


def _corpus(name: str) -> Path:
    return Path(corpus_dir(__file__)) / "office" / name


@pytest.mark.parametrize(("name", "engine", "binary"), [
    ("tika-testWORD.doc", "office.antiword", "antiword"),
    ("tika-testWORD.doc", "office.catdoc", "catdoc"),
    ("tika-testEXCEL.xls", "office.calamine", None),
    ("tika-testEXCEL.xls", "office.xlrd", None),
    ("tika-testEXCEL.xls", "office.xls2csv", "xls2csv"),
    ("tika-testPPT.ppt", "office.ppt_records", None),
    ("tika-testPPT.ppt", "office.catppt", "catppt"),
])
def test_every_97_2003_engine_gives_the_document_properties(
    read, name: str, engine: str, binary: str | None  # type: ignore[no-untyped-def]
) -> None:
    if binary is not None:
        require_binary(binary, "catdoc" if binary != "antiword" else "antiword")
    path = _corpus(name)
    document = read(path.read_bytes(), name, engines={engine: {"priority": 1000}})
    assert document.parsed_by[0] == engine
    assert document.metadata["author"] == "Keith Bennett"
    assert document.metadata["title"] in ("Sample Word Document", "Simple Excel document",
                                          "Sample Powerpoint Slide")
    assert document.metadata["created"].startswith("20") and document.metadata["created"][-1] == "Z"
    assert document.raw_metadata["creator"].startswith("Microsoft")


@pytest.mark.parametrize(("codepage", "encoding"), [
    (1252, "cp1252"), (-535, "utf-8"), (10000, "mac_roman"), (1251, "cp1251"),
    (4242, "cp1252"),  # a code page Python lacks: read as Windows Latin 1
])
def test_property_text_is_decoded_with_its_code_page(read, codepage: int,  # type: ignore[no-untyped-def]
                                                     encoding: str) -> None:
    title = "Licitação nº 7" if encoding != "cp1251" else "Смета на ремонт"
    author = "José Conceição" if encoding != "cp1251" else "Иван Петров"
    created = datetime(2019, 4, 25, 8, 15, tzinfo=UTC)
    stream = summary_information(codepage, title.encode(encoding), author.encode(encoding),
                                 created)
    document = read(_deck(**{SUMMARY: stream}), "obras.ppt")
    assert document.text == "Cronograma de obras"
    assert document.metadata["title"] == title
    assert document.metadata["author"] == author
    assert document.metadata["created"] == "2019-04-25T08:15:00Z"


def test_a_never_set_date_and_control_characters_are_left_out(read) -> None:  # type: ignore[no-untyped-def]
    stream = summary_information(1252, b"\x01\x02\x03", b"Ana\x07 Lima", _FILETIME_EPOCH)
    document = read(_deck(**{SUMMARY: stream}), "obras.ppt")
    assert "title" not in document.metadata and "created" not in document.metadata
    assert document.metadata["author"] == "Ana Lima"


@pytest.mark.parametrize("damage", [
    lambda stream: stream[:40],  # cut inside the section list
    lambda stream: stream[:60] + b"\xff" * (len(stream) - 60),  # a property table of garbage
    lambda stream: bytes(len(stream)),
], ids=["truncated", "garbage-table", "zeros"])
def test_a_damaged_property_stream_costs_only_the_properties(read, damage) -> None:  # type: ignore[no-untyped-def]
    stream = summary_information(1252, b"Obras", b"Ana", None)
    document = read(_deck(**{SUMMARY: damage(stream)}), "obras.ppt")
    assert document.text == "Cronograma de obras"
    assert not document.report.errors
    assert "title" not in document.metadata or document.metadata["title"] == "Obras"


def test_a_workbook_built_with_a_property_stream_keeps_both(read) -> None:  # type: ignore[no-untyped-def]
    with olefile.OleFileIO(_corpus("tika-testEXCEL.xls").read_bytes()) as ole:
        workbook = ole.openstream("Workbook").read()
    stream = summary_information(1252, b"Or\xe7amento 2024", b"Rui Costa", None)
    for engine in ("office.calamine", "office.xlrd"):
        document = read(compound_file({"Workbook": workbook, SUMMARY: stream}), "orc.xls",
                        engines={engine: {"priority": 1000}})
        assert document.parsed_by[0] == engine
        assert document.metadata["title"] == "Orçamento 2024"
        assert document.metadata["author"] == "Rui Costa"
        assert "Numbers and their Squares" in document.text


@pytest.mark.parametrize("engine", ["office.calamine", "office.openpyxl"])
def test_xlsx_core_properties_whichever_engine_reads_the_cells(read, engine: str) -> None:  # type: ignore[no-untyped-def]
    path = _corpus("testEXCEL_headers_footers.xlsx")
    document = read(path.read_bytes(), path.name, engines={engine: {"priority": 1000}})
    assert document.parsed_by[0] == engine
    assert document.metadata["title"] == "Internal spreadsheet"
    assert document.metadata["author"] == "Aeham Abushwashi"
    assert document.metadata["created"] == "2015-06-30T09:33:18Z"
    assert document.raw_metadata["last_modified_by"] == "Aeham Abushwashi"


@pytest.mark.parametrize("engine", ["office.calamine", "office.xlsb_records"])
def test_xlsb_core_properties_whichever_engine_reads_the_cells(read, engine: str) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_xlsb()
    document = read(_with_core_properties(data, "Balanço anual", "Marta Reis"), name,
                    engines={engine: {"priority": 1000}})
    assert document.parsed_by[0] == engine
    assert document.metadata["title"] == "Balanço anual"
    assert document.metadata["author"] == "Marta Reis"


def test_pptx_dates_read_as_the_other_ooxml_readers_give_them(read) -> None:  # type: ignore[no-untyped-def]
    path = _corpus("testPPT_various.pptx")
    document = read(path.read_bytes(), path.name)
    assert document.metadata["created"] == "2011-09-05T13:54:41Z"  # UTC, as docx and xlsx
    assert document.raw_metadata["keywords"] == "Keyword1 Keyword2"
    assert document.raw_metadata["last_modified_by"] == "Michael McCandless"


def test_a_property_list_longer_than_its_stream_is_never_walked(read) -> None:  # type: ignore[no-untyped-def]
    """olefile walks a list (VT_VECTOR) for as many items as it declares, through every
    error: two billion items in a few bytes held a file past any time limit."""
    stream = bytearray(summary_information(1252, b"Obras", b"Ana", None))
    title_type = stream.index(struct.pack("<I", _VT_LPSTR))  # the title, made a list
    struct.pack_into("<II", stream, title_type, 0x1000 | _VT_LPSTR, 2**31 - 1)
    with bounded(seconds=10, megabytes=300):
        document = read(_deck(**{SUMMARY: bytes(stream)}), "obras.ppt")
    assert document.text == "Cronograma de obras"
    assert "title" not in document.metadata and "author" not in document.metadata
