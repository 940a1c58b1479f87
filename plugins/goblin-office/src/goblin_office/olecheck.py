"""Sector chains of an OLE2 (compound) file checked for loops before a reader follows them.

calamine, catdoc and antiword follow a stream's chain of sectors until its end
mark: a chain that loops back on itself never ends, and they allocate until
the process aborts (calamine) or the machine runs out of memory (catdoc).
olefile parses the allocation tables without following the chains, so each
chain is walked here with what it has read, and a loop refuses the file.

The same first look refuses a directory olefile cannot walk: it follows each
storage's tree of entries one recursive call a level, and the format's trees are
balanced (red-black: a few dozen levels for millions of entries), but entries
chained sibling after sibling take a level each, and a thousand of them end in
RecursionError, which readers expecting olefile's OSError or ValueError let through.
"""

from __future__ import annotations

import io
import logging
import struct
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import BinaryIO

import olefile
import xlrd

from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office.sheetspan import copies_refused

log = logging.getLogger(__name__)

# sector numbers at or past this one are marks (free, end of chain, FAT, DIFAT)
_MAX_SECTOR = 0xFFFFFFFA
_END_OF_CHAIN = 0xFFFFFFFE
_FREE = 0xFFFFFFFF
_STREAMS = (olefile.STGTY_STREAM, olefile.STGTY_ROOT)


def open_compound_file(stream: BinaryIO, name: str) -> olefile.OleFileIO:
    """olefile's reading of the compound file in ``stream`` (the file ``name``).

    Raises CorruptDocument when its directory is nested too deep for olefile to walk,
    and what olefile raises otherwise.
    """
    try:
        return olefile.OleFileIO(stream)
    except RecursionError as exc:
        raise CorruptDocument(
            "the OLE directory's entries are chained too deep to walk (the format keeps "
            "each storage's entries in a balanced tree); the file is damaged or built to "
            "crash readers",
            file=name,
        ) from exc


def check_ole_chains(source: Source) -> None:
    """Raise CorruptDocument when the OLE file ``source``'s header names sectors the file
    does not hold, a sector chain of it loops, or its directory is nested too deep to walk."""
    _check_header(source.head(_HEADER.size), source.size, source.display_name)
    try:
        try:
            with source.open() as stream, \
                    open_compound_file(stream, source.display_name) as ole:
                _check(ole, source.display_name)
        except OSError:
            tolerated = _without_unused_difat_count(source)
            if tolerated is None:
                raise
            # olefile refuses a DIFAT counted but never started, which calamine and
            # xlrd read past: check the chains they will follow all the same
            with open_compound_file(io.BytesIO(tolerated), source.display_name) as ole:
                _check(ole, source.display_name)
    except CorruptDocument:
        raise
    except Exception as exc:  # olefile raises OSError, ValueError, IndexError...
        # an OLE file olefile cannot parse is left to the readers, which report it
        log.debug("%s: OLE chains not checked: %s", source.display_name, exc)


# the DIFAT's first sector and count in the header
_DIFAT_FIELDS = struct.Struct("<II")
_DIFAT_AT = 68


def _without_unused_difat_count(source: Source) -> bytes | None:
    """The file with its header's DIFAT count set to 0 when the DIFAT's first sector is
    an end or free mark (a count the readers that tolerate it ignore); None otherwise."""
    first, count = _DIFAT_FIELDS.unpack_from(source.head(_DIFAT_AT + _DIFAT_FIELDS.size),
                                             _DIFAT_AT)
    if not count or first not in (_END_OF_CHAIN, _FREE):
        return None
    data = bytearray(source.bytes())
    _DIFAT_FIELDS.pack_into(data, _DIFAT_AT, first, 0)
    return bytes(data)


# the header's sector shift, then (after the transaction signature) the counts and
# first sectors of the FAT, the directory, the mini FAT and the DIFAT, then the first
# 109 FAT sector numbers
_HEADER = struct.Struct("<30xH12xII8xIIII436s")
_HEADER_FAT_SECTORS = 109


