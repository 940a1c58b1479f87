"""Hostile RTF, dBASE, XPS, Visio, EPUB and ODF objects: small files that would cost a lot.

A few bytes repeated (a page named again, a group opened again, a field of no
width) must not make the reader spell out the same text thousands of times or
hold a state a byte: each ends in seconds and bounded memory, read in part
with the cut said, or read once.
"""

from __future__ import annotations

import base64
import io
import os
import random
import struct
import time
import zipfile

import pytest
from bounds import bounded
from packages import vsdx, xps, zip_bytes

import goblin_core
import samples
from goblin_core import default_registry
from goblin_core.source import Source
from goblin_office.odfobjects import odf_children
from goblin_office.rtftext import read_rtf


def _members(package: bytes) -> dict[str, bytes | str]:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def _incompressible_text(size: int) -> str:
    """Text that does not compress, so the container's ratio check lets it through."""
    return base64.b64encode(os.urandom(size * 3 // 4)).decode()


_PAGE_TEXT = "Relatorio trimestral de despesas " * 300  # about 10,000 characters
_REPEATS = 5000

# -- parts named many times ------------------------------------------------------------


def test_an_xps_page_named_thousands_of_times_is_read_once(read) -> None:  # type: ignore[no-untyped-def]
    xps_ns = "http://schemas.microsoft.com/xps/2005/06"
    members = _members(xps([f'<Glyphs OriginX="0" OriginY="10" UnicodeString="{_PAGE_TEXT}"/>']))
    members["FixedDocSeq.fdseq"] = (
        f'<FixedDocumentSequence xmlns="{xps_ns}">'
        + '<DocumentReference Source="/Documents/1/FixedDoc.fdoc"/>' * 20
        + "</FixedDocumentSequence>"
    )
    members["Documents/1/FixedDoc.fdoc"] = (
        f'<FixedDocument xmlns="{xps_ns}">'
        + '<PageContent Source="Pages/1.fpage"/>' * 100
        + "</FixedDocument>"
    )
    with bounded(seconds=10, megabytes=100):
        document = read(zip_bytes(members), "repetido.xps")
    assert len(document.pages) == 1
    assert document.text.count("Relatorio trimestral") == 300


def test_a_visio_page_named_thousands_of_times_is_read_once(read) -> None:  # type: ignore[no-untyped-def]
    visio_ns = "http://schemas.microsoft.com/office/visio/2012/main"
    rels_ns = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    members = _members(vsdx([("Planta", f'<Shape ID="1"><Text>{_PAGE_TEXT}</Text></Shape>')]))
    members["visio/pages/pages.xml"] = (
        f'<Pages xmlns="{visio_ns}" xmlns:r="{rels_ns}">'
        + '<Page ID="1" Name="Planta"><Rel r:id="rId1"/></Page>' * _REPEATS
        + "</Pages>"
    )
    with bounded(seconds=10, megabytes=100):
        document = read(zip_bytes(members), "repetido.vsdx")
    assert [page.label for page in document.pages] == ["Planta"]
    assert document.text.count("Relatorio trimestral") == 300


def test_visio_text_nested_in_text_is_spelled_out_once(read) -> None:  # type: ignore[no-untyped-def]
    words = _incompressible_text(200_000)
    shape = '<Shape ID="1">' + "<Text>" * 200 + words + "</Text>" * 200 + "</Shape>"
    with bounded(seconds=10, megabytes=100):
        document = read(vsdx([("Planta", shape)]), "aninhado.vsdx")
    assert document.text.count(words) == 1


def test_an_epub_chapter_the_spine_names_thousands_of_times_is_read_once(read) -> None:  # type: ignore[no-untyped-def]
    members = _members(samples.sample_epub()[0])
    members["OEBPS/c1.xhtml"] = (
        '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
        f"<head><title>c1</title></head><body><p>{_PAGE_TEXT}</p></body></html>"
    )
    members["OEBPS/book.opf"] = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
        "<metadata/><manifest>"
        '<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine>'
        + '<itemref idref="c1"/>' * _REPEATS
        + "</spine></package>"
    )
    with bounded(seconds=10, megabytes=100):
        document = read(zip_bytes(members), "repetido.epub")
    assert len(document.pages) == 1
    assert document.text.count("Relatorio trimestral") == 300


def _book_of(chapters: dict[str, bytes | str], encrypted: dict[str, str]) -> bytes:
    """The sample EPUB with ``chapters`` (name -> content) in its spine, and the
    ``encrypted`` ones (name -> algorithm) listed in META-INF/encryption.xml."""
    members = _members(samples.sample_epub()[0])
    del members["OEBPS/c1.xhtml"]
    items = "".join(f'<item id="i{n}" href="{name}" media-type="application/xhtml+xml"/>'
                    for n, name in enumerate(chapters))
    refs = "".join(f'<itemref idref="i{n}"/>' for n in range(len(chapters)))
    members["OEBPS/book.opf"] = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
        f"<metadata/><manifest>{items}</manifest><spine>{refs}</spine></package>")
    members.update({f"OEBPS/{name}": data for name, data in chapters.items()})
    entries = "".join(
        '<enc:EncryptedData><enc:EncryptionMethod Algorithm="' + method + '"/>'
        f'<enc:CipherData><enc:CipherReference URI="OEBPS/{name}"/></enc:CipherData>'
        "</enc:EncryptedData>" for name, method in encrypted.items())
    if encrypted:
        members["META-INF/encryption.xml"] = (
            '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:'
            f'container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">{entries}</encryption>')
    return zip_bytes(members)


