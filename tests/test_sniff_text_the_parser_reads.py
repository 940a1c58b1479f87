"""Text the plain-text parser reads is known as text by its content, whatever its name.

The parser reads UTF-16 without a BOM in any script, text with stray NULs and a saved
man page's backspaces; the sniffer refused the same bytes, so a file without an
extension (or with one no format owns, as a rotated log's ".1") was
application/octet-stream, and no engine read it.
"""

from __future__ import annotations

import pytest

from goblin_core import Source, extract, load_registry
from goblin_core.builtin.sniffer import MagicSniffer
from goblin_core.detect import detect

CORE_ONLY = load_registry(load=[])

RUSSIAN = "Привет, мир. Съешь же ещё этих мягких французских булок, да выпей чаю.\n" * 40
GREEK = "Καλημέρα κόσμε, αυτό είναι ένα δοκιμαστικό κείμενο στα ελληνικά.\n" * 40
JAPANESE = "日本語のテキストです。これはテストです。東京都に住んでいます。\n" * 40


@pytest.mark.parametrize(
    ("text", "codec"),
    [(RUSSIAN, "utf-16-le"), (GREEK, "utf-16-be"), (JAPANESE, "utf-16-le"),
     (JAPANESE, "utf-16-be")],
    ids=["russian-le", "greek-be", "japanese-le", "japanese-be"],
)
def test_utf16_without_a_bom_and_without_an_extension_is_read_as_text(
        text: str, codec: str) -> None:
    data = text.encode(codec)
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, "notes"))
    assert found.mime == "text/plain"
    document = extract(data, name="notes", registry=CORE_ONLY)
    assert document.text.strip() == text.strip()


def test_a_rotated_log_padded_with_zeros_is_read_as_text() -> None:
    # where the machine stopped, the file system kept the log's length and zeros in it
    log = b"2024-05-01 10:00:01 service started\n2024-05-01 10:00:02 listening\n"
    data = log + b"\x00" * 4000
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, "service.log.1"))
    assert found.mime == "text/plain"
    document = extract(data, name="service.log.1", registry=CORE_ONLY)
    assert document.text.strip() == log.decode().strip()


def test_a_saved_man_page_with_backspaces_is_text() -> None:
    page = b"N\bNA\bAM\bME\bE\n       ls - list directory contents\n\n" * 30
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(page, "ls"))
    assert found.mime == "text/plain"


@pytest.mark.parametrize(
    "data",
    [
        b"\x00" * 3000,  # zeros alone: nothing says text
        b"header\x00\x01\x02\x03" + bytes(range(256)) * 8,  # NULs beside other codes
        b"word\x00" * 300 + b".",  # NULs all through it, not stray ones
    ],
    ids=["zeros", "binary", "nuls-throughout"],
)
def test_binary_content_is_still_not_called_text(data: bytes) -> None:
    assert MagicSniffer().sniff(data[:8192], Source.from_bytes(data, "blob")) is None
