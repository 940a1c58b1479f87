"""The container sniffer inflates no more of a member than it reads.

A zip whose ``mimetype`` names no known type is looked at through its
``META-INF/manifest.xml``: that member was inflated whole before its first 64 KB were
kept, so a manifest of blanks took memory its full size (1.5 GB from a 1.5 MB file)
during detection, before any limit of the run applied.
"""

from __future__ import annotations

import io
import zipfile

from bounds import bounded

from goblin_core import Source
from goblin_office.sniffing import ContainerSniffer

_BLANK_MEGABYTES = 128


def _package_with_a_huge_manifest() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/x-unknown", compress_type=zipfile.ZIP_STORED)
        with archive.open("META-INF/manifest.xml", "w", force_zip64=True) as member:
            member.write(b'<manifest:manifest><manifest:file-entry manifest:full-path="/" '
                         b'manifest:media-type="application/vnd.oasis.opendocument.text"/>')
            blanks = b" " * (1 << 20)
            for _ in range(_BLANK_MEGABYTES):
                member.write(blanks)
            member.write(b"</manifest:manifest>")
        archive.writestr("content.xml", "<office:document-content/>")
    return buffer.getvalue()


def test_a_huge_manifest_is_read_no_further_than_its_start() -> None:
    data = _package_with_a_huge_manifest()
    source = Source.from_bytes(data, "relatorio.odt")
    with bounded(seconds=10, megabytes=_BLANK_MEGABYTES // 4):
        found = ContainerSniffer().sniff(data[:8192], source)
    # the manifest's start still names the package's type
    assert found is not None and found.mime == "application/vnd.oasis.opendocument.text"
