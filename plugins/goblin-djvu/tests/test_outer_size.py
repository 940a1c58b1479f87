"""djvu.djvulibre on files whose outer size (the FORM header's) is wrong: a one-page file
cut short, sizes a flipped bit made too large or too small. DjVuLibre refuses such a
file whole; its pages are read from a copy with the size the file holds."""

from __future__ import annotations

import struct
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from conftest import DjvuPage, MakeDjvu

import goblin_core
from goblin_core import CorruptDocument, Source, default_registry
from goblin_djvu.parser import DjvuParser
from goblin_djvu.repair import whole_chunks_end


def one_page(make_djvu: MakeDjvu) -> bytes:
    """A one-page file: its image, its text layer, then its annotations (the metadata)."""
    path = make_djvu([DjvuPage(drawn=["scan"], hidden=["Relatório anual"])])
    metadata = path.with_name("metadata.txt")
    metadata.write_text('Title "Relatório"\n', encoding="utf-8")
    # the page's own metadata: the document's would make it a multi-page file
    subprocess.run(["djvused", str(path), "-e", f"select 1; set-meta {metadata}; save"],
                   check=True)
    data = path.read_bytes()
    assert data[12:16] == b"DJVU"
    assert data.index(b"TXTz") < data.index(b"ANTz")
    return data


def with_size(data: bytes, size: int) -> bytes:
    return data[:8] + struct.pack(">I", size) + data[12:]


def test_a_one_page_file_cut_short_keeps_its_whole_chunks(make_djvu: MakeDjvu) -> None:
    data = one_page(make_djvu)
    cut = data[:data.index(b"ANTz") + 12]  # inside the annotations, after the text layer
    document = goblin_core.extract(cut, name="cut.djvu", ocr="never")
    assert document.pages[0].text == "Relatório anual"
    [warning] = [w for w in document.report.warnings if w.kind == "Truncated"]
    assert "ANTz chunk cut short" in warning.message
    assert document.report.truncated


def test_a_one_page_file_cut_before_its_text_layer_goes_to_ocr(make_djvu: MakeDjvu) -> None:
    data = one_page(make_djvu)
    cut = data[:data.index(b"TXTz") + 10]
    document = goblin_core.extract(cut, name="cut.djvu", ocr="never")
    assert document.pages[0].reason == "needs_ocr"
    assert any("TXTz chunk cut short" in w.message for w in document.report.warnings)


@pytest.mark.parametrize("declared", [100, 0x8000_0000, 0xFFFF_FFF0])
def test_a_wrong_size_in_a_multi_page_header_costs_no_page(make_djvu: MakeDjvu,
                                                          declared: int) -> None:
    data = make_djvu([DjvuPage(drawn=[f"p{n}"], hidden=[f"page {n} text"]) for n in (1, 2)],
                     metadata={"Title": "Relatório"}).read_bytes()
    document = goblin_core.extract(with_size(data, declared), name="book.djvu", ocr="never")
    assert [p.text for p in document.pages] == ["page 1 text", "page 2 text"]
    assert document.metadata["title"] == "Relatório"
    assert any("header gives its size" in w.message for w in document.report.warnings)


def test_a_one_page_file_whose_size_says_too_much_is_read_whole(make_djvu: MakeDjvu) -> None:
    data = one_page(make_djvu)
    document = goblin_core.extract(with_size(data, len(data) + 1000), name="p.djvu",
                                   ocr="never")
    assert document.pages[0].text == "Relatório anual"
    assert document.metadata["title"] == "Relatório"
    assert not document.report.truncated


def test_the_repaired_copy_is_drawn_and_removed_on_close(make_djvu: MakeDjvu,
                                                         tmp_path: Path) -> None:
    data = one_page(make_djvu)
    cut = tmp_path / "cut.djvu"
    cut.write_bytes(data[:-3])
    before = set(Path(tempfile.gettempdir()).glob("goblin-djvu-*"))
    with DjvuParser().open(Source.from_path(cut), default_registry().config()) as parsed:
        assert parsed.render(1, 100).size == (425, 550)
        copies = set(Path(tempfile.gettempdir()).glob("goblin-djvu-*")) - before
        assert copies
    assert not any(copy.exists() for copy in copies)
    assert cut.read_bytes() == data[:-3]


def test_a_file_cut_before_any_whole_chunk_says_it_is_cut(make_djvu: MakeDjvu) -> None:
    data = one_page(make_djvu)
    with pytest.raises(CorruptDocument, match="cut short or damaged: its header gives"):
        goblin_core.extract(data[:20], name="cut.djvu")


def test_a_file_of_millions_of_empty_chunks_is_walked_within_a_page_s_worth(
        make_djvu: MakeDjvu) -> None:
    """A page has a few chunks: walking 3 million empty ones took 6 s (a 2 GB file,
    minutes) before the page could be read."""
    data = one_page(make_djvu)
    padded = data + b"\0" * (len(data) % 2) + b"JUNK\0\0\0\0" * 3_000_000
    started = time.monotonic()
    kept, stop = whole_chunks_end(Source.from_bytes(with_size(padded, 100), "p.djvu"))
    assert time.monotonic() - started < 2
    assert stop == "damaged"
    assert len(data) <= kept < 1024**2  # the page's own chunks kept, the rest not walked
