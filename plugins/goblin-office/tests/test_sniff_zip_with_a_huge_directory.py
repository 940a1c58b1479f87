"""A zip of hundreds of thousands of members is judged by its end records and the
members at its front: the container sniffer listed the whole directory first (a 36 MB
zip of 400,000 empty members: 14 s and 270 MB during detection)."""

from __future__ import annotations

import io
import zipfile

from bounds import bounded

from goblin_core import Source
from goblin_core.source import SNIFF_BYTES
from goblin_office.sniffing import ContainerSniffer

_MEMBERS = SNIFF_BYTES // 40  # a directory of over a megabyte


def _zip(first: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in first.items():
            archive.writestr(name, text)
        for number in range(_MEMBERS):
            archive.writestr(f"media/{number:07d}", b"")
    return buffer.getvalue()


def test_a_zip_with_a_huge_directory_is_not_listed() -> None:
    data = _zip({"notes.txt": "x"})
    source = Source.from_bytes(data, "backup.zip")
    with bounded(seconds=10, megabytes=4):
        assert ContainerSniffer().sniff(data[:8192], source) is None


def test_a_document_with_a_huge_directory_is_known_by_its_first_members() -> None:
    data = _zip({"[Content_Types].xml": '<?xml version="1.0"?><Types/>',
                 "word/document.xml": "<w:document/>"})
    found = ContainerSniffer().sniff(data[:8192], Source.from_bytes(data, "report.docx"))
    assert found is not None and found.mime.endswith("wordprocessingml.document")
