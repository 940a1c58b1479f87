"""Single-file compressors: one member (the decompressed file), or a tar's members.

``x.pdf.xz`` yields ``x.pdf``; ``x.tar.gz`` (or ``.tgz``, ``.tar.Z``...) is
one archive whose members are the tar's members, found by looking at the
decompressed bytes, not the name. Multi-member gzip and multi-stream bzip2
and zstd are read to the end. A stream cut short or damaged part way keeps what
decoded before the damage, as ``gzip -d`` writes it out: the member is read from
those bytes and the damage is reported after it.
"""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from dataclasses import replace
from typing import BinaryIO

from goblin_archives.compression import Codec, gzip_stored_name, member_name
from goblin_archives.concatenated import TrailingGarbage
from goblin_archives.guarded import GuardedStream, Salvaging, translated
from goblin_archives.scratch import ByteMeter
from goblin_archives.tar_handler import tar_members
from goblin_archives.tar_header import BLOCK, is_tar_header
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source


class CompressedHandler(BaseEngine):
    """One compressor (gzip, bzip2, xz...), with tars inside it read as tars."""

    priority = 50

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.name = f"archive.{codec.name}"
        self.formats = (codec.mime,)

    def available(self) -> tuple[bool, str]:
        if self.codec.tool and shutil.which(self.codec.tool) is None:
            package = self.codec.debian_package
            return False, f"{self.codec.tool} not found: apt-get install {package}"
        return True, ""

    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        display = source.display_name
        with translated(display, f"{self.codec.name} decompression"):
            probe = Salvaging(self.codec.opener(source))
            try:
                first = probe.read(BLOCK)
            finally:
                probe.close()
        if not first:
            probe.raise_damage(display, f"{self.codec.name} decompression")
        if is_tar_header(first):
            yield from self._tar(source, limits, config)
            return
        salvaged: list[Salvaging] = []
        yield self._single(source, display, salvaged)
        for salvage in salvaged:
            if salvage.damage is None:
                continue
            if _trailing_garbage(salvage.damage):
                raise _trailing(self.codec, salvage.damage, display)
            raise _cut(self.codec, salvage, display)

    def _tar(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        with translated(source.display_name, f"{self.codec.name} decompression"):
            stream = self.codec.opener(source)
        # Everything decompressed counts, members skipped unread too: a tar of many small
        # members, or of one huge member refused by its declared size, still expands
        # every byte on the way to the next header.
        meter = ByteMeter(limits, max(source.size, 1), source.display_name)
        salvage = Salvaging(stream)
        guarded = GuardedStream(salvage, source.display_name, meter=meter)
        what = f"{self.codec.name} decompression"
        try:
            for member in tar_members(guarded, source.display_name, config):  # type: ignore[arg-type]
                # A tar inside a compressor has no per-member packed size; the whole
                # file stands in, so a bomb member still trips the ratio check.
                yield replace(member, compressed_size=source.size)
        except CorruptDocument:
            # The tar ran short because the compressed stream did: say so, not "end of data".
            salvage.raise_damage(source.display_name, what)
            raise
        finally:
            guarded.close()
        # A damaged stream after the tar's last member (trailing garbage) is said too.
        if salvage.damage is not None and _trailing_garbage(salvage.damage):
            raise _trailing(self.codec, salvage.damage, source.display_name)
        salvage.raise_damage(source.display_name, what)

    def _single(self, source: Source, display: str, salvaged: list[Salvaging]) -> Member:
        stored = gzip_stored_name(source.head(1024)) if self.codec.name == "gzip" else None
        name = member_name(source, self.codec, stored)

        def opener() -> BinaryIO:
            with translated(display, f"{self.codec.name} decompression"):
                inner = self.codec.opener(source)
            # Bytes after the last whole gzip member (as `gzip -d` says: trailing garbage
            # ignored) leave the member whole; a stream cut part way leaves the part before
            # the cut. Either way the member is read, and the damage reported after.
            salvage = Salvaging(inner)
            salvaged.append(salvage)
            return GuardedStream(salvage, f"{display}/{name}")  # type: ignore[return-value]

        # The whole file is the member's packed size: the ratio check needs it.
        return Member(name=name, open=opener, size=None, compressed_size=source.size,
                      decompressed=True)


def _trailing_garbage(exc: BaseException) -> bool:
    """Whether the decoder stopped at bytes that start no new member, past the last whole
    one."""
    if isinstance(exc, TrailingGarbage):
        return True
    return isinstance(exc, gzip.BadGzipFile) and str(exc).startswith("Not a gzipped file")


def _cut(codec: Codec, salvage: Salvaging, display: str) -> CorruptDocument:
    """The error for a stream that broke part way, the text decoded before the break kept."""
    damage = salvage.damage
    return CorruptDocument(
        f"{codec.name} decompression failed after {salvage.given:,} bytes: "
        f"{type(damage).__name__}: {damage}; the file is truncated or damaged: what "
        "decoded before the damage is kept, the rest is lost",
        file=display,
    )


def _trailing(codec: Codec, damage: BaseException, display: str) -> CorruptDocument:
    """The error for bytes after the last whole stream, the text before them kept."""
    if isinstance(damage, TrailingGarbage):
        cause = str(damage)
    else:
        cause = f"bytes after the last gzip member are no gzip data ({damage})"
    return CorruptDocument(f"{cause}: trailing garbage, ignored; the members before it "
                           "were read", file=display)
