"""Streams and in-memory buffers given to ``extract``: binary only, bounded by max_file_size."""

from __future__ import annotations

import io
import logging
import os
import tracemalloc
from pathlib import Path

import pytest

from goblin_core import FileTooLarge, extract


class _CountingStream(io.RawIOBase):
    """A binary stream of 20 MB that counts the bytes handed out."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        size = min(len(buffer), 20_000_000 - self.given)
        buffer[:size] = b"a" * size
        self.given += size
        return size


def test_a_text_mode_file_is_refused_at_once_with_a_hint_to_open_it_in_binary_mode(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "hello.txt"
    path.write_text("hello goblin", encoding="utf-8")
    caplog.set_level(logging.WARNING)
    with path.open(encoding="utf-8") as handle, pytest.raises(TypeError, match=r"'rb'"):
        extract(handle)
    with pytest.raises(TypeError, match="binary mode"):
        extract(io.StringIO("hello goblin"), name="note.txt")
    assert not caplog.records, [r.getMessage() for r in caplog.records]


def test_a_closed_stream_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "ata.pdf"
    path.write_bytes(b"%PDF-1.4")
    with path.open("rb") as handle:
        pass
    with pytest.raises(ValueError, match=r"^ata.pdf: the stream is closed"):
        extract(handle)
    closed = io.BytesIO(b"hello")
    closed.close()
    with pytest.raises(ValueError, match=r"^note.txt: the stream is closed"):
        extract(closed, name="note.txt")


def test_a_stream_whose_read_gives_str_is_refused_even_without_textiobase() -> None:
    class Reader:
        def read(self, size: int = -1) -> str:
            return "text, not bytes"[: None if size < 0 else size]

    with pytest.raises(TypeError, match="binary mode"):
        extract(Reader(), name="x.txt")


def test_a_stream_is_named_after_its_file_and_a_pipe_is_not_named_by_its_descriptor(
        tmp_path: Path) -> None:
    path = tmp_path / "hello.txt"
    path.write_bytes(b"hello goblin")
    with path.open("rb") as handle:
        assert extract(handle).name == "hello.txt"
    read_end, write_end = os.pipe()
    os.write(write_end, b"through a pipe")
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        document = extract(pipe)
    assert document.text == "through a pipe" and document.name == "<stream>"


def test_an_oversized_stream_is_refused_after_reading_just_past_the_limit() -> None:
    stream = _CountingStream()
    with pytest.raises(FileTooLarge, match=r"big\.txt.*max_file_size \(1,000 bytes\)"):
        extract(io.BufferedReader(stream, buffer_size=64), name="big.txt", max_file_size=1000)
    assert stream.given <= 1000 + 64 + 1


def test_a_stream_within_the_limit_is_read_from_where_it_stands() -> None:
    stream = io.BytesIO(b"skip: goblin reads the rest")
    stream.seek(6)
    assert extract(stream, name="s.txt", max_file_size=1000).text == "goblin reads the rest"


def test_an_oversized_buffer_is_refused_without_being_copied() -> None:
    big = bytearray(b"x" * 40_000_000)
    tracemalloc.start()
    try:
        with pytest.raises(FileTooLarge, match="40,000,000 bytes"):
            extract(big, name="big.txt", max_file_size="1KB")
        with pytest.raises(FileTooLarge):
            extract(memoryview(big), name="big.txt", max_file_size="1KB")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


def test_a_bytearray_within_the_limit_is_a_snapshot_taken_at_the_size_check() -> None:
    data = bytearray(b"goblin reads a bytearray")
    assert extract(data, name="b.txt").text == "goblin reads a bytearray"
    assert extract(memoryview(data)[7:], name="m.txt").text == "reads a bytearray"


def test_an_oversized_stream_is_refused_before_it_goes_to_an_isolated_worker() -> None:
    stream = _CountingStream()
    with pytest.raises(FileTooLarge, match=r"big\.txt"):
        extract(io.BufferedReader(stream, buffer_size=64), name="big.txt", max_file_size=1000,
                isolate=True)
    assert stream.given <= 1000 + 64 + 1
