"""Attached files whose Flate data is damaged in the ways the readers do not report.

PDFium, like the other readers, takes Flate data as far as it goes and never checks its
checksum: bytes flipped in the middle of deflate data mostly read as other codes, and
only the checksum at its end tells; data cut short just stops. Data broken at its very
start comes back as the raw compressed bytes, which were handed on as the file.
"""

from __future__ import annotations

import zlib

import pikepdf
from pdf_builders import helvetica_pages, saved

from goblin_core import extract

REPORT = b"".join(b"line %04d of the quarterly report\n" % line for line in range(2000))


def _attaching(data: bytes) -> bytes:
    """A one-page PDF attaching ``report.txt``, whose stream holds ``data`` as Flate data,
    and ``annex.txt``, whole."""
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Cover letter) Tj ET")
    names = pikepdf.Array()
    for name, packed in (("report.txt", data), ("annex.txt", zlib.compress(b"Annex, whole."))):
        stream = pikepdf.Stream(pdf, packed)
        stream.Filter, stream.Type = pikepdf.Name.FlateDecode, pikepdf.Name.EmbeddedFile
        names.extend([pikepdf.String(name), pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Filespec, F=pikepdf.String(name),
            EF=pikepdf.Dictionary(F=stream)))])
    pdf.Root.Names = pikepdf.Dictionary(EmbeddedFiles=pikepdf.Dictionary(Names=names))
    return saved(pdf)


def _read(data: bytes) -> tuple[dict[str, str], list[str]]:
    document = extract(_attaching(data), name="dossier.pdf", ocr="never")
    children = {child.name.rsplit("/", 1)[-1]: child.text for child in document.children}
    assert children.pop("annex.txt") == "Annex, whole."
    warnings = [w.message for w in document.report.warnings if w.kind == "CorruptDocument"]
    assert not any("annex.txt" in message for message in warnings)
    return children, warnings


def _flipped_in_the_middle() -> bytes:
    """The report's Flate data with bytes in the middle changed so that it still inflates
    to the end, its checksum alone failing."""
    packed = zlib.compress(REPORT)
    for start in range(len(packed) // 2, len(packed) - 16):
        damaged = bytearray(packed)
        damaged[start:start + 4] = bytes(b ^ 0x5A for b in damaged[start:start + 4])
        try:
            zlib.decompress(bytes(damaged))
        except zlib.error as exc:
            if "incorrect data check" in str(exc):
                return bytes(damaged)
    raise AssertionError("no change found that only the checksum tells")


def test_an_attachment_broken_at_its_start_is_left_out_not_handed_on_raw() -> None:
    children, warnings = _read(b"\x00\x01 not deflate data at all " * 4)
    assert "report.txt" not in children
    assert any("'report.txt'" in message and "nothing of it decodes" in message
               for message in warnings), warnings


def test_an_attachment_whose_checksum_fails_is_read_with_a_warning() -> None:
    children, warnings = _read(_flipped_in_the_middle())
    assert children["report.txt"].startswith("line 0000 of the quarterly report")
    assert any("'report.txt'" in message and "checksum" in message for message in warnings), \
        warnings


def test_an_attachment_cut_short_is_read_with_a_warning() -> None:
    packed = zlib.compress(REPORT)
    children, warnings = _read(packed[:len(packed) // 2])
    assert children["report.txt"].startswith("line 0000 of the quarterly report")
    assert len(children["report.txt"]) < len(REPORT)
    assert any("'report.txt'" in message and "stops before its end" in message
               for message in warnings), warnings


def test_whole_data_a_writer_left_the_checksum_off_is_no_damage() -> None:
    children, warnings = _read(zlib.compress(REPORT)[:-4])
    assert children["report.txt"].strip() == REPORT.decode().strip()
    assert not any("report.txt" in message for message in warnings), warnings


def test_the_pypdf_parser_leaves_out_an_attachment_broken_at_its_start() -> None:
    """pypdf decodes such data to nothing and says so only in its log: the file came out
    as an empty attachment read whole."""
    document = extract(_attaching(b"\x00\x01 not deflate data at all " * 4), name="dossier.pdf",
                       ocr="never", engines={"pdf.pypdfium2": {"enabled": False}})
    assert document.parsed_by == ("pdf.pypdf",)
    assert [child.name for child in document.children] == ["dossier.pdf/annex.txt"]
    assert any("'report.txt'" in w.message and "does not decode" in w.message
               for w in document.report.warnings), document.report.warnings


def test_the_pypdf_parser_reads_an_empty_file_as_empty() -> None:
    document = extract(_attaching(zlib.compress(b"")), name="dossier.pdf", ocr="never",
                       engines={"pdf.pypdfium2": {"enabled": False}})
    assert sorted(child.name for child in document.children) == [
        "dossier.pdf/annex.txt", "dossier.pdf/report.txt"]
    assert not any("report.txt" in w.message for w in document.report.warnings)
