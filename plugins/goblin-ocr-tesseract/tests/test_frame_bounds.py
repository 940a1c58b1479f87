"""Multi-frame images: what counting their frames costs stays within the page limit."""

from __future__ import annotations

import io
import struct
import time
from typing import Any

import pytest
from PIL import Image, TiffImagePlugin

import goblin_core
from goblin_core.model import Document


def _tiff_of(frames: int) -> bytes:
    """A TIFF of ``frames`` small grey frames, as Pillow writes it."""
    pictures = [Image.new("L", (8, 8), 255 if i % 2 else 0) for i in range(frames)]
    buffer = io.BytesIO()
    pictures[0].save(buffer, "TIFF", save_all=True, append_images=pictures[1:])
    return buffer.getvalue()


def _tiff_of_one_pixel_frames(frames: int) -> bytes:
    """A TIFF of ``frames`` 1 x 1 frames sharing one byte of pixels, 114 bytes a frame.

    Written field by field: Pillow takes minutes to save this many frames.
    """
    fields = ((256, 1), (257, 1), (258, 8), (259, 1), (262, 1), (273, 0), (277, 1), (278, 1),
              (279, 1))  # width, height, bits, no compression, grey, strip, 1 band, rows, bytes
    directory_size = 2 + 12 * len(fields) + 4
    pixels_at = 8 + frames * directory_size
    out = bytearray(b"II*\x00" + struct.pack("<I", 8))
    for index in range(frames):
        out += struct.pack("<H", len(fields))
        for tag, value in fields:
            out += struct.pack("<HHII", tag, 4, 1, pixels_at if tag == 273 else value)
        following = 8 + (index + 1) * directory_size if index + 1 < frames else 0
        out += struct.pack("<I", following)
    return bytes(out + b"\x80")


class _DirectoriesRead:
    """The most TIFF directories (frames) Pillow has found in any file since patched."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.most = 0
        walk = TiffImagePlugin.TiffImageFile._seek

        def counted(image: Any, frame: int) -> None:
            try:
                walk(image, frame)
            finally:
                self.most = max(self.most, len(image._frame_pos))

        monkeypatch.setattr(TiffImagePlugin.TiffImageFile, "_seek", counted)


def _extract(data: bytes, **options: Any) -> Document:
    return goblin_core.extract(data, name="pages.tif", ocr="never", **options)


def _warning_kinds(document: Document) -> list[str]:
    return [warning.kind for warning in document.report.warnings]


def test_frames_past_the_page_limit_are_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _tiff_of(200)
    directories = _DirectoriesRead(monkeypatch)
    document = _extract(data, config={"limits": {"max_pages": 3}})
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert "MaxPages" in _warning_kinds(document)
    # the three pages, and one more to know the file goes on
    assert directories.most <= 4


def test_the_count_starts_from_the_first_page_of_the_range(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = _tiff_of(100)
    directories = _DirectoriesRead(monkeypatch)
    document = _extract(data, page_range="4-10", config={"limits": {"max_pages": 2}})
    assert [page.number for page in document.pages] == [4, 5]
    assert "MaxPages" in _warning_kinds(document)
    assert directories.most <= 6


def test_a_tiff_of_countless_tiny_frames_is_cut_at_the_page_limit_at_once() -> None:
    # 50,000 frames in 5.7 MB: counting them all took Pillow about a minute
    data = _tiff_of_one_pixel_frames(50_000)
    started = time.monotonic()
    document = _extract(data, config={"limits": {"max_pages": 10}})
    assert len(document.pages) == 10
    assert "MaxPages" in _warning_kinds(document)
    assert time.monotonic() - started < 15
