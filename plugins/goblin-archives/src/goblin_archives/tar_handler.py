"""tar, read as a stream: members come out one at a time, in archive order.

The same reader serves plain tars and tars inside a compressor (the
compressed handlers hand it their decompressing stream), so a ``.tar.gz``
lists the tar's own members, as ``bsdtar -tf`` does.
"""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from typing import BinaryIO

from goblin_archives.guarded import GuardedStream, translated
from goblin_archives.last_resort import noting_failures
from goblin_archives.names import decode_name, guess_encoding, raw_from_surrogates
from goblin_archives.scratch import ByteMeter
from goblin_archives.volumes import (
    first_volume_beside,
    later_volume,
    volume_member,
    whole_file,
)
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member, MemberKind
from goblin_core.source import Source

#: Read size of a streamed (decompressed) tar; tarfile's default record is 10 KB.
_STREAM_BUFFER = 1 << 20


class TarHandler(BaseEngine):
    """POSIX, GNU and V7 tar through the standard library, streamed."""

    name = "archive.tar"
    formats = ("application/x-tar",)
    priority = 50

    @noting_failures
    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        if first_volume_beside(source):
            # A piece of a split tar can start on a header: it is still read through part 1.
            yield volume_member(source, later_volume(source))
            return
        with whole_file(source) as (opener, size):
            stream = opener()
            # A plain tar expands to its own size, but a sparse member's holes read as
            # zeros: a few headers can claim terabytes.
            meter = ByteMeter(limits, max(size, 1), source.display_name)
            try:
                # A tar on disk or in memory can seek: members are read straight from
                # their offsets instead of through tarfile's 10 KB stream records.
                yield from tar_members(stream, source.display_name, config, seekable=True,
                                       meter=meter)
            finally:
                stream.close()


def tar_members(stream: BinaryIO, display: str, config: Config,
                seekable: bool = False, meter: ByteMeter | None = None) -> Iterator[Member]:
    """Members of the tar read from ``stream`` (already decompressed), lazily.

    Each member's ``open()`` is valid until the next member is listed: a
    streamed tar cannot go back. ``seekable`` says ``stream`` can seek, which
    lets tarfile read each member from its offset. ``meter``, when given,
    counts what the members read expand to.
    """
    names = _NameDecoder(str(config.get("archives", "name_encoding") or ""))
    with translated(display, "reading the tar"):
        archive = tarfile.open(  # noqa: SIM115 - closed by the with block just below
            fileobj=stream, mode="r:" if seekable else "r|", encoding="utf-8",
            errors="surrogateescape", bufsize=_STREAM_BUFFER)
    with archive:
        iterator = iter(archive)
        while True:
            with translated(display, "reading the tar"):
                info = next(iterator, None)
            if info is None:
                return
            if meter is not None:
                meter.check_total()
            yield _member(archive, info, display, names, meter)


def _member(archive: tarfile.TarFile, info: tarfile.TarInfo, display: str,
            names: _NameDecoder, meter: ByteMeter | None) -> Member:
    name = names.decode(info.name)
    kind = _kind(info)

    def opener() -> BinaryIO:
        with translated(f"{display}/{name}", "reading the member"):
            inner = archive.extractfile(info)
        if inner is None:
            raise tarfile.ReadError(f"{name} has no data")
        return GuardedStream(inner, f"{display}/{name}", meter=meter)  # type: ignore[return-value]

    return Member(
        name=name,
        open=opener,
        size=info.size if kind == "file" else 0,
        compressed_size=None,
        kind=kind,
        mode=info.mode,
        link_target=names.decode(info.linkname) if info.linkname else None,
    )


def _kind(info: tarfile.TarInfo) -> MemberKind:
    if info.isreg():
        return "file"
    if info.isdir():
        return "dir"
    if info.issym():
        return "symlink"
    if info.islnk():
        return "hardlink"
    if info.ischr() or info.isblk():
        return "device"
    if info.isfifo():
        return "fifo"
    return "other"


class _NameDecoder:
    """Decodes legacy-encoded tar names, guessing from every such name seen so far.

    A streamed tar cannot be listed ahead, so the guess grows with the names:
    more text, a surer guess.
    """

    def __init__(self, forced: str) -> None:
        self.forced = forced
        self.seen: list[bytes] = []

    def decode(self, name: str) -> str:
        raw = raw_from_surrogates(name)
        if raw is None and not self.forced:
            return name
        if raw is None:
            raw = name.encode("utf-8")
        self.seen.append(raw)
        return decode_name(raw, guess_encoding(self.seen[-64:], self.forced))
