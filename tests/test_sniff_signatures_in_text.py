"""Signatures text can hold make an archive only when the archive's header follows.

"070707" opens a CSV of IDs or DDMMYY dates as well as a cpio archive, "BZh" a word
list as well as a bzip2 stream, and "custard" puts "ustar" at byte 257 as a tar
header does: such text was handed to an archive handler and failed whole.
"""

from __future__ import annotations

import bz2
import io
import tarfile

import pytest

from goblin_core import Source, extract, load_registry
from goblin_core.builtin.sniffer import MagicSniffer
from goblin_core.detect import detect

CORE_ONLY = load_registry(load=[])

RECIPE = (b"Recipe for a tart\n" + b"Whisk the eggs with the sugar. " * 7
          + b"Warm it. Fold in the custard.\n")


def _tar() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        info = tarfile.TarInfo("a.txt")
        info.size = 2
        archive.addfile(info, io.BytesIO(b"hi"))
    return buffer.getvalue()


def _cpio_newc() -> bytes:
    fields = [1, 0o100644, 0, 0, 1, 0, 2, 0, 0, 0, 0, 6, 0]  # ino, mode ... namesize 6
    return b"070701" + b"".join(b"%08X" % value for value in fields) + b"a.txt\x00"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("ids", b"070707,Ana,Porto\n070708,Bruno,Lisboa\n"),
        ("codes", b"070701 first batch\n070702 second batch\n"),
        ("words.txt", b"BZh is how the list starts\nand more words\n"),
        ("recipe.txt", RECIPE),
    ],
    ids=["cpio-odc-digits", "cpio-newc-digits", "bzip2-letters", "tar-custard"],
)
def test_text_opening_like_an_archive_is_text(name: str, data: bytes) -> None:
    assert RECIPE.find(b"ustar") == 257
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, name))
    assert found.mime == "text/plain"
    assert extract(data, name=name, registry=CORE_ONLY).text.strip() == data.decode().strip()


@pytest.mark.parametrize(
    ("data", "mime"),
    [
        (_tar(), "application/x-tar"),
        (_cpio_newc(), "application/x-cpio"),
        (b"070707" + b"0" * 70 + b"a.txt\x00", "application/x-cpio"),
        (bz2.compress(b"hello"), "application/x-bzip2"),
        (bz2.compress(b""), "application/x-bzip2"),
    ],
    ids=["tar-gnu", "cpio-newc", "cpio-odc", "bzip2", "bzip2-empty"],
)
def test_archives_keep_their_signatures(data: bytes, mime: str) -> None:
    found = MagicSniffer().sniff(data[:8192], Source.from_bytes(data, "archive"))
    assert found is not None and found.mime == mime
