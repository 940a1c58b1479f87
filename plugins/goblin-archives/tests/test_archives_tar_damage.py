"""A damaged or cut tar header is damage the report shows, never a quiet end of the archive."""

from __future__ import annotations

import gzip
import io
import tarfile

import goblin_core


def _five_member_tar() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for number in range(1, 6):
            data = f"member {number} text\n".encode() * 50
            info = tarfile.TarInfo(f"m{number}.txt")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _with_third_header_damaged() -> bytes:
    data = bytearray(_five_member_tar())
    at = data.find(b"m3.txt\0")
    data[at + 3:at + 6] = b"bin"  # the name changes; the checksum no longer matches
    return bytes(data)


def _actions(doc: goblin_core.Document) -> dict[str, str]:
    return {m.name: m.action for m in doc.report.members}


def test_a_damaged_tar_header_costs_its_member_only_and_is_reported() -> None:
    doc = goblin_core.extract(_with_third_header_damaged(), name="lote.tar", ocr="never")
    actions = _actions(doc)
    assert actions == {"m1.txt": "extracted", "m2.txt": "extracted", "m3.bin": "refused",
                       "m4.txt": "extracted", "m5.txt": "extracted"}
    refused = next(m for m in doc.report.members if m.action == "refused")
    assert "fails its checksum" in refused.reason and "damaged" in refused.reason
    assert any("m3.bin" in e.message and "damaged" in e.message for e in doc.report.errors)
    assert "member 5 text" in " ".join(child.text for child in doc.walk())


def test_a_damaged_header_in_a_compressed_tar_is_skipped_past_too() -> None:
    data = gzip.compress(_with_third_header_damaged())
    doc = goblin_core.extract(data, name="lote.tar.gz", ocr="never")
    actions = _actions(doc)
    assert actions["m3.bin"] == "refused"
    assert actions["m4.txt"] == actions["m5.txt"] == "extracted"


def test_a_tar_cut_inside_a_header_is_reported_as_truncated() -> None:
    data = _five_member_tar()
    third = data.find(b"m3.txt\0")
    doc = goblin_core.extract(data[:third + 300], name="cortado.tar", ocr="never")
    assert _actions(doc) == {"m1.txt": "extracted", "m2.txt": "extracted"}
    assert any("cortado.tar" in e.message and "ends inside a header" in e.message
               for e in doc.report.errors)


def test_a_tar_ending_on_a_member_boundary_reads_clean() -> None:
    data = _five_member_tar()
    doc = goblin_core.extract(data[:data.find(b"m3.txt\0")], name="parte.tar", ocr="never")
    assert _actions(doc) == {"m1.txt": "extracted", "m2.txt": "extracted"}
    assert not doc.report.errors
