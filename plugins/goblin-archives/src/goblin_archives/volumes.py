"""Multi-volume sets on disk: which files make one set, and which file is a later part.

Three naming schemes are recognised:

- numbered: ``x.zip.001``, ``x.zip.002``... (also ``x.7z.001``, ``x.tar.001``),
  an archive cut into pieces by bytes; the set is the first volume and the
  consecutive numbers after it, read as one file;
- spanned zip: ``x.z01``, ``x.z02``... ending with ``x.zip``, which holds the
  central directory and is the file to open;
- RAR: ``x.part1.rar``, ``x.part2.rar``... (and ``x.rar``, ``x.r00``...), which
  rarfile and unar follow by themselves from the first volume.

A set is only ever looked for beside a file on disk: a member of an archive
has no siblings to find.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import BinaryIO

from goblin_archives.scratch import Scratch
from goblin_core.engines import Member
from goblin_core.source import Source

_NUMBERED = re.compile(r"^(?P<stem>.+)\.(?P<number>\d{3,})$")
_SPANNED = re.compile(r"^(?P<stem>.+)\.(?P<z>[zZ])(?P<number>\d{2,})$")
_RAR_PART = re.compile(r"^(?P<stem>.+)\.part(?P<number>\d+)\.rar$", re.IGNORECASE)
_BUFFER = 1 << 20
#: What the sniffer calls a later part of a set whose content is no format of its own.
VOLUME_MIME = "application/x-archive-volume"


@dataclass(frozen=True)
class VolumeSet:
    """The files of one set, in reading order."""

    parts: tuple[Path, ...]

    @property
    def size(self) -> int:
        """Bytes of the whole set on disk."""
        return sum(part.stat().st_size for part in self.parts)


def numbered_set(source: Source) -> VolumeSet | None:
    """The set ``x.001, x.002...`` when ``source`` is its first volume, with a second beside it.

    >>> numbered_set(Source.from_bytes(b"", "x.zip.001")) is None  # not on disk
    True
    """
    path = _on_disk(source)
    found = _NUMBERED.match(path.name) if path else None
    if path is None or found is None or int(found["number"]) != 1:
        return None
    stem, width = found["stem"], len(found["number"])
    parts = [path]
    while (following := path.with_name(f"{stem}.{len(parts) + 1:0{width}d}")).is_file():
        parts.append(following)
    return VolumeSet(tuple(parts)) if len(parts) > 1 else None


def spanned_zip_set(source: Source) -> VolumeSet | None:
    """The set ``x.z01, x.z02..., x.zip`` when ``source`` is ``x.zip`` with ``x.z01`` beside it."""
    path = _on_disk(source)
    if path is None or path.suffix.lower() != ".zip":
        return None
    stem = path.name[: -len(path.suffix)]
    letter = "Z" if path.suffix == ".ZIP" else "z"
    parts: list[Path] = []
    while (segment := path.with_name(f"{stem}.{letter}{len(parts) + 1:02d}")).is_file():
        parts.append(segment)
    return VolumeSet((*parts, path)) if parts else None


@contextmanager
def whole_file(source: Source) -> Iterator[tuple[Callable[[], BinaryIO], int]]:
    """An opener for ``source`` read whole, and its size in bytes.

    When ``source`` is the first volume of a numbered set, the opener gives one
    seekable stream over every part in order and the size is the set's;
    otherwise they are the source's own.
    """
    volumes = numbered_set(source)
    if volumes is None:
        yield source.open, source.size
        return
    with Scratch(prefix="goblin-volumes-") as scratch:
        # multivolumefile reads every file named ``base.*`` in a folder: a private
        # folder of links named in order shows it this set alone, whatever lies beside it.
        for number, part in enumerate(volumes.parts, start=1):
            os.symlink(part.resolve(), scratch.path / f"set.{number:06d}")
        yield partial(_open_joined, scratch.path / "set"), volumes.size


def _open_joined(base: Path) -> BinaryIO:
    import multivolumefile

    joined = multivolumefile.open(base, mode="rb")
    # The buffered reader turns the short reads at volume boundaries into full ones.
    return io.BufferedReader(joined, buffer_size=_BUFFER)


def later_volume(source: Source) -> str:
    """Why ``source`` is a later part of a set read through another file ('' when it is not).

    >>> later_volume(Source.from_bytes(b"", "dados.7z.002"))
    'part 2 of the split set dados.7z.001 (read through dados.7z.001)'
    >>> later_volume(Source.from_bytes(b"", "dados.7z.001"))
    ''
    """
    place = _place_in_set(source.name)
    if place is None:
        return ""
    what, first = place
    path = _on_disk(source)
    if path is not None and not path.with_name(first).is_file():
        return f"{what} ({first} is not beside it; give the first volume with every part)"
    return f"{what} (read through {first})"


def first_volume_beside(source: Source) -> bool:
    """True when ``source`` is a later part and the set's first file lies beside it on disk."""
    place = _place_in_set(source.name)
    path = _on_disk(source)
    return place is not None and path is not None and path.with_name(place[1]).is_file()


