"""djvu.djvulibre on files whose compressed text or bookmarks expand a thousandfold: each
tool run stops at a bound, and what is within it is read."""

from __future__ import annotations

import struct
import subprocess
import time
from pathlib import Path

import pytest
from conftest import DjvuPage, MakeDjvu
from test_drawing_many_pages import counted_runs

import goblin_core
from goblin_core import Source, default_registry
from goblin_djvu import djvulibre as tool_runs
from goblin_djvu.parser import DjvuParser
from goblin_djvu.sexpr import parse_all


def _chunk(kind: bytes, payload: bytes) -> bytes:
    return kind + struct.pack(">I", len(payload)) + payload + b"\0" * (len(payload) % 2)


def page_with_text(folder: Path, name: str, text: bytes) -> Path:
    """A blank one-page file whose text layer (one page zone) is ``text``, BZZ-compressed
    as DjVu stores it: a few hundred bytes for megabytes of repeated words."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "blank.pbm").write_bytes(b"P4\n16 16\n" + bytes(32))
    blank = folder / "blank.djvu"
    subprocess.run(["cjb2", str(folder / "blank.pbm"), str(blank)], check=True)

    def offset(value: int) -> bytes:
        return (value + 0x8000).to_bytes(2, "big")

    zone = (b"\x01" + offset(0) * 2 + offset(16) * 2 + offset(0)
            + len(text).to_bytes(3, "big") + bytes(3))
    (folder / "txta").write_bytes(len(text).to_bytes(3, "big") + text + b"\x01" + zone)
    subprocess.run(["bzz", "-e", str(folder / "txta"), str(folder / "txtz")], check=True)
    data = blank.read_bytes()
    body = data[16:] + b"\0" * (len(data) % 2) + _chunk(b"TXTz", (folder / "txtz").read_bytes())
    target = folder / name
    target.write_bytes(b"AT&TFORM" + struct.pack(">I", len(body) + 4) + b"DJVU" + body)
    return target


def bundled(folder: Path, pages: list[Path]) -> Path:
    target = folder / "book.djvu"
    subprocess.run(["djvm", "-c", str(target), *map(str, pages)], check=True)
    return target


def test_pages_whose_text_overflows_a_run_are_read_one_by_one(
    djvulibre: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tool_runs, "MAX_OUTPUT_BYTES", 1024**2)
    texts = [f"page {n} ".encode() + b"palavra " * 50_000 for n in range(1, 7)]  # 400 KB each
    book = bundled(tmp_path, [page_with_text(tmp_path / f"p{n}", f"p{n}.djvu", text)
                              for n, text in enumerate(texts, start=1)])
    assert book.stat().st_size < 10_000
    with DjvuParser().open(Source.from_path(book), default_registry().config()) as parsed:
        tools = counted_runs(parsed, monkeypatch)
        pages = list(parsed.pages())
    assert [p.text for p in pages] == [t.decode().strip() for t in texts]
    assert tools.count("djvutxt") == 1 + 6  # the batch stopped at the bound, then each page


def test_a_page_whose_text_alone_passes_the_bound_is_a_page_error(
    djvulibre: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tool_runs, "MAX_OUTPUT_BYTES", 1024**2)
    book = bundled(tmp_path, [
        page_with_text(tmp_path / "a", "a.djvu", b"first page"),
        page_with_text(tmp_path / "b", "b.djvu", b"bomb " * 400_000),  # 2 MB
        page_with_text(tmp_path / "c", "c.djvu", b"third page"),
    ])
    document = goblin_core.extract(book, ocr="never")
    assert [p.text for p in document.pages] == ["first page", "", "third page"]
    assert "wrote more than 1,048,576 bytes" in document.pages[1].attempts[0].error


def test_an_outline_past_the_bound_is_left_out_with_a_warning(
    make_djvu: MakeDjvu, monkeypatch: pytest.MonkeyPatch
) -> None:
    outline = "(bookmarks " + " ".join(f'("Chapter {n:05}" "#1")' for n in range(4000)) + ")"
    book = make_djvu([DjvuPage(hidden=["one"]), DjvuPage(hidden=["two"])], outline=outline)
    monkeypatch.setattr(tool_runs, "MAX_OUTPUT_BYTES", 64 * 1024)
    document = goblin_core.extract(book, ocr="never")
    assert document.text == "one\n\ntwo"
    assert "outline" not in document.raw_metadata
    assert any("outline is left out" in w.message for w in document.report.warnings)


def test_fifteen_megabytes_of_text_are_parsed_in_well_under_a_second() -> None:
    printed = b'(page 0 0 100 100 "' + b"word " * 3 * 1024**2 + b'\\n")\n'
    started = time.monotonic()
    [page] = parse_all(printed)
    assert time.monotonic() - started < 1.5
    assert isinstance(page, list) and len(page[5]) == 15 * 1024**2 + 1
