"""A zip cut short after a member that is itself a zip, stored uncompressed: the inner
zip's end record is the last in the file, and zipfile read the inner zip as the whole
file, the outer zip's other members lost without a word."""

from __future__ import annotations

import io
import zipfile

import pytest

import goblin_core
from goblin_core.errors import CorruptDocument

_MINUTES = "Ata da reunião do conselho, lote sete.\n"
_NOTICE = "Edital de licitação número doze.\n"


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _cut_outer() -> tuple[bytes, bytes]:
    inner = _zip({"ata.txt": _MINUTES.encode()}, zipfile.ZIP_DEFLATED)
    outer = _zip({"anexos/interno.zip": inner, "edital.txt": _NOTICE.encode(),
                  "relatorio.txt": ("linha do relatório\n" * 400).encode()})
    cut = outer[: outer.index(b"linha do relat") + 2000]
    return outer, cut


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text.strip() for d in doc.walk() if d.pages}


def test_the_members_before_the_cut_are_read_under_their_own_names() -> None:
    _, cut = _cut_outer()
    doc = goblin_core.extract(cut, name="lote.zip", ocr="never")
    assert _texts(doc) == {"lote.zip/anexos/interno.zip/ata.txt": _MINUTES.strip(),
                           "lote.zip/edital.txt": _NOTICE.strip()}
    assert [m.name for m in doc.report.members] == ["anexos/interno.zip", "edital.txt"]
    [error] = doc.report.errors
    assert error.kind == "CorruptDocument"
    assert "the zip's own directory is missing" in error.message
    assert "belongs to a zip stored inside one of its members" in error.message
    assert "2 whole member(s) were read" in error.message
    assert "not read: 'relatorio.txt', cut short" in error.message


def test_a_whole_zip_holding_a_stored_zip_reads_clean() -> None:
    outer, _ = _cut_outer()
    doc = goblin_core.extract(outer, name="lote.zip", ocr="never")
    assert set(_texts(doc)) == {"lote.zip/anexos/interno.zip/ata.txt", "lote.zip/edital.txt",
                                "lote.zip/relatorio.txt"}
    assert not doc.report.errors


def test_a_self_extractor_stub_is_still_no_damage() -> None:
    stub = b"MZ" + bytes(510)
    inner = _zip({"ata.txt": _MINUTES.encode()})
    doc = goblin_core.extract(stub + inner, name="instalador.zip", ocr="never")
    assert _texts(doc) == {"instalador.zip/ata.txt": _MINUTES.strip()}
    assert not doc.report.errors


class _Pipe(io.RawIOBase):
    """A stream that cannot seek, as a pipe: zipfile writes each member's sizes after its
    data (a data descriptor)."""

    def __init__(self) -> None:
        super().__init__()
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, chunk: bytes) -> int:  # type: ignore[override]
        self.data += chunk
        return len(chunk)


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED],
                         ids=["stored", "deflated"])
def test_members_whose_sizes_follow_their_data_are_walked_past(method: int) -> None:
    inner = _zip({"ata.txt": _MINUTES.encode()})
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", method) as archive:
        archive.writestr("edital.txt", _NOTICE.encode())
        archive.writestr("interno.zip", inner, compress_type=zipfile.ZIP_STORED)
        archive.writestr("relatorio.txt", ("linha do relatório\n" * 400).encode(),
                         compress_type=zipfile.ZIP_STORED)
    piped = bytes(pipe.data)
    assert piped[6] & 0x8  # the sizes follow the data
    cut = piped[: piped.index(b"linha do relat") + 2000]
    doc = goblin_core.extract(cut, name="lote.zip", ocr="never", archives={"patool": False})
    assert _texts(doc) == {"lote.zip/edital.txt": _NOTICE.strip(),
                           "lote.zip/interno.zip/ata.txt": _MINUTES.strip()}
    [error] = doc.report.errors
    assert "not read: 'relatorio.txt', whose sizes follow its data and were not found" in \
        error.message


def test_a_walk_that_reads_nothing_leaves_the_zip_to_the_handler_of_last_resort() -> None:
    inner = _zip({"ata.txt": _MINUTES.encode()})
    # the first member holds a whole zip, then more: cut after the zip, it is cut short
    outer = _zip({"pacote.bin": inner + bytes(range(256)) * 20, "edital.txt": b"edital"})
    cut = outer[: 30 + len("pacote.bin") + len(inner) + 100]
    with pytest.raises(CorruptDocument, match=r"0 whole member\(s\) were read .*not read: "
                                              r"'pacote\.bin', cut short.*patool is turned off"):
        goblin_core.extract(cut, name="lote.zip", ocr="never", archives={"patool": False})