def _place_in_set(name: str) -> tuple[str, str] | None:
    """(which part of which set, the set's first file) for a later part's name, else None."""
    if found := _NUMBERED.match(name):
        number, width = int(found["number"]), len(found["number"])
        first = f"{found['stem']}.{1:0{width}d}"
        return (f"part {number} of the split set {first}", first) if number >= 2 else None
    if found := _SPANNED.match(name):
        first = f"{found['stem']}.{'ZIP' if found['z'] == 'Z' else 'zip'}"
        return f"segment {int(found['number'])} of the spanned zip {first}", first
    if (found := _RAR_PART.match(name)) and int(found["number"]) >= 2:
        first = f"{found['stem']}.part{1:0{len(found['number'])}d}.rar"
        return f"part {int(found['number'])} of the RAR set {first}", first
    return None


_RAR_OLD = re.compile(r"^(?P<stem>.+)\.(?:rar|(?P<r>[rR])(?P<number>\d{2,}))$", re.IGNORECASE)


def next_rar_volume(name: str) -> str:
    """The file name of the RAR volume after ``name`` ('' when its naming is unknown).

    >>> next_rar_volume("dossie.part1.rar"), next_rar_volume("dossie.part09.rar")
    ('dossie.part2.rar', 'dossie.part10.rar')
    >>> next_rar_volume("dossie.rar"), next_rar_volume("dossie.r00")
    ('dossie.r00', 'dossie.r01')
    """
    if found := _RAR_PART.match(name):
        number = found["number"]
        return f"{found['stem']}.part{int(number) + 1:0{len(number)}d}.rar"
    if found := _RAR_OLD.match(name):
        if found["number"] is None:
            return f"{found['stem']}.{'R' if name.endswith('.RAR') else 'r'}00"
        number = found["number"]
        return f"{found['stem']}.{found['r']}{int(number) + 1:0{len(number)}d}"
    return ""


def spanned_segment_names(text: str, zip_name: str, link_stem: str) -> str:
    """``text`` (a tool's message) with the private links of a spanned set
    (``set.z01``... ``set.zip``) named as the caller knows the files.

    >>> spanned_segment_names("Missing volume : set.z02", "dossie.zip", "set")
    'Missing volume : dossie.z02'
    """
    stem = zip_name[: -len(".zip")] if zip_name.lower().endswith(".zip") else zip_name
    segments = re.compile(rf"\b{re.escape(link_stem)}\.(?P<z>[zZ])(?P<number>\d{{2,}})\b")
    text = segments.sub(lambda found: f"{stem}.{found['z']}{found['number']}", text)
    return re.sub(rf"\b{re.escape(link_stem)}\.zip\b", zip_name, text)


def volume_member(source: Source, reason: str) -> Member:
    """The one member a later volume lists: skipped, with ``reason``."""
    return Member(name=source.name, open=_nothing, size=0, kind="volume", note=reason)


def _on_disk(source: Source) -> Path | None:
    # A spooled copy of a member is on disk too, but alone: only files the caller gave count.
    return source.path() if source.is_file else None


def _nothing() -> BinaryIO:
    return io.BytesIO(b"")  # never called: the core skips volume members unread
