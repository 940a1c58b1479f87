"""djvu.djvulibre on a bundled document whose directory is damaged past its offsets:
DjVuLibre refuses the whole document; its pages are found by the offsets and read."""

from __future__ import annotations

import shutil
import struct
import tempfile
from pathlib import Path

import pytest
from conftest import DjvuPage, MakeDjvu

import goblin_core
from goblin_core import CorruptDocument, Source, default_registry
from goblin_djvu import djvulibre
from goblin_djvu.parser import DjvuParser


def damaged_directory(data: bytes) -> bytes:
    """``data`` with a byte flipped in its directory's compressed part, after the offsets."""
    count = struct.unpack(">H", data[25:27])[0]
    damaged = bytearray(data)
    damaged[27 + 4 * count + 3] ^= 0x41
    return bytes(damaged)


def test_pages_are_found_by_the_offsets_of_a_damaged_directory(make_djvu: MakeDjvu,
                                                                tmp_path: Path) -> None:
    # the metadata is a file the pages include: it must come along for them to open
    book = make_djvu([DjvuPage(drawn=[f"p{n}"], hidden=[f"page {n} text"], size=(400, 300))
                      for n in (1, 2, 3)], metadata={"Title": "Relatório"})
    damaged = tmp_path / "damaged.djvu"
    damaged.write_bytes(damaged_directory(book.read_bytes()))
    document = goblin_core.extract(damaged, ocr="never")
    assert [p.text for p in document.pages] == ["page 1 text", "page 2 text", "page 3 text"]
    assert any("its directory is damaged" in w.message for w in document.report.warnings)
    before = set(Path(tempfile.gettempdir()).glob("goblin-djvu-*"))
    with DjvuParser().open(Source.from_path(damaged), default_registry().config()) as parsed:
        assert parsed.render(3, 150).size == (200, 150)
    assert set(Path(tempfile.gettempdir()).glob("goblin-djvu-*")) == before


def test_without_djvm_a_damaged_directory_is_refused_as_damaged(
        make_djvu: MakeDjvu, monkeypatch: pytest.MonkeyPatch) -> None:
    book = make_djvu([DjvuPage(hidden=[f"page {n} text"], size=(400, 300)) for n in (1, 2)])
    data = damaged_directory(book.read_bytes())
    found = shutil.which
    monkeypatch.setattr(djvulibre.shutil, "which",
                        lambda tool: None if tool == "djvm" else found(tool))
    with pytest.raises(CorruptDocument, match="DjVuLibre cannot open it"):
        goblin_core.extract(data, name="damaged.djvu", ocr="never")
