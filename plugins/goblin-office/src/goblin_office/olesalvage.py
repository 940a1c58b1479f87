"""What survives of a compound file (OLE2: .doc, .ppt) cut short, for the salvage engines.

Word, PowerPoint and LibreOffice write a compound file's allocation tables and directory
after its streams: a file cut short has lost its directory, and with it the names and
places of its streams, so no reader of compound files opens it. Its streams are still
there, sector after sector: a salvage engine finds the one it reads by the stream's own
structure (a Word FIB, a PowerPoint record) and follows its chain here, as far as the
surviving allocation tables give it and sector after sector beyond them, as the writers
lay their streams out.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator

import olefile

from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office.encryption import OLE_MAGIC
from goblin_office.olecheck import check_ole_chains

#: sector numbers from this one on are marks: end of chain, free, a FAT or DIFAT sector
_MARKS = 0xFFFFFFFA
#: the header: its sector shift, the FAT sector count, then the first 109 FAT sectors
_SHIFT_AT, _FAT_COUNT_AT, _FAT_LIST_AT, _FAT_LISTED = 30, 44, 76, 109
#: streams under the mini stream cutoff sit in 64-byte mini sectors of the root's stream
MINI_SECTOR = 64


class SurvivingSectors:
    """The sectors of a compound file cut short, and the next-sector links its surviving
    FAT sectors give."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        shift = struct.unpack_from("<H", data, _SHIFT_AT)[0]
        if shift not in (9, 12):
            raise ValueError(f"a sector shift of {shift}")
        self.size = 1 << shift
        count = struct.unpack_from("<I", data, _FAT_COUNT_AT)[0]
        listed = struct.unpack_from(f"<{_FAT_LISTED}I", data, _FAT_LIST_AT)
        self.fat_sectors = {number for number in listed[:min(count, _FAT_LISTED)]
                            if number < _MARKS}
        per_sector = self.size // 4
        self.links: dict[int, int] = {}
        for index, number in enumerate(listed[:min(count, _FAT_LISTED)]):
            start = self.offset(number)
            if number >= _MARKS or start + self.size > len(data):
                continue  # lost with the cut: its sectors' links are guessed
            for slot, following in enumerate(struct.unpack_from(f"<{per_sector}I", data, start)):
                self.links[index * per_sector + slot] = following

    def offset(self, number: int) -> int:
        return (number + 1) * self.size  # the header fills the sector before sector 0

    def chain(self, first: int, limit: int) -> bytes:
        """At most ``limit`` bytes of the stream starting at sector ``first``: its chain as
        the surviving FAT gives it, the sector after sector beyond that, up to the cut."""
        pieces: list[bytes] = []
        held = 0
        seen: set[int] = set()
        number = first
        while number < _MARKS and number not in seen and held < limit:
            start = self.offset(number)
            if start >= len(self.data):
                break
            seen.add(number)
            piece = self.data[start : start + min(self.size, limit - held)]
            pieces.append(piece)
            held += len(piece)
            number = self.links.get(number, number + 1)
            while number in self.fat_sectors:
                number += 1  # a guess at a FAT sector: the stream goes on past it
        return b"".join(pieces)

    def stream(self, at: int, limit: int) -> bytes:
        """At most ``limit`` bytes of a stream found starting at byte ``at`` of the file: a
        chain when it starts a sector, else a run of the mini stream, read as it lies."""
        if at % self.size == 0 and at >= self.size:
            return self.chain(at // self.size - 1, limit)
        return self.data[at : at + limit]


def stream_starts(data: bytes, starts_stream: Callable[[bytes, int], bool]) -> Iterator[int]:
    """Where, at a sector or mini sector of the compound file ``data``, a stream begins
    that ``starts_stream(data, offset)`` knows by its first bytes."""
    for at in range(MINI_SECTOR, len(data), MINI_SECTOR):
        if starts_stream(data, at):
            yield at


def surviving_sectors(source: Source) -> SurvivingSectors:
    """The sectors of the compound file ``source``, which no reader opens: CorruptDocument
    for a file that is no compound file, or a whole one (it names no sector past its end
    and olefile opens it), refused for a reason of its own that salvaging would undo."""
    data = source.bytes()
    if not data.startswith(OLE_MAGIC) or _whole(source):
        raise CorruptDocument("the compound file's directory is readable, so there is "
                              "nothing to salvage", file=source.display_name)
    try:
        return SurvivingSectors(data)
    except (struct.error, ValueError) as exc:
        raise CorruptDocument(f"the compound file's header is damaged ({exc})",
                              file=source.display_name) from exc


def _whole(source: Source) -> bool:
    try:
        check_ole_chains(source)
        with olefile.OleFileIO(source.bytes()):
            return True
    except Exception:  # olefile raises OSError, ValueError, IndexError... on damage
        return False
