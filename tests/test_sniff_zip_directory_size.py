"""How big a zip's central directory is, read from its end records before any listing:
a directory of hundreds of thousands of entries took zipfile seconds and hundreds of
megabytes to list, during detection; a Zip64 end record gives the real size where the
classic one says 0xFFFFFFFF."""

from __future__ import annotations

import io
import struct
import zipfile

from goblin_core import Source
from goblin_core.builtin.containers import directory_is_small
from goblin_core.source import SNIFF_BYTES


def _docx() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        archive.writestr("word/document.xml", "<w:document/>")
    return buffer.getvalue()


def with_zip64_end_records(data: bytes) -> bytes:
    """``data``, a zip, closed as writers that always write Zip64 close it: the classic
    end record's counts, size and offset at their Zip64 marks, the real ones in a Zip64
    end record found through its locator."""
    end_at = data.rindex(b"PK\x05\x06")
    entries, size, offset = struct.unpack_from("<HII", data, end_at + 10)
    record = struct.pack("<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, entries, entries,
                         size, offset)
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, end_at, 1)
    classic = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF,
                          0xFFFFFFFF, 0)
    return data[:end_at] + record + locator + classic


def test_a_small_directory_is_small() -> None:
    assert directory_is_small(Source.from_bytes(_docx(), "a.docx"))


def test_a_zip64_end_record_gives_the_size() -> None:
    data = with_zip64_end_records(_docx())
    assert zipfile.ZipFile(io.BytesIO(data)).namelist()  # still a zip zipfile reads
    assert directory_is_small(Source.from_bytes(data, "a.docx"))


def test_a_directory_past_the_sniffing_bound_is_not_small() -> None:
    names = SNIFF_BYTES // 40 + 1  # each entry 46 bytes and its name
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(names):
            archive.writestr(f"{number:07d}", b"")
    assert not directory_is_small(Source.from_bytes(buffer.getvalue(), "many.zip"))


def test_goblin_core_alone_knows_a_docx_closed_with_zip64_records() -> None:
    from goblin_core import load_registry
    from goblin_core.detect import detect

    registry = load_registry(load=[])
    source = Source.from_bytes(with_zip64_end_records(_docx()), "report.docx")
    assert detect(registry, registry.config(), source).mime.endswith("wordprocessingml.document")