def _chapter(text: str) -> str:
    return (f'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>{text}</p></body></html>')


_AES = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"


def test_an_epub_under_drm_is_refused_and_its_encrypted_chapters_left_out(read) -> None:  # type: ignore[no-untyped-def]
    noise = os.urandom(4000)
    locked = _book_of({"c1.xhtml": noise, "c2.xhtml": noise}, {"c1.xhtml": _AES, "c2.xhtml": _AES})
    with pytest.raises(goblin_core.PasswordRequired, match=r"DRM-protected.*aes128-cbc"):
        read(locked, "trancado.epub")
    half = _book_of({"c1.xhtml": noise, "c2.xhtml": _chapter("Capítulo dois em claro.")},
                    {"c1.xhtml": _AES})
    document = read(half, "metade.epub")
    assert document.text.strip() == "Capítulo dois em claro."
    assert [(w.kind, w.message) for w in document.report.warnings] == [(
        "Encrypted", "1 of the book's 2 documents are encrypted (DRM, aes128-cbc) and left out: "
        "OEBPS/c1.xhtml"), (
        "Truncated", "1 of the book's documents could not be read: OEBPS/c1.xhtml (see the "
        "warnings)")]


def test_an_epub_whose_fonts_alone_are_obfuscated_reads_in_full(read) -> None:  # type: ignore[no-untyped-def]
    fonts = _book_of({"c1.xhtml": _chapter("Texto com fonte embutida.")},
                     {"fonte.otf": "http://www.idpf.org/2008/embedding"})
    document = read(fonts, "fontes.epub")
    assert document.text.strip() == "Texto com fonte embutida."
    assert not document.report.warnings


def test_an_epub_chapter_of_binary_noise_is_left_out_not_read_as_text(read) -> None:  # type: ignore[no-untyped-def]
    book = _book_of({"c1.xhtml": b"\x00\x01\x02" + os.urandom(4000),
                     "c2.xhtml": _chapter("Capítulo legível.")}, {})
    document = read(book, "ruido.epub")
    assert document.text.strip() == "Capítulo legível."
    [warning, lost] = document.report.warnings
    assert warning.kind == "CorruptDocument"
    assert warning.message.startswith("OEBPS/c1.xhtml: binary content, not an XHTML document")
    assert (lost.kind, lost.message) == (
        "Truncated", "1 of the book's documents could not be read: OEBPS/c1.xhtml (see the "
        "warnings)")


@pytest.mark.parametrize("name", ["ruido.csv", "ruido.json", "ruido.md", "ruido.html"])
def test_binary_noise_named_as_a_text_format_is_refused(read, name: str) -> None:  # type: ignore[no-untyped-def]
    # every byte but NUL: the old check looked for a NUL alone, and read this as clean text
    noise = bytes((i * 97) % 255 + 1 for i in range(5000))
    with pytest.raises(goblin_core.CorruptDocument, match="binary content"):
        read(noise, name)


# -- ODF objects -----------------------------------------------------------------------

_MANIFEST_NS = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"
_ODT_KIND = "application/vnd.oasis.opendocument.text"


