"""An OLE2 file whose header or chains name sectors the file does not hold is refused
before any reader follows it. calamine grows its buffer to reach whatever sector it is
sent to: a directory chain damaged in a file olefile could not check (its DIFAT counted
but never started) had it allocate gigabytes and abort, or, with no memory limit, take
22 GB. Every reader of the format (xls, doc, ppt) is handed the same checks."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest
from packages import xls

from goblin_core import Document
from goblin_core.errors import CorruptDocument

Read = Callable[..., Document]

def _workbook() -> bytes:
    return xls("Plan1", ["Valor estimado"], [(0, 0, 0)])


def _with_header(data: bytes, offset: int, value: int) -> bytes:
    return data[:offset] + struct.pack("<I", value) + data[offset + 4:]


def test_the_workbook_the_tests_change_reads(read: Read) -> None:
    assert "Valor estimado" in read(_workbook(), "plan.xls").text


def _fat_entry_offset(data: bytes, sector: int) -> int:
    """Where the first FAT sector holds the next link of ``sector``."""
    (first_fat,) = struct.unpack_from("<I", data, 76)
    return 512 + first_fat * 512 + 4 * sector


def _directory_sector(data: bytes) -> int:
    return int(struct.unpack_from("<I", data, 48)[0])


def test_a_difat_counted_but_never_started_is_read_as_the_tolerant_readers_read_it(
        read: Read) -> None:
    assert "Valor estimado" in read(_with_header(_workbook(), 72, 1), "plan.xls").text


@pytest.mark.parametrize("counted_difat", [False, True])
@pytest.mark.parametrize(("link", "named"), [
    (None, "directory chain loops"),
    (0x00400000, "directory chain links to sector 4194304, past the"),
])
def test_a_directory_chain_that_loops_or_leaves_the_table_is_corrupt(
        read: Read, counted_difat: bool, link: int | None, named: str) -> None:
    data = _workbook()
    directory = _directory_sector(data)
    data = _with_header(data, _fat_entry_offset(data, directory),
                        directory if link is None else link)
    if counted_difat:
        data = _with_header(data, 72, 1)  # olefile refuses the file itself: checked anyway
    with pytest.raises(CorruptDocument, match=named):
        # a supervised worker: were the chain followed, its memory limit ends the read
        read(data, "plan.xls", isolate=True,
             config={"limits": {"max_memory": 512 * 1024 * 1024}})


@pytest.mark.parametrize(("offset", "value", "named"), [
    (48, 4000, "directory at sector 4000"),     # the directory past the end of the file
    (76, 0x7FFFFFF0, "FAT at sector"),          # the first FAT sector past the end
    (44, 50_000, "50000 FAT sectors"),          # more FAT sectors than the file holds
    (68, 3000, "DIFAT at sector 3000"),         # a DIFAT counted and started past the end
])
def test_a_header_naming_sectors_the_file_lacks_is_corrupt(
        read: Read, offset: int, value: int, named: str) -> None:
    data = _with_header(_workbook(), 72, 1) if offset == 68 else _workbook()
    with pytest.raises(CorruptDocument, match=named) as raised:
        read(_with_header(data, offset, value), "plan.xls", isolate=True,
             config={"limits": {"max_memory": 512 * 1024 * 1024}})
    assert "plan.xls" in str(raised.value)
    assert "cut short or damaged" in str(raised.value)
