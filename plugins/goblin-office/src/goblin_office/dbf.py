"""dBASE tables (.dbf) with their code page and memo files, read with dbfread.

The code page comes from the header's language driver byte; when the header
does not say (driver 0), it is detected from the character fields' bytes.
Memo files (.dbt, .fpt) beside the table are read when present, through dbfread's
memo classes with reads of their own: dbfread grows a dBASE III memo a block at a
time and searches all of it again for the end mark after each block, so a memo of
no end mark costs time in the square of its size (20 s for 8 MB), and nothing
bounds the memos a record points at (fifty fields sharing one 20 MB memo made a
1.1 GB row before the row could be cut). Here the memos of a table are read no
further than limits.max_output_chars bytes in all.
"""

from __future__ import annotations

import logging
import struct
from collections import Counter
from collections.abc import Iterator
from typing import Any, BinaryIO

import dbfread
from dbfread.codepages import guess_encoding
from dbfread.memo import (
    VFP_TYPE_MAP,
    BinaryMemo,
    DB3MemoFile,
    DB4MemoFile,
    DB4MemoHeader,
    MemoFile,
    VFPMemoFile,
    VFPMemoHeader,
)

from goblin_core.builtin.text import decode_text
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source, spooled
from goblin_office import formats as fmt
from goblin_office.cells import cell_text
from goblin_office.layout import PageBuilder

log = logging.getLogger(__name__)

_SAMPLE_RECORDS = 2000


class _LenientFieldParser(dbfread.FieldParser):
    """Field values as dbfread parses them; one it cannot (a date 'NotAYear') as its raw bytes.

    One bad value must not cost the table its other records.
    """

    def parse(self, field: Any, data: bytes) -> Any:
        try:
            return super().parse(field, data)
        except ValueError:
            return dbfread.InvalidValue(data)

    def parseM(self, field: Any, data: bytes) -> Any:
        """A memo's text; a memo the table points at while its memo file is not beside
        it is counted, for its text is lost (dbfread reads it as empty)."""
        if self.table.memofilename is None and self._parse_memo_index(data) > 0:
            self.table.missing_memos[field.name] += 1
        return super().parseM(field, data)


class _MemoBudget:
    """How many more memo bytes a table may read, and whether a memo was cut for want of
    them."""

    def __init__(self, limit: int) -> None:
        self.left = max(limit, 0)
        self.cut = False

    def read(self, memo: BinaryIO, size: int) -> bytes:
        """At most ``size`` bytes of ``memo`` (fewer at its end), as the budget allows."""
        data = memo.read(min(size, self.left))
        self.left -= len(data)
        if size > len(data) and not self.left:
            self.cut = True
        return data


# a dBASE III memo runs block after block to its end mark: it is read many blocks at a time
_BLOCK = 512
_DB3_CHUNK = 128 * _BLOCK
_DB3_END = b"\x1a"


class _DB3Memos(DB3MemoFile):
    """dBASE III memos, each searched once for its end mark, under the table's budget."""

    budget: _MemoBudget

    def __getitem__(self, index: int) -> bytes | None:
        if index <= 0:
            return None
        self._seek(index * _BLOCK)
        found = bytearray()
        while True:
            before, cut_before = self.budget.left, self.budget.cut
            chunk = self.budget.read(self.file, _DB3_CHUNK)
            end = chunk.find(_DB3_END)
            if end != -1:
                # what was read past the end mark is no memo text, and the memo was whole
                self.budget.left += len(chunk) - end
                self.budget.cut = cut_before
                found += chunk[:end]
                return bytes(found)
            found += chunk
            if len(chunk) < min(_DB3_CHUNK, before) or not self.budget.left:
                return bytes(found)  # the end of the file, or of the budget


class _DB4Memos(DB4MemoFile):
    """dBASE IV memos, no longer than the table's budget whatever length they claim."""

    budget: _MemoBudget

    def __getitem__(self, index: int) -> bytes | None:
        if index <= 0:
            return None
        self._seek(index * _BLOCK)
        header = DB4MemoHeader.read(self.file)
        data = self.budget.read(self.file, header.length)
        return data.split(b"\x1f", 1)[0]