def _odt_with_objects(objects: dict[str, bytes], entries: list[tuple[str, str]]) -> bytes:
    members = _members(samples.sample_odt()[0])
    members.update(objects)
    members["META-INF/manifest.xml"] = (
        f'<?xml version="1.0"?><manifest:manifest xmlns:manifest="{_MANIFEST_NS}" '
        'manifest:version="1.2">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{_ODT_KIND}"/>'
        + "".join(
            f'<manifest:file-entry manifest:full-path="{path}" manifest:media-type="{kind}"/>'
            for path, kind in entries
        )
        + "</manifest:manifest>"
    )
    return zip_bytes(members)


def test_an_odf_object_the_manifest_names_thousands_of_times_is_one_child() -> None:
    blob = os.urandom(1 << 20)
    data = _odt_with_objects(
        {"Object 2": blob}, [("Object 2", "application/octet-stream")] * 2000
    )
    with bounded(seconds=10, megabytes=50):
        found = odf_children(Source.from_bytes(data, "objetos.odt"), default_registry().config())
    assert [child.bytes() for child in found] == [blob]


def test_odf_documents_nested_in_documents_are_not_packed_into_each_other() -> None:
    depth = 100
    folders = ["/".join(["Object 1"] * level) + "/" for level in range(1, depth + 1)]
    content = samples.sample_odt()[0]
    inner = _members(content)["content.xml"]
    objects: dict[str, bytes] = {f"{folder}content.xml": inner for folder in folders}
    blob = os.urandom(1 << 20)
    objects[f"{folders[-1]}Pictures/foto.bin"] = blob
    data = _odt_with_objects(objects, [(folder, _ODT_KIND) for folder in folders])
    with bounded(seconds=10, megabytes=100):
        found = odf_children(Source.from_bytes(data, "aninhado.odt"), default_registry().config())
    assert len(found) == depth
    assert sum(len(child.bytes()) for child in found) < 3 << 20


# -- RTF -------------------------------------------------------------------------------


def test_rtf_groups_opened_deep_cost_no_state_each(read) -> None:  # type: ignore[no-untyped-def]
    data = b"{\\rtf1\\ansi Antes " + b"{" * 300_000 + b"Dentro"
    # a state a group was over 150 bytes a brace: 45 MB here
    with bounded(seconds=60, megabytes=20):
        document = read(data, "profundo.rtf")
    assert "Antes" in document.text and "Dentro" in document.text
    assert "limits.max_xml_depth" in document.raw_metadata["truncated"]
    assert any("max_xml_depth" in w.message for w in document.report.warnings)


def test_rtf_groups_past_the_depth_limit_keep_the_text_around_them() -> None:
    data = b"{\\rtf1 a{{{{{{b}}}}}}c{\\b d}e}"
    content = read_rtf(data, max_depth=3)
    assert content.text == "abcde"
    assert content.cuts and "3" in content.cuts[0]
    assert read_rtf(data).cuts == []


def test_an_rtf_font_name_of_a_million_lines_is_not_searched_whole_each_line() -> None:
    data = b"{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 " + b"a\n" * 1_000_000 + b";}}Texto}"
    started = time.monotonic()
    content = read_rtf(data)
    # searched whole each line, the name took over a minute
    assert time.monotonic() - started < 15
    assert content.text == "Texto"


def test_rtf_symbol_fonts_are_still_known_by_name() -> None:
    data = b"{\\rtf1\\ansi{\\fonttbl{\\f1\\fcharset2 Sym\nbol;}}{\\f1 \\'61}}"
    assert read_rtf(data).text == "\u03b1"


def test_a_run_of_rtf_unicode_escapes_costs_about_its_text() -> None:
    count = 100_000
    data = b"{\\rtf1\\ansi " + b"\\u1234?" * count + b"}"
    # a string object a character was over 90 bytes a character: 9 MB here
    with bounded(seconds=15, megabytes=3):
        content = read_rtf(data)
    assert content.text == chr(1234) * count


