"""Streams damaged part-way: a reader keeps what comes before the damage, so a page or
an attachment read that way is reported as possibly incomplete, never as a whole read;
an attachment named by /UF alone is read too."""

from __future__ import annotations

import hashlib
import zlib

import pikepdf
from pdf_builders import helvetica_pages, saved

from goblin_core import extract

_LINES = b"".join(b"BT /F1 12 Tf 72 %d Td (Line number %d of the page) Tj ET\n"
                  % (750 - 14 * line, line) for line in range(50))


def _damaged_midway(data: bytes, filler: bytes) -> bytes:
    packed = bytearray(zlib.compress(data))
    packed[len(packed) // 2:len(packed) // 2 + len(filler)] = filler
    return bytes(packed)


def _with_files(pdf: pikepdf.Pdf, files: dict[str, pikepdf.Dictionary]) -> None:
    names = pikepdf.Array()
    for key, specification in files.items():
        names.extend([pikepdf.String(key), pdf.make_indirect(specification)])
    pdf.Root.Names = pikepdf.Dictionary(EmbeddedFiles=pikepdf.Dictionary(Names=names))


def _embedded(pdf: pikepdf.Pdf, data: bytes, **keys: pikepdf.Object) -> pikepdf.Stream:
    return pdf.make_stream(data, Type=pikepdf.Name.EmbeddedFile, **keys)


def _damaged_pdf() -> bytes:
    pdf = helvetica_pages("", "BT /F1 12 Tf 72 700 Td (Second page, whole) Tj ET")
    pdf.pages[0].obj.Contents.write(_damaged_midway(_LINES, b"\xff" * 8),
                             filter=pikepdf.Name.FlateDecode)
    report = _embedded(pdf, b"")
    report.write(_damaged_midway(b"Quarterly figures attached as text. " * 40, b"\0" * 6),
                 filter=pikepdf.Name.FlateDecode)
    annex = _embedded(pdf, b"Contract annex: the price is 1,000 EUR.")
    _with_files(pdf, {
        "report.txt": pikepdf.Dictionary(Type=pikepdf.Name.Filespec,
                                         F=pikepdf.String("report.txt"),
                                         UF=pikepdf.String("report.txt"),
                                         EF=pikepdf.Dictionary(F=report)),
        "annex.txt": pikepdf.Dictionary(Type=pikepdf.Name.Filespec,
                                        UF=pikepdf.String("annex.txt"),
                                        EF=pikepdf.Dictionary(F=annex)),
    })
    return saved(pdf)


def test_a_page_drawn_up_to_damage_in_its_content_is_reported() -> None:
    document = extract(_damaged_pdf(), name="dossier.pdf", ocr="never")
    first = document.pages[0]
    assert "Line number 0 of the page" in first.text
    assert "Line number 49 of the page" not in first.text
    assert "Second page, whole" in document.pages[1].text
    damaged = [w.message for w in document.report.warnings if w.message.startswith("page ")]
    assert len(damaged) == 1 and damaged[0].startswith("page 1: ")
    assert "damaged part-way" in damaged[0] and "may be incomplete" in damaged[0]


def test_an_attachment_cut_by_damage_is_reported_and_one_named_by_uf_alone_is_read() -> None:
    document = extract(_damaged_pdf(), name="dossier.pdf", ocr="never")
    children = {child.name.rsplit("/", 1)[-1]: child for child in document.children}
    assert children["annex.txt"].text == "Contract annex: the price is 1,000 EUR."
    assert children["report.txt"].text.startswith("Quarterly figures")
    assert any("'report.txt'" in w.message and "damaged part-way" in w.message
               for w in document.report.warnings)
    assert not any("annex.txt" in w.message for w in document.report.warnings)


def test_an_attachment_no_reader_can_decode_is_reported() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Cover letter) Tj ET")
    broken = pdf.make_stream(b"")
    broken.write(b"\xff\xff not deflate", filter=pikepdf.Name.FlateDecode)
    broken.Type = pikepdf.Name.EmbeddedFile
    _with_files(pdf, {"broken.txt": pikepdf.Dictionary(
        Type=pikepdf.Name.Filespec, UF=pikepdf.String("broken.txt"),
        EF=pikepdf.Dictionary(F=broken))})
    document = extract(saved(pdf), name="letter.pdf", ocr="never")
    assert document.text.startswith("Cover letter")
    assert any("'broken.txt' cannot be read" in w.message for w in document.report.warnings)


def test_intact_streams_give_no_warning() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Whole) Tj ET")
    pdf.pages[0].obj.Contents.write(zlib.compress(_LINES), filter=pikepdf.Name.FlateDecode)
    document = extract(saved(pdf), name="whole.pdf", ocr="never")
    assert "Line number 49 of the page" in document.text
    assert not document.report.warnings


def test_a_wrong_checksum_after_whole_data_is_not_damage() -> None:
    # some writers get the Adler-32 sum wrong: the readers, which do not check it,
    # have every byte of the content
    packed = bytearray(zlib.compress(_LINES))
    packed[-4:] = b"\0\0\0\0"
    pdf = helvetica_pages("")
    pdf.pages[0].obj.Contents.write(bytes(packed), filter=pikepdf.Name.FlateDecode)
    document = extract(saved(pdf), name="sum.pdf", ocr="never")
    assert "Line number 49 of the page" in document.text
    assert not document.report.warnings


def _attached_with_checksum(data: bytes, summed: bytes) -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Cover letter) Tj ET")
    params = pikepdf.Dictionary(Size=len(data),
                                CheckSum=pikepdf.String(hashlib.md5(summed).digest()))
    _with_files(pdf, {"annex.txt": pikepdf.Dictionary(
        Type=pikepdf.Name.Filespec, UF=pikepdf.String("annex.txt"),
        F=pikepdf.String("annex.txt"),
        EF=pikepdf.Dictionary(F=_embedded(pdf, data, Params=params)))})
    return saved(pdf)


def test_an_attachment_its_md5_checksum_disowns_is_reported_and_still_read() -> None:
    # bytes damaged in a way no filter notices (a stored stream, a flipped byte): only
    # the checksum the embedded file's parameters give tells
    data = b"Contract annex: the price is 1,000 EUR."
    document = extract(_attached_with_checksum(data, b"Contract annex: the price is 9,000 EUR."),
                       name="letter.pdf", ocr="never")
    [child] = document.children
    assert child.text == data.decode()
    [warning] = [w for w in document.report.warnings if "annex.txt" in w.message]
    assert warning.kind == "CorruptDocument" and "MD5 checksum" in warning.message


def test_an_attachment_its_checksum_vouches_for_gives_no_warning() -> None:
    data = b"Contract annex: the price is 1,000 EUR."
    document = extract(_attached_with_checksum(data, data), name="letter.pdf", ocr="never")
    assert document.children[0].text == data.decode()
    assert not document.report.warnings