class _VFPMemos(VFPMemoFile):
    """FoxPro memos, no longer than the table's budget whatever length they claim."""

    budget: _MemoBudget

    def __getitem__(self, index: int) -> BinaryMemo | None:
        if index <= 0:
            return None
        self._seek(index * self.header.blocksize)
        header = VFPMemoHeader.read(self.file)
        allowed = min(header.length, self.budget.left)
        data = self.budget.read(self.file, header.length)
        if len(data) != allowed:
            raise OSError("EOF reached while reading memo")
        return VFP_TYPE_MAP.get(header.type, BinaryMemo)(data)


class _BoundedTable(dbfread.DBF):
    """A table whose memos are read under one ``_MemoBudget``; ``missing_memos`` counts,
    by field, the memos it points at when no memo file is beside it."""

    memo_budget: _MemoBudget
    missing_memos: Counter[str]

    def _open_memofile(self) -> MemoFile:
        if not self.memofilename or self.raw:
            return super()._open_memofile()
        memos: _DB3Memos | _DB4Memos | _VFPMemos
        if self.memofilename.lower().endswith(".fpt"):
            memos = _VFPMemos(self.memofilename)
        elif self.header.dbversion == 0x83:  # as dbfread tells dBASE III from IV
            memos = _DB3Memos(self.memofilename)
        else:
            memos = _DB4Memos(self.memofilename)
        memos.budget = self.memo_budget
        return memos


def _table(path: str, encoding: str, memo_budget: _MemoBudget, raw: bool = False) -> dbfread.DBF:
    table = _BoundedTable(
        path,
        encoding=encoding,
        raw=raw,
        ignore_missing_memofile=True,
        char_decode_errors="replace",
        parserclass=_LenientFieldParser,
    )
    table.memo_budget = memo_budget
    table.missing_memos = Counter()
    # A field of no width holds no value. Left in, a header of such fields makes
    # every byte after it a record of two thousand empty cells.
    table.fields = [f for f in table.fields if f.length > 0]
    table.field_names = [f.name for f in table.fields]
    return table


def dbf_encoding(path: str) -> str:
    """The table's code page: the language driver's, else detected from the text bytes."""
    with open(path, "rb") as stream:
        header = stream.read(32)
    driver = header[29] if len(header) > 29 else 0
    if driver:
        try:
            return guess_encoding(driver)
        except LookupError:
            log.debug("unknown dBASE language driver 0x%02x", driver)
    sample = bytearray()
    # raw records hold each memo's block number, not its text: no memo is read
    for index, record in enumerate(_table(path, "latin-1", _MemoBudget(0), raw=True)):
        for value in record.values():
            if isinstance(value, bytes) and any(b > 127 for b in value):
                sample.extend(value.strip() + b"\n")
        if index >= _SAMPLE_RECORDS:
            break
    if not sample:
        return "ascii"
    return decode_text(bytes(sample))[1]


