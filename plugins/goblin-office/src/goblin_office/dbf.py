"""dBASE tables (.dbf) with their code page and memo files, read with dbfread.

The code page comes from the header's language driver byte; when the header
does not say (driver 0), it is detected from the character fields' bytes.
Memo files (.dbt, .fpt) beside the table are read when present.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Iterator
from typing import Any

import dbfread
from dbfread.codepages import guess_encoding

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


def _table(path: str, encoding: str, raw: bool = False) -> dbfread.DBF:
    table = dbfread.DBF(
        path,
        encoding=encoding,
        raw=raw,
        ignore_missing_memofile=True,
        char_decode_errors="replace",
        parserclass=_LenientFieldParser,
    )
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
    for index, record in enumerate(_table(path, "latin-1", raw=True)):
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
                table = _table(str(path), encoding)
                fields = list(table.field_names)
                rows: list[list[str]] = [fields]
                if fields:
                    rows.extend(_bounded_records(table, fields, max_cells, max_chars, cuts))
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
        return document


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