def _random_bytes(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


def test_a_picture_of_raw_bytes_after_bin_is_skipped_braces_and_all(read) -> None:  # type: ignore[no-untyped-def]
    payload = _random_bytes(20_000, 7) + b"}}{{"  # raw bytes: braces in them are not groups
    data = (b"{\\rtf1\\ansi Antes da figura {\\pict\\pngblip\\bin%d " % len(payload)
            + payload + b"} depois dela.\\par}")
    document = read(data, "figura.rtf")
    assert " ".join(document.text.split()) == "Antes da figura depois dela."


def test_an_rtf_header_over_random_bytes_is_refused_not_read_as_clean_text(read) -> None:  # type: ignore[no-untyped-def]
    # no NUL and no \bin: the bytes land in the text as if they were words
    payload = _random_bytes(20_000, 3).replace(b"\x00", b" ")
    with pytest.raises(goblin_core.CorruptDocument, match="binary data where its text should be"):
        read(b"{\\rtf1\\ansi " + payload + b"}", "ruido.rtf")


# -- dBASE -----------------------------------------------------------------------------


def _dbf(fields: list[tuple[str, int]], records: list[bytes]) -> bytes:
    record_length = 1 + sum(width for _, width in fields)
    header = struct.pack(
        "<BBBBIHH20x", 3, 124, 3, 15, len(records), 32 + 32 * len(fields) + 1, record_length
    )
    descriptors = b"".join(
        name.encode().ljust(11, b"\x00") + b"C" + bytes(4) + bytes([width, 0]) + bytes(14)
        for name, width in fields
    )
    return header + descriptors + b"\r" + b"".join(b" " + r for r in records) + b"\x1a"


def test_dbf_fields_of_no_width_do_not_make_every_byte_a_record(read) -> None:  # type: ignore[no-untyped-def]
    fields = [("NOME", 10)] + [(f"V{n}", 0) for n in range(1900)]
    data = _dbf(fields, [b"Joana".ljust(10)] * 300)
    with bounded(seconds=10, megabytes=100):
        document = read(data, "largura-zero.dbf")
    (table,) = document.tables
    assert list(table.rows[0]) == ["NOME"] and list(table.rows[1]) == ["Joana"]
    assert len(table.rows) == 301


def test_dbf_records_past_max_sheet_cells_are_cut_and_said(read) -> None:  # type: ignore[no-untyped-def]
    data = _dbf([("A", 1), ("B", 1)], [b"xy"] * 5000)
    document = read(data, "muitos.dbf", office={"max_sheet_cells": 1000})
    (table,) = document.tables
    assert len(table.rows) == 1 + 500
    assert "max_sheet_cells" in document.raw_metadata["truncated"]
    assert any("max_sheet_cells" in w.message for w in document.report.warnings)


@pytest.mark.parametrize("limit", [30, 1_000_000])
def test_dbf_text_past_max_output_chars_is_cut(read, limit: int) -> None:  # type: ignore[no-untyped-def]
    data = _dbf([("A", 10)], [b"abcdefghij"] * 10)
    document = read(data, "texto.dbf", max_output_chars=limit)
    rows = document.tables[0].rows
    assert len(rows) == (1 + 3 if limit == 30 else 1 + 10)


def test_a_dbf_cut_short_keeps_its_records_and_says_it_is_truncated(read) -> None:  # type: ignore[no-untyped-def]
    whole = _dbf([("NOME", 10)], [b"Joana".ljust(10), b"Pedro".ljust(10), b"Ana".ljust(10)])
    # the header counts 2**31 - 1 records; the file holds the three
    cut = whole[:4] + struct.pack("<I", 2**31 - 1) + whole[8:]
    document = read(cut, "cortado.dbf")
    assert [list(row) for row in document.tables[0].rows] == [["NOME"], ["Joana"], ["Pedro"],
                                                                ["Ana"]]
    assert [(w.kind, w.message) for w in document.report.warnings] == [
        ("CorruptDocument",
         "the header declares 2,147,483,647 records but the file holds 3: it is truncated"),
        ("Truncated", "the records after record 3 are lost")]
    assert document.report.truncated
    whole_document = read(whole, "inteiro.dbf")
    assert not whole_document.report.warnings and not whole_document.report.truncated


def test_xps_runs_on_one_baseline_are_joined_once(read) -> None:  # type: ignore[no-untyped-def]
    count = 300_000
    words = _incompressible_text(12 * count)
    runs = [words[n * 12 : (n + 1) * 12] for n in range(count)]
    page = "".join(
        f'<Glyphs OriginX="{n}" OriginY="10" UnicodeString="{run}"/>' for n, run in enumerate(runs)
    )
    started = time.monotonic()
    document = read(xps([page]), "linha.xps")
    # a line grown a run at a time took 90 s here
    assert time.monotonic() - started < 30
    assert document.text.split() == runs
