"""Decompressing streams for the single-file compressors: gzip, bzip2, xz, lzma, zstd, lz4,
.Z, lzip and lzop.

Every stream decompresses lazily as it is read; nothing is expanded ahead.
Unix compress (.Z), lzip and lzop have no maintained Python decoder, so their own
tool (``gzip -dc``, which reads .Z; ``lzip -dc``; ``lzop -dc``) runs as a child
process feeding a pipe: the reader meters what comes out as it does for the others,
and closing the stream ends the process.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import BinaryIO

from goblin_archives.concatenated import (
    TrailingGarbage,
    ZstdFrames,
    bzip2_streams,
    lz4_streams,
    lzma_stream,
    xz_streams,
)
from goblin_archives.lzip_members import holds_unread_bytes
from goblin_core.child_environment import child_environment
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
    return bzip2_streams(source.open())  # type: ignore[return-value]


def _xz(source: Source) -> BinaryIO:
    return xz_streams(source.open())  # type: ignore[return-value]


def _lzma(source: Source) -> BinaryIO:
    return lzma_stream(source.open())  # type: ignore[return-value]


def _zstd(source: Source) -> BinaryIO:
    return ZstdFrames(source.open())  # type: ignore[return-value]


def _lz4(source: Source) -> BinaryIO:
    return lz4_streams(source.open())  # type: ignore[return-value]


class _PipeStream:
    """The stdout of a decompressing child process; closing it ends the process.

    At the end of the output the process is waited for and its exit status read: it
    closes its output before it exits, so a status looked at without waiting is often
    not there yet, and damaged data would read as a clean end. ``warning_exits`` are
    statuses the tool gives for a warning over good output (gzip's and lzop's 2): the
    output is whole, but when the warning is that bytes after the last stream were
    ignored (trailing garbage), those bytes are lost and said so, as for the other
    compressors. ``packed_path``, when the tool was given the file by name, is put as
    ``shown_as`` in what the tool says. ``left_unread``, when given, tells after a clean
    exit whether the tool left bytes of the file unread without a word (lzip does).
    """

    #: how long a tool that has closed its output may take to exit
    EXIT_WAIT_SECONDS = 30.0

    def __init__(self, process: subprocess.Popen[bytes], name: str,
                 warning_exits: frozenset[int] = frozenset(),
                 packed_path: str = "", shown_as: str = "",
                 left_unread: Callable[[], bool] | None = None) -> None:
        self._process = process
        self._left_unread = left_unread
        self._name = name
        self._warning_exits = warning_exits
        self._packed_path = packed_path
        self._shown_as = shown_as
        assert process.stdout is not None
        self._out = process.stdout

    def read(self, size: int = -1) -> bytes:
        data = self._out.read(size)
        if not data and size != 0:
            self._check_exit()
        return data

    def _check_exit(self) -> None:
        errors = self._process.stderr
        # its messages first: a tool blocked writing them to a full pipe would never exit
        stderr = errors.read(1 << 16).decode("utf-8", "replace").strip() if errors else ""
        if self._packed_path:
            stderr = stderr.replace(self._packed_path, self._shown_as)
        try:
            status = self._process.wait(timeout=self.EXIT_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
            raise OSError(f"{self._name} did not exit after its output ended") from None
        if status != 0 and status not in self._warning_exits:
            raise OSError(f"{self._name} failed: {stderr or f'exit {status}'}")
        if status != 0 and "trailing garbage" in stderr:
            raise TrailingGarbage(f"{self._name} ignored bytes after the last stream, which "
                                  f"are no compressed data ({stderr})")
        if status == 0 and self._left_unread is not None and self._left_unread():
            raise TrailingGarbage(f"{self._name} stopped at bytes that start no new member "
                                  "and left the rest of the file unread")

    def close(self) -> None:
        self._out.close()
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        if self._process.stderr is not None:
            self._process.stderr.close()


def _piped(tool_name: str, package: str, reads: str = "",
           warning_exits: frozenset[int] = frozenset(), by_name: bool = False,
           left_unread: Callable[[Path], bool] | None = None) -> Callable[[Source], BinaryIO]:
    """An opener running ``tool_name -dc`` on the file, its output the stream.

    The file goes to the tool on its standard input, or, with ``by_name``, as its
    argument: lzop says of data cut short on its standard input only a stale system
    error ('Inappropriate ioctl for device'), and of a named file that it ends early.
    ``left_unread`` tells from the file whether the tool stopped short of its end.
    """

    def opener(source: Source) -> BinaryIO:
        tool = shutil.which(tool_name)
        if tool is None:
            raise EngineUnavailable(f"{tool_name} not found{reads}: apt-get install {package}",
                                    file=source.display_name)
        # the child reads a real file: bytes in memory are spooled to one first
        path = os.path.abspath(source.path())
        if by_name:
            process = subprocess.Popen([tool, "-dc", "--", path], stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       env=child_environment())
            return _PipeStream(process, f"{tool_name} -dc",  # type: ignore[return-value]
                               warning_exits, packed_path=path, shown_as=source.display_name)
        with open(path, "rb") as packed:
            process = subprocess.Popen([tool, "-dc"], stdin=packed, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, env=child_environment())
        unread = None if left_unread is None else partial(left_unread, Path(path))
        return _PipeStream(process, f"{tool_name} -dc",  # type: ignore[return-value]
                           warning_exits, left_unread=unread)

    return opener


CODECS: tuple[Codec, ...] = (
    Codec("gzip", "application/gzip", ("gz", "tgz", "gzip"), _gzip),
    Codec("bzip2", "application/x-bzip2", ("bz2", "tbz2", "tbz", "bz"), _bzip2),
    Codec("xz", "application/x-xz", ("xz", "txz"), _xz),
    Codec("lzma", "application/x-lzma", ("lzma", "tlz"), _lzma),
    Codec("zstd", "application/zstd", ("zst", "tzst", "zstd"), _zstd),
    Codec("lz4", "application/x-lz4", ("lz4",), _lz4),
    # gzip and lzop exit 2 on "trailing garbage ignored": the data they gave is good
    Codec("compress", "application/x-compress", ("z", "taz"),
          _piped("gzip", "gzip", " (it reads .Z files)", frozenset({2})), "gzip", "gzip"),
    Codec("lzip", "application/x-lzip", ("lz",),
          _piped("lzip", "lzip", left_unread=holds_unread_bytes), "lzip", "lzip"),
    Codec("lzop", "application/x-lzop", ("lzo", "tzo"),
          _piped("lzop", "lzop", warning_exits=frozenset({2}), by_name=True), "lzop", "lzop"),
)

#: Short tar extensions that stand for ``.tar.<codec>``.
TAR_SHORTHANDS = frozenset({"tgz", "tbz2", "tbz", "txz", "tlz", "tzst", "taz", "tzo"})


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
    """The original file name a gzip header records (FNAME), when it has one: UTF-8 when
    it decodes as such, else Latin-1 (what RFC 1952 prescribes).

    >>> gzip_stored_name(b"\\x1f\\x8b\\x08\\x08" + bytes(6) + "relatório.txt".encode() + b"\\0")
    'relatório.txt'
    >>> gzip_stored_name(b"\\x1f\\x8b\\x08\\x08" + bytes(6) + "relatório.txt".encode("latin-1")
    ...                  + b"\\0")
    'relatório.txt'
    >>> gzip_stored_name(b"\\x1f\\x8b\\x08\\x08" + bytes(6) + b"C:ata.txt\\0")
    'ata.txt'
    >>> gzip_stored_name(b"\\x1f\\x8b\\x08\\x08" + bytes(6) + b"..\\0") is None
    True
    """
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
    raw = head[pos:end]
    try:
        # RFC 1952 says ISO 8859-1, but gzip on today's systems stores the name's bytes
        # as they are, which is UTF-8; Latin-1 text is almost never valid UTF-8.
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    # The name is a hint for the one file the gzip holds, which goes beside the archive
    # whatever it says (gzip -N keeps its last part): a folder or drive in front of it
    # is dropped, and a name that names no file (., ..) leaves the file its own name.
    stored = text.replace("\\", "/").rsplit("/", 1)[-1]
    stored = _DRIVE.sub("", stored)
    return stored if stored not in ("", ".", "..") else None


_DRIVE = re.compile(r"^[A-Za-z]:")
