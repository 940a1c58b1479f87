"""A tar's extended headers (GNU long names, pax records) are read within bounds, and one
that fails costs its member only: tarfile reads their data whole into memory, and takes
extended data that does not parse for the end of the archive."""

from __future__ import annotations

import gzip
import io
import tarfile
import zlib
from pathlib import Path

import pytest
from archives_bounded import MAX_RSS_BYTES, extract_without_the_ratio

import goblin_core

_BLOCK = 512


def _member(name: str, text: str) -> bytes:
    data = text.encode("utf-8")
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info.tobuf(format=tarfile.USTAR_FORMAT) + _padded(data)


def _padded(data: bytes) -> bytes:
    return data + bytes(-len(data) % _BLOCK)


def _extended_header(kind: bytes, size: int, name: str) -> bytes:
    """A header block of type ``kind`` declaring ``size`` bytes of data, checksum right."""
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    # tarfile writes these types only for names and attributes it holds itself
    block = bytearray(info.tobuf(format=tarfile.USTAR_FORMAT)[:_BLOCK])
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return bytes(block)


_ATA = "Ata da reunião de obras, lote sete.\n"
_EDITAL = "Edital de licitação número doze.\n"
_END = bytes(2 * _BLOCK)


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name.split("/", 1)[1]: d.text for d in doc.walk() if d is not doc and d.pages}


def _with_a_pax_record_of_length_zero(first: bool) -> bytes:
    record = b"0 path=x\n"
    damaged = _extended_header(tarfile.XHDTYPE, len(record), "PaxHeader") + _padded(record)
    before = b"" if first else _member("capa.txt", "Capa do processo.\n")
    return before + damaged + _member("ata.txt", _ATA) + _member("edital.txt", _EDITAL) + _END


@pytest.mark.parametrize("first", [False, True], ids=["in-the-middle", "first"])
@pytest.mark.parametrize("compressed", [False, True], ids=["tar", "tar.gz"])
def test_extended_data_that_does_not_parse_costs_its_header_only(first: bool,
                                                                 compressed: bool) -> None:
    """Read as the end of the archive, the members after it were lost without a word; as
    the first header, the whole file was said to be no tar."""
    data = _with_a_pax_record_of_length_zero(first)
    name = "lote.tar.gz" if compressed else "lote.tar"
    doc = goblin_core.extract(gzip.compress(data) if compressed else data, name=name,
                              ocr="never")
    texts = _texts(doc)
    assert texts["ata.txt"] == _ATA and texts["edital.txt"] == _EDITAL
    refused = [m for m in doc.report.members if m.action == "refused"]
    assert len(refused) == 1
    assert "extended data that does not parse" in refused[0].reason
    assert any("damaged" in e.message for e in doc.report.errors)


@pytest.mark.parametrize("records", [b"99 path=x\n", b"20 path=ata2.txt\n",
                                     b"12 path=abc\n30 comment=zz\n", b"13 path=abcd"],
                         ids=["past-the-block", "into-the-padding", "second-record",
                              "no-newline"])
def test_a_pax_record_running_past_its_data_costs_its_header_only(records: bytes) -> None:
    """tarfile read such a record into the header's NUL padding: the member it named was
    refused for a name ending in NULs, and its text lost with it."""
    damaged = _extended_header(tarfile.XHDTYPE, len(records), "PaxHeader") + _padded(records)
    data = (_member("capa.txt", "Capa do processo.\n") + damaged + _member("ata.txt", _ATA)
            + _member("edital.txt", _EDITAL) + _END)
    doc = goblin_core.extract(data, name="lote.tar", ocr="never")
    texts = _texts(doc)
    assert texts["ata.txt"] == _ATA and texts["edital.txt"] == _EDITAL
    [refused] = [m for m in doc.report.members if m.action == "refused"]
    assert "extended data that does not parse (a pax record at byte" in refused.reason


def test_pax_records_that_fill_their_data_exactly_are_read() -> None:
    records = b"21 path=ata-nova.txt\n16 comment=lote\n"
    header = _extended_header(tarfile.XHDTYPE, len(records), "PaxHeader") + _padded(records)
    doc = goblin_core.extract(header + _member("ata.txt", _ATA) + _END, name="lote.tar",
                              ocr="never")
    assert _texts(doc) == {"ata-nova.txt": _ATA}
    assert not doc.report.errors


def test_an_extended_header_too_large_to_be_a_name_is_passed_over_unread() -> None:
    size = 3 << 20
    long_name = _extended_header(tarfile.GNUTYPE_LONGNAME, size, "././@LongLink")
    data = (_member("capa.txt", "Capa do processo.\n") + long_name + _padded(b"n" * size)
            + _member("ata.txt", _ATA) + _member("edital.txt", _EDITAL) + _END)
    doc = goblin_core.extract(data, name="lote.tar", ocr="never")
    texts = _texts(doc)
    assert texts["ata.txt"] == _ATA and texts["edital.txt"] == _EDITAL
    refused = next(m for m in doc.report.members if m.action == "refused")
    assert f"declares {size:,} bytes of extended data" in refused.reason
    assert refused.name == f"(member at byte {_BLOCK * 2:,})"


def _tar_gz_with_a_long_name_of(size: int, path: Path) -> Path:
    """A .tar.gz whose first header declares a GNU long name of ``size`` bytes (a few
    hundred kilobytes packed), then a member."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(path, "wb") as out:
        out.write(packer.compress(_extended_header(tarfile.GNUTYPE_LONGNAME, size,
                                                   "././@LongLink")))
        chunk = b"n" * (1 << 20)
        for _ in range(size // len(chunk)):
            out.write(packer.compress(chunk))
        out.write(packer.compress(_member("ata.txt", _ATA) + _END))
        out.write(packer.flush())
    return path


def test_a_compressed_long_name_of_hundreds_of_megabytes_is_never_held_in_memory(
        tmp_path: Path) -> None:
    """With the ratio limit raised, the name's data was read whole into memory."""
    size = 600 << 20
    bomb = _tar_gz_with_a_long_name_of(size, tmp_path / "nome.tar.gz")
    assert bomb.stat().st_size < size // 500
    run = extract_without_the_ratio(bomb, tmp_path)
    # tarfile held the name's data, and copies of it, at once: well over the ceiling
    assert run.peak_rss < MAX_RSS_BYTES, f"peaked at {run.peak_rss / 2**20:.0f} MiB"
    assert _ATA in run.result["texts"]
    assert any(action == "refused" and f"declares {size:,} bytes" in reason
               for _, action, reason in run.result["members"])


def test_an_honest_long_name_and_pax_attributes_are_still_read() -> None:
    buffer = io.BytesIO()
    long_name = "pasta/" + "subpasta-" * 60 + "relatório.txt"
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        data = _ATA.encode("utf-8")
        info = tarfile.TarInfo(long_name)
        info.size = len(data)
        info.pax_headers = {"comment": "c" * 500_000}
        archive.addfile(info, io.BytesIO(data))
    doc = goblin_core.extract(buffer.getvalue(), name="lote.tar", ocr="never")
    assert _texts(doc) == {long_name: _ATA}
    assert not doc.report.errors