def _check_header(head: bytes, size: int, name: str) -> None:
    """Raise CorruptDocument when the header names a sector past the end of the file, or
    more sectors than the file holds.

    olefile refuses such a header, and the readers are left to report it; but calamine
    trusts it, and one DIFAT sector said to start at the end-of-chain mark had it
    allocate 4 GiB and then abort, or take 22 GB of a machine without a memory limit.
    No reader can read a file whose allocation tables or directory lie outside it.
    """
    if len(head) < _HEADER.size:
        return  # too short for a header: the readers say so
    (shift, fat_count, directory, mini_first, mini_count, difat_first, difat_count,
     fat_list) = _HEADER.unpack(head)
    if not 7 <= shift <= 16:
        return  # olefile and the readers refuse a sector size the format has not
    sector = 1 << shift
    # the header fills the first sector; sector 0 is the one after it
    held = max(0, -(-(size - max(sector, _HEADER.size)) // sector))
    fat_sectors = struct.unpack(f"<{_HEADER_FAT_SECTORS}I", fat_list)
    for what, count in (("FAT", fat_count), ("mini FAT", mini_count),
                        ("DIFAT", difat_count)):
        if count > held:
            raise CorruptDocument(
                f"the OLE header counts {count} {what} sectors, but the file holds {held} "
                f"sectors of {sector} bytes; it is cut short or damaged",
                file=name,
            )
    # where a reader starts: the directory always; the FAT sectors the header lists (a
    # free entry is skipped); the mini FAT and the DIFAT when counted, their end mark
    # meaning none, as the tolerant readers take it
    named = [("directory", directory)]
    named += [("FAT", number) for number in fat_sectors[:min(fat_count, _HEADER_FAT_SECTORS)]
              if number != _FREE]
    if mini_count and mini_first != _END_OF_CHAIN:
        named.append(("mini FAT", mini_first))
    if difat_count and difat_first not in (_END_OF_CHAIN, _FREE):
        named.append(("DIFAT", difat_first))
    for what, number in named:
        if number >= held:
            where = "a chain mark, no sector" if number >= _MAX_SECTOR else \
                f"sector {number}"
            raise CorruptDocument(
                f"the OLE header puts the {what} at {where}, but the file holds "
                f"{held} sectors of {sector} bytes; it is cut short or damaged",
                file=name,
            )


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
        if sector >= _MAX_SECTOR:
            return
        if sector >= len(table):
            # no reader can follow it, and calamine grows its buffer to reach the sector
            # named, up to gigabytes for a sector number from damaged bytes
            raise CorruptDocument(
                f"the OLE {what} chain links to sector {sector}, past the {len(table)} "
                "sectors its allocation table maps; the file is damaged",
                file=name,
            )
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
# SST: the shared strings (total and unique counts, then the strings, running on into the
# CONTINUE records after it); LABELSST: a cell showing one (row, column, format, index)
_SST, _CONTINUE, _LABEL_SST = 0x00FC, 0x003C, 0x00FD
_SST_COUNTS = struct.Struct("<II")
_LABEL_SST_INDEX = struct.Struct("<I")
_LABEL_SST_SIZE = 10
_MAX_STRING = 0xFFFF  # a BIFF8 string's length is a 16-bit count of characters


def check_biff_sheets(source: Source, max_cells: int, max_chars: int) -> None:
    """Raise CorruptDocument when the .xls ``source`` holds what calamine cannot: a sheet
    declaring a used range past ``max_cells`` or cells whose shared strings spell out more
    than ``max_chars`` characters. Such a workbook is left to xlrd, which keeps only the
    cells it finds and one copy of each shared string.

    calamine sizes a sheet's cell grid from its DIMENSIONS record: a first row past
    the last (one damaged byte) makes the height wrap to billions and the allocation
    aborts the whole process, which no exception handler survives. It also copies a
    shared string into every cell that shows it, so a 1.6 MB workbook showing a
    32,767-character string in 100,000 cells asks for 3 GB, and the failed allocation
    aborts the process too.
    """
    try:
        with source.open() as stream, open_compound_file(stream, source.display_name) as ole:
            name = next((n for n in ("Workbook", "Book") if ole.exists(n)), None)
            if name is None:
                return
            stream = ole.openstream(name).read()
    except CorruptDocument:
        raise
    except Exception as exc:  # olefile raises OSError, ValueError, IndexError...
        log.debug("%s: BIFF sheets not checked: %s", source.display_name, exc)
        return
    shown: Counter[int] = Counter()
    shared: list[bytes] = []  # the first SST record and its CONTINUE records
    in_table = False
    biff8 = False  # BIFF5 to 8, the layout calamine reads formula records in
    for number, (kind, body, length) in enumerate(_records(stream)):
        if (number == 0 and kind not in _BOF) or (kind in _BOF and length < _BOF_SIZE):
            # calamine reads a BOF's version from its first bytes without checking that
            # it has them, and panics
            raise CorruptDocument(
                "the workbook stream does not start with a whole BOF record (a damaged "
                "or truncated file)", file=source.display_name)
        if number == 0:
            biff8 = kind == _BOF_BIFF8
        if biff8 and kind == _FORMULA and (
                length < _FORMULA_HEAD or _FORMULA_HEAD + _COUNT.unpack_from(
                    stream, body + _FORMULA_HEAD - 2)[0] > length):
            # calamine slices the formula's tokens by the length it declares, unchecked,
            # and panics
            raise CorruptDocument(
                "a formula record declares more formula bytes than it holds (a damaged "
                "file)", file=source.display_name)
        if kind == _LABEL_SST and length >= _LABEL_SST_SIZE:
            shown[_LABEL_SST_INDEX.unpack_from(stream, body + 6)[0]] += 1
        elif kind == _DIMENSIONS:
            _check_dimensions(stream, body, length, max_cells, source.display_name)
        in_table = (kind == _SST and not shared) or (kind == _CONTINUE and in_table)
        if in_table:
            shared.append(stream[body:body + length])
    if shown:
        _check_shared_strings(shared, shown, max_chars, source.display_name)


# BOF record types of BIFF2, 3, 4 and 5 to 8, and the smallest one (BIFF2's)
_BOF = frozenset({0x0009, 0x0209, 0x0409, 0x0809})
_BOF_SIZE = 4
_BOF_BIFF8 = 0x0809
# FORMULA: row, column, format (6 bytes), its cached value (8), flags (2), a reserved
# field (4), then the byte count of the formula's tokens (2) and the tokens
_FORMULA = 0x0006
_FORMULA_HEAD = 22
_COUNT = struct.Struct("<H")


def _records(stream: bytes) -> Iterator[tuple[int, int, int]]:
    """(type, body start, body length) of every record of a BIFF stream, up to the first
    one cut short."""
    position, end = 0, len(stream) - _RECORD_HEAD.size
    while position <= end:
        kind, length = _RECORD_HEAD.unpack_from(stream, position)
        body = position + _RECORD_HEAD.size
        if body + length > len(stream):
            return
        yield kind, body, length
        position = body + length


def _check_dimensions(stream: bytes, body: int, length: int, max_cells: int,
                      name: str) -> None:
    layout = _DIMENSIONS_BIFF8 if length >= 14 else _DIMENSIONS_BIFF5
    if length < layout.size:
        return
    first_row, last_row, first_column, last_column = layout.unpack_from(stream, body)
    cells = (last_row - first_row) * (last_column - first_column)
    if first_row > last_row or first_column > last_column or cells > max_cells:
        raise CorruptDocument(
            f"a sheet declares rows {first_row}-{last_row} and columns "
            f"{first_column}-{last_column}, a range calamine cannot hold; the "
            "workbook is damaged, and a reader that keeps only the cells it finds "
            "takes it",
            file=name,
        )


def _check_shared_strings(shared: list[bytes], shown: Counter[int], max_chars: int,
                          name: str) -> None:
    """Refuse cells that would spell out their shared strings past ``max_chars``."""
    cells = sum(shown.values())
    longest = min(_MAX_STRING, sum(map(len, shared)))
    if cells * longest <= max_chars:  # settled without reading a string
        return
    try:
        counts = _SST_COUNTS.unpack_from(shared[0]) if shared else (0, 0)
        strings, _runs = xlrd.book.unpack_SST_table(shared, counts[1])
        lengths = [len(text) for text in strings]
    except Exception:  # xlrd raises struct, index and decoding errors on a damaged table
        total = cells * longest  # the most those cells could be
    else:
        total = sum(lengths[index] * times for index, times in shown.items()
                    if index < len(lengths))
    if total > max_chars:
        raise copies_refused(name, cells, total)
