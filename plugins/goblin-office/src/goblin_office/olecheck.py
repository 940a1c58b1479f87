"""Sector chains of an OLE2 (compound) file checked for loops before a reader follows them.

calamine, catdoc and antiword follow a stream's chain of sectors until its end
mark: a chain that loops back on itself never ends, and they allocate until
the process aborts (calamine) or the machine runs out of memory (catdoc).
olefile parses the allocation tables without following the chains, so each
chain is walked here with what it has read, and a loop refuses the file.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

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
