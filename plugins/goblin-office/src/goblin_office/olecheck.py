"""Sector chains of an OLE2 (compound) file checked for loops before a reader follows them.

calamine, catdoc and antiword follow a stream's chain of sectors until its end
mark: a chain that loops back on itself never ends, and they allocate until
the process aborts (calamine) or the machine runs out of memory (catdoc).
olefile parses the allocation tables without following the chains, so each
chain is walked here with what it has read, and a loop refuses the file.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Iterator, Sequence

import olefile

from goblin_core.errors import CorruptDocument
from goblin_core.source import Source

log = logging.getLogger(__name__)

# sector numbers at or past this one are marks (free, end of chain, FAT, DIFAT)
_MAX_SECTOR = 0xFFFFFFFA
_STREAMS = (olefile.STGTY_STREAM, olefile.STGTY_ROOT)


def check_ole_chains(source: Source) -> None:
    """Raise CorruptDocument when a sector chain of the OLE file ``source`` loops."""
    try:
        with olefile.OleFileIO(source.open()) as ole:
            _check(ole, source.display_name)
    except CorruptDocument:
        raise
    except Exception as exc:  # olefile raises OSError, ValueError, IndexError...
        # an OLE file olefile cannot parse is left to the readers, which report it
        log.debug("%s: OLE chains not checked: %s", source.display_name, exc)


def _check(ole: olefile.OleFileIO, name: str) -> None:
    fat = ole.fat
    _walk(fat, ole.first_dir_sector, len(fat), "directory", name)
    _walk(fat, ole.first_mini_fat_sector, len(fat), "mini allocation table", name)
    streams = [e for e in ole.direntries if e is not None and e.entry_type in _STREAMS]
    small = [e for e in streams if e.entry_type == olefile.STGTY_STREAM
             and e.size < ole.minisectorcutoff]
    for entry in streams:
        if entry not in small:
            sectors = -(-entry.size // ole.sectorsize)
            _walk(fat, entry.isectStart, sectors, f"stream {entry.name!r}", name)
    if small:
        # the mini stream (the root's chain) was checked above, so olefile may read it
        ole.loadminifat()
        for entry in small:
            sectors = -(-entry.size // ole.minisectorsize)
            _walk(ole.minifat, entry.isectStart, sectors, f"stream {entry.name!r}", name)


def _walk(table: Sequence[int], start: int, steps: int, what: str, name: str) -> None:
    """Follow ``steps`` links of the chain from ``start``; a sector met twice is a loop."""
    seen: set[int] = set()
    sector = start
    for _ in range(min(steps, len(table))):
        if sector >= _MAX_SECTOR or sector >= len(table):
            return
        if sector in seen:
            raise CorruptDocument(
                f"the OLE {what} chain loops back to sector {sector}; the file is damaged "
                "or built to hang readers",
                file=name,
            )
        seen.add(sector)
        sector = table[sector]


# BIFF DIMENSIONS: first row, last row + 1 (32-bit in BIFF8, 16-bit before), first and
# last column + 1, then reserved bytes
_DIMENSIONS = 0x0200
_DIMENSIONS_BIFF8 = struct.Struct("<IIHH")
_DIMENSIONS_BIFF5 = struct.Struct("<HHHH")
_RECORD_HEAD = struct.Struct("<HH")


def check_biff_dimensions(source: Source, max_cells: int) -> None:
    """Raise CorruptDocument when a sheet of the .xls ``source`` declares a used range
    calamine cannot hold.

    calamine sizes a sheet's cell grid from its DIMENSIONS record: a first row past
    the last (one damaged byte) makes the height wrap to billions and the allocation
    aborts the whole process, which no exception handler survives. Such a workbook
    is left to xlrd, which reads the cells it finds.
    """
    try:
        with olefile.OleFileIO(source.open()) as ole:
            name = next((n for n in ("Workbook", "Book") if ole.exists(n)), None)
            if name is None:
                return
            stream = ole.openstream(name).read()
    except Exception as exc:  # olefile raises OSError, ValueError, IndexError...
        log.debug("%s: BIFF dimensions not checked: %s", source.display_name, exc)
        return
    for first_row, last_row, first_column, last_column in _dimensions(stream):
        cells = (last_row - first_row) * (last_column - first_column)
        if first_row > last_row or first_column > last_column or cells > max_cells:
            raise CorruptDocument(
                f"a sheet declares rows {first_row}-{last_row} and columns "
                f"{first_column}-{last_column}, a range calamine cannot hold; the "
                "workbook is damaged, and a reader that keeps only the cells it finds "
                "takes it",
                file=source.display_name,
            )


def _dimensions(stream: bytes) -> Iterator[tuple[int, int, int, int]]:
    """Every DIMENSIONS record of a BIFF stream, walked record by record."""
    position, end = 0, len(stream) - _RECORD_HEAD.size
    while position <= end:
        kind, length = _RECORD_HEAD.unpack_from(stream, position)
        body = position + _RECORD_HEAD.size
        if kind == _DIMENSIONS and body + length <= len(stream):
            layout = _DIMENSIONS_BIFF8 if length >= 14 else _DIMENSIONS_BIFF5
            if length >= layout.size:
                yield layout.unpack_from(stream, body)
        position = body + length
