"""Member names in legacy encodings, and archives found by content rather than by name."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

import goblin_core
from goblin_archives.names import guess_encoding
from goblin_archives.sniffers import ArchiveSniffer
from goblin_archives.tar_header import is_tar_header
from goblin_core.source import Source


def _names(doc: goblin_core.Document) -> set[str]:
    return {m.name for m in doc.report.members if m.action == "extracted"}


def test_gbk_names_are_decoded(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/gbk.zip", ocr="never")
    assert _names(doc) == {"审计压缩包文件检索测试/集团邮件审计系统2021年自动巡检需求文档_V4.0.doc"}


def test_shift_jis_names_are_decoded(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/testZipEntryNameCharsetShiftSJIS.zip", ocr="never")
    assert _names(doc) == {"文章1.txt", "文章2.txt"}


def test_name_encoding_option_forces_the_decoding(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/testZipEntryNameCharsetShiftSJIS.zip",
                              ocr="never", archives={"name_encoding": "cp437"})
    assert "文章1.txt" not in _names(doc)
    assert len(_names(doc)) == 2


def test_rar_unicode_names_survive(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/unicode.rar", ocr="never")
    assert _names(doc) == {"уииоотивл.txt", "𝐀𝐁𝐁𝐂.txt"}


def test_legacy_tar_names_are_decoded() -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT,
                      encoding="gb18030") as archive:
        data = "内容".encode()
        info = tarfile.TarInfo("报告/年度.txt")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    doc = goblin_core.extract(buffer.getvalue(), name="legacy.tar", ocr="never")
    assert _names(doc) == {"报告/年度.txt"}


def test_brazilian_windows_zip_names_are_cp850() -> None:
    names = ("Licitação/Edital nº 01.pdf", "Licitação/Planilha orçamentária.xlsx")
    raw = [n.encode("cp850") for n in names]  # what Windows Explorer writes in Brazil
    placeholders = [(letter * len(r)).encode() for letter, r in zip("QZ", raw, strict=True)]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for placeholder in placeholders:
            archive.writestr(placeholder.decode(), b"x")
    data = buffer.getvalue()
    for placeholder, stored in zip(placeholders, raw, strict=True):
        data = data.replace(placeholder, stored)  # zipfile itself would write UTF-8
    doc = goblin_core.extract(data, name="edital.zip", ocr="never")
    assert {m.name for m in doc.report.members} == {
        "Licitação/Edital nº 01.pdf", "Licitação/Planilha orçamentária.xlsx"}


@pytest.mark.parametrize(("names", "code_page"), [
    (("보고서.pdf", "회의 자료/회의록.docx"), "cp949"),  # Korean Windows: not GBK
    (("Отчёт за год.docx", "Приказ №5.pdf"), "cp866"),  # Russian DOS (OEM)
    (("Отчёт за год.docx", "Приказ №5.pdf"), "cp1251"),  # Russian Windows (ANSI)
    (("Schůze výboru.docx", "Změny/příloha.pdf"), "cp852"),  # Central European DOS
    (("Zażółć.txt", "Łódź/raport.doc"), "cp852"),
    (("Ελληνικά/έγγραφο.txt",), "cp737"),  # Greek DOS
    (("Größe.txt", "Übersicht/Änderungen.doc"), "cp850"),
    (("報告書.pdf", "会議資料/議事録.docx"), "cp932"),
    (("报告.pdf", "会议资料/纪要.docx"), "gb18030"),
])
def test_legacy_names_are_read_in_their_code_page(names: tuple[str, ...], code_page: str) -> None:
    raw = [name.encode(code_page) for name in names]
    encoding = guess_encoding(raw)
    assert [r.decode(encoding) for r in raw] == list(names)


def test_utf8_names_are_left_alone() -> None:
    assert guess_encoding(["licitação.pdf".encode()]) == "utf_8"


def test_a_zip_named_pdf_is_unpacked(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "tricky/misnamed-2.pdf", ocr="never")
    assert doc.mime == "application/zip"
    assert _names(doc) == {"ideas-page.html", "stanley-cups.csv"}


def test_a_pdf_named_zip_is_not_taken_for_an_archive(corpus: Path) -> None:
    source = Source.from_path(corpus / "tricky/misnamed-1.zip")
    assert ArchiveSniffer().sniff(source.head(), source) is None
    registry = goblin_core.default_registry()
    from goblin_core.detect import detect

    assert detect(registry, registry.config(), source).mime == "application/pdf"


def test_an_archive_without_extension_is_detected() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("note.txt", "sem extensão")
    doc = goblin_core.extract(buffer.getvalue(), name="download", ocr="never")
    assert doc.mime == "application/zip"
    assert [c.text for c in doc.children] == ["sem extensão"]


def test_tar_without_ustar_magic_is_found_by_its_checksum(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "tricky/testTAR_no_magic.tar", ocr="never")
    assert doc.mime == "application/x-tar"
    assert _names(doc) == {"Lorem ipsum 1", "Lorem ipsum 2", "Lorem ipsum 3"}


def test_v7_tar_header_checksum() -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        info = tarfile.TarInfo("a.txt")
        info.size = 1
        archive.addfile(info, io.BytesIO(b"x"))
    header = bytearray(buffer.getvalue()[:512])
    header[257:265] = bytes(8)  # no magic, as V7 tar writes it
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    assert is_tar_header(bytes(header))
    header[0:1] = b"b"  # a changed byte breaks the checksum
    assert not is_tar_header(bytes(header))
    assert not is_tar_header(b"just some text".ljust(512, b" "))


def test_zip_with_data_in_front_is_found_by_its_tail() -> None:
    buffer = io.BytesIO()
    buffer.write(b"MZ" + bytes(4094))  # a self-extractor stub
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.writestr("inside.txt", "achado")
    source = Source.from_bytes(buffer.getvalue(), "setup.exe")
    found = ArchiveSniffer().sniff(source.head(), source)
    assert found is not None and found.mime == "application/zip"
    doc = goblin_core.extract(buffer.getvalue(), name="setup.exe", ocr="never")
    assert [c.text for c in doc.children] == ["achado"]