class DBFParser(BaseEngine):
    """dbfread for dBASE/FoxPro tables: one table, field names as the header row."""

    name = "office.dbf"
    formats = (fmt.DBF,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        if not _plausible_header(source.head(32), source.size):
            raise CorruptDocument(
                "not a dBASE table (the header is not one)", file=source.display_name
            )
        max_cells = max(int(config.get("office", "max_sheet_cells", 5_000_000)), 1)
        max_chars = int(config.get("limits", "max_output_chars", 100_000_000))
        cuts: list[str] = []
        with spooled(source) as path:
            try:
                encoding = dbf_encoding(str(path))
                memo_budget = _MemoBudget(max_chars)
                table = _table(str(path), encoding, memo_budget)
                fields = list(table.field_names)
                rows: list[list[str]] = [fields]
                if fields:
                    rows.extend(_bounded_records(table, fields, max_cells, max_chars, cuts))
                if memo_budget.cut:
                    cuts.insert(0, f"memo text past limits.max_output_chars ({max_chars:,} "
                                   "characters) not read")
            except (ValueError, KeyError, EOFError, OSError, LookupError, struct.error) as exc:
                raise CorruptDocument(
                    f"the dBASE table cannot be read ({exc})", file=source.display_name
                ) from exc
        page = PageBuilder(engine=self.name)
        page.add_table(rows, header_rows=1)
        metadata: dict[str, Any] = {"encoding": encoding, "records": len(rows) - 1}
        if cuts:
            metadata["truncated"] = "; ".join(cuts)
            log.warning("%s: %s", source.display_name, metadata["truncated"])
        document = TextDocument([page.build()], metadata=metadata)
        document.warnings = [("Truncated", cut) for cut in cuts]
        lost: list[str] = []
        short = _missing_records(source.head(32), source.size)
        if short:
            document.warnings.append(("CorruptDocument", short))
            # the records past the cut are text the table had: read in part, not clean
            lost.append(f"the records after record {len(rows) - 1:,} are lost")
        if table.missing_memos:
            document.warnings.append(("CorruptDocument", "the table's memo file (.dbt or "
                                      ".fpt) is not beside it: its memo fields read as empty"))
            lost.append(_missing_memos(table.missing_memos))
        if lost:
            document.left_out = "; ".join(lost)
        return document


def _missing_memos(counts: Counter[str]) -> str:
    """What a table read without its memo file lacks.

    >>> _missing_memos(Counter({"NOTA": 2, "OBS": 1}))
    'the text of 3 memos (fields NOTA, OBS) is lost'
    """
    total = sum(counts.values())
    return (f"the text of {total:,} memo{'s' if total > 1 else ''} "
            f"(field{'s' if len(counts) > 1 else ''} {', '.join(counts)}) is lost")


def _bounded_records(
    table: dbfread.DBF, fields: list[str], max_cells: int, max_chars: int, cuts: list[str]
) -> Iterator[list[str]]:
    """The records as rows of cell text, no further than the limits a sheet is held to.

    Nothing in a dBASE file bounds its records by its size: fields of no width make
    every byte a record of as many cells as the header declares fields.
    """
    cells = chars = 0
    for number, record in enumerate(table, start=1):
        row = [_value(record.get(f)) for f in fields]
        cells += len(row)
        chars += sum(map(len, row))
        if cells > max_cells or chars > max_chars:
            limit = (
                f"office.max_sheet_cells ({max_cells:,} cells)"
                if cells > max_cells
                else f"limits.max_output_chars ({max_chars:,} characters)"
            )
            cuts.append(f"records from record {number:,} on not read: the table reached {limit}")
            return
        yield row


_VERSIONS = frozenset(
    {
        0x02,
        0x03,
        0x04,
        0x05,
        0x07,
        0x30,
        0x31,
        0x32,
        0x43,
        0x63,
        0x83,
        0x87,
        0x8B,
        0x8E,
        0xCB,
        0xE5,
        0xF5,
        0xFB,
    }
)


def _missing_records(head: bytes, size: int) -> str:
    """What a table cut short lacks: the header declares more records than the file holds.

    >>> head = bytes([3, 124, 1, 1]) + struct.pack("<IHH", 1000, 65, 11)
    >>> _missing_records(head, 65 + 3 * 11 + 1)
    'the header declares 1,000 records but the file holds 3: it is truncated'
    >>> _missing_records(head, 65 + 1000 * 11 + 1)
    ''
    """
    declared, header_length, record_length = struct.unpack_from("<IHH", head, 4)
    held = max(size - header_length, 0) // record_length if record_length else declared
    if held >= declared:
        return ""
    return (f"the header declares {declared:,} records but the file holds {held:,}: "
            "it is truncated")


def _plausible_header(head: bytes, size: int) -> bool:
    """A dBASE header: a known version byte, a sane month and day, lengths that fit."""
    if len(head) < 32 or head[0] not in _VERSIONS:
        return False
    month, day = head[2], head[3]
    header_length, record_length = struct.unpack_from("<HH", head, 8)
    return 1 <= month <= 12 and 1 <= day <= 31 and 32 < header_length <= size and record_length > 0


def _value(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("latin-1", "replace")
    return cell_text(value).strip() if isinstance(value, str) else cell_text(value)
