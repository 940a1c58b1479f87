"""Decompressing streams for the single-file compressors: gzip, bzip2, xz, lzma, zstd, lz4, .Z.

Every stream decompresses lazily as it is read; nothing is expanded ahead.
Unix compress (.Z) has no maintained Python decoder, so ``gzip -dc`` (which
reads .Z) runs as a child process feeding a pipe.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

import lz4.frame
import zstandard

from goblin_core.errors import EngineUnavailable
from goblin_core.source import Source


@dataclass(frozen=True)
class Codec:
    """One compressor: its MIME type, the extensions it adds and how to undo it."""

    name: str
    mime: str
    extensions: tuple[str, ...]
    opener: Callable[[Source], BinaryIO]
    tool: str = ""
    debian_package: str = ""


def _gzip(source: Source) -> BinaryIO:
    return gzip.GzipFile(fileobj=source.open(), mode="rb")  # type: ignore[return-value]


def _bzip2(source: Source) -> BinaryIO:
    return bz2.BZ2File(source.open(), mode="rb")  # type: ignore[return-value]


def _xz(source: Source) -> BinaryIO:
    return lzma.LZMAFile(source.open(), mode="rb", format=lzma.FORMAT_XZ)  # type: ignore[return-value]


def _lzma(source: Source) -> BinaryIO:
    return lzma.LZMAFile(source.open(), mode="rb", format=lzma.FORMAT_ALONE)  # type: ignore[return-value]


def _zstd(source: Source) -> BinaryIO:
    reader = zstandard.ZstdDecompressor().stream_reader(source.open(), read_across_frames=True,
                                                        closefd=True)
    return reader


def _lz4(source: Source) -> BinaryIO:
    return lz4.frame.LZ4FrameFile(source.open(), mode="rb")


class _PipeStream:
    """The stdout of a decompressing child process; closing it ends the process."""

    def __init__(self, process: subprocess.Popen[bytes], name: str) -> None:
        self._process = process
        self._name = name
        assert process.stdout is not None
        self._out = process.stdout

    def read(self, size: int = -1) -> bytes:
        data = self._out.read(size)
        if not data and self._process.poll() not in (None, 0):
            errors = self._process.stderr
            stderr = errors.read().decode("utf-8", "replace").strip() if errors else ""
            raise OSError(f"{self._name} failed: {stderr or f'exit {self._process.returncode}'}")
        return data

    def close(self) -> None:
        self._out.close()
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        if self._process.stderr is not None:
            self._process.stderr.close()


def _compress(source: Source) -> BinaryIO:
    tool = shutil.which("gzip")
    if tool is None:
        raise EngineUnavailable("gzip not found (it reads .Z files): apt-get install gzip",
                                file=source.display_name)
    process = subprocess.Popen(
        [tool, "-dc"], stdin=source.open(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    # gzip exits 2 on "trailing garbage ignored"; the data it produced is still good.
    return _PipeStream(process, "gzip -dc")  # type: ignore[return-value]


CODECS: tuple[Codec, ...] = (
    Codec("gzip", "application/gzip", ("gz", "tgz", "gzip"), _gzip),
    Codec("bzip2", "application/x-bzip2", ("bz2", "tbz2", "tbz", "bz"), _bzip2),
    Codec("xz", "application/x-xz", ("xz", "txz"), _xz),
    Codec("lzma", "application/x-lzma", ("lzma", "tlz"), _lzma),
    Codec("zstd", "application/zstd", ("zst", "tzst", "zstd"), _zstd),
    Codec("lz4", "application/x-lz4", ("lz4",), _lz4),
    Codec("compress", "application/x-compress", ("z", "taz"), _compress, "gzip", "gzip"),
)

#: Short tar extensions that stand for ``.tar.<codec>``.
TAR_SHORTHANDS = frozenset({"tgz", "tbz2", "tbz", "txz", "tlz", "tzst", "taz"})


def member_name(source: Source, codec: Codec, stored: str | None = None) -> str:
    """The name of the one file a compressed stream holds.

    The name stored in a gzip header wins; otherwise the compressor's
    extension comes off (``a.pdf.xz`` -> ``a.pdf``, ``x.tgz`` -> ``x.tar``).

    >>> member_name(Source.from_bytes(b"", "report.pdf.xz"), CODECS[2])
    'report.pdf'
    """
    if stored:
        return stored
    name = source.name
    ext = source.extension
    if ext in codec.extensions:
        stem = name[: -len(ext) - 1]
        if ext in TAR_SHORTHANDS:
            return f"{stem}.tar"
        return stem or "data"
    return f"{name}.out" if name else "data"


def gzip_stored_name(head: bytes) -> str | None:
    """The original file name a gzip header records (FNAME), when it has one."""
    if len(head) < 10 or head[:2] != b"\x1f\x8b":
        return None
    flags = head[3]
    pos = 10
    if flags & 0x04:
        if len(head) < pos + 2:
            return None
        pos += 2 + int.from_bytes(head[pos:pos + 2], "little")
    if not flags & 0x08:
        return None
    end = head.find(b"\0", pos)
    if end <= pos:
        return None
    stored = head[pos:end].decode("latin-1").replace("\\", "/").rsplit("/", 1)[-1]
    return stored or None
