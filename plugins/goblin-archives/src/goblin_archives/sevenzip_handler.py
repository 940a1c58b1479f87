"""7z through py7zr, decompressed into a private folder under a byte meter.

7z packs members into solid blocks that can only be decoded front to back,
so members are written (by py7zr, through goblin's writer factory) into a
private temporary folder while a meter enforces the limits on every write;
then they are handed to the core one by one and the folder is removed.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from functools import partial
from typing import BinaryIO

from goblin_archives.last_resort import last_resort_runs, noting_failures
from goblin_archives.passwords import password_for
from goblin_archives.scratch import ByteMeter, Scratch
from goblin_archives.sniffers import SEVEN_ZIP, seven_zip_behind_program
from goblin_archives.stream_views import StreamView
from goblin_archives.volumes import whole_file
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member
from goblin_core.errors import UnsupportedFormat
from goblin_core.source import Source


class SevenZipHandler(BaseEngine):
    """7z archives (LZMA, LZMA2, PPMd, BZip2, Deflate, AES) through py7zr, split sets too."""

    name = "archive.7z"
    formats = ("application/x-7z-compressed",)
    priority = 50

    @noting_failures
    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        display = source.display_name
        password = password_for(config)
        from goblin_archives.sevenzip_extraction import extract, member  # loads py7zr

        # x.7z.001 with x.7z.002... beside it: the set is read as one file.
        with whole_file(source) as (whole, size), Scratch() as scratch:
            opener = _from_archive_start(source, whole)
            meter = ByteMeter(limits, max(size, 1), display)
            files, written, damage = extract(opener, display, password, meter, scratch.path)
            if isinstance(damage, UnsupportedFormat) and last_resort_runs(config, "7z"):
                # 7-Zip, next in line through patool, decodes the methods py7zr lacks
                # (BCJ2): the whole archive, where once members are read it would not run.
                raise damage
            for entry, file in zip(files, written, strict=True):
                yield member(entry, file)
            if damage is not None:
                raise damage


def _from_archive_start(source: Source, opener: Callable[[], BinaryIO]) -> Callable[[], BinaryIO]:
    """``opener``, or, for a self-extractor (a program with the 7z after it), an opener of
    the file from where the 7z starts: py7zr reads the archive from its first byte."""
    if source.head(len(SEVEN_ZIP)) == SEVEN_ZIP:
        return opener
    start = seven_zip_behind_program(source)
    if not start:
        return opener
    return partial(_shifted, opener, start)


def _shifted(opener: Callable[[], BinaryIO], start: int) -> BinaryIO:
    return Shifted(opener(), start)  # type: ignore[return-value]


class Shifted(StreamView):
    """``stream`` from byte ``start`` on, as a file of its own."""

    def __init__(self, stream: BinaryIO, start: int) -> None:
        super().__init__(stream)
        self._start = start
        stream.seek(start)

    def tell(self) -> int:
        return self._stream.tell() - self._start

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            if offset < 0:
                raise OSError("seek before the start of the 7z")
            offset += self._start
        position = self._stream.seek(offset, whence)
        if position < self._start:
            self._stream.seek(self._start)
            raise OSError("seek before the start of the 7z")
        return position - self._start

    def read(self, size: int | None = -1) -> bytes:
        return self._stream.read(-1 if size is None else size)
