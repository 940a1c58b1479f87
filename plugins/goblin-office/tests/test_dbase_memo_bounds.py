"""dBASE memo files (.dbt) beside a table: a long memo is read in time linear in its
size, and the memos a table's records point at stop at limits.max_output_chars."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from bounds import bounded

from goblin_core import extract

pytestmark = pytest.mark.usefixtures("warm_plugins")

DBASE_III_WITH_MEMO, DBASE_IV_WITH_MEMO = 0x83, 0x8B
BLOCK = 512
FIRST_MEMO_BLOCK = b"1".rjust(10)  # a memo field holds the memo's block number, as text


def _write_table(path: Path, version: int, memo_fields: int, records: int, memo: bytes) -> None:
    """A table of ``memo_fields`` memo fields whose every record points at one memo, block
    1 of the memo file written beside it (block 0 is the memo file's header)."""
    header_length = 32 + 32 * memo_fields + 1
    record_length = 1 + 10 * memo_fields
    header = struct.pack("<BBBBIHH", version, 124, 3, 15, records, header_length,
                         record_length) + bytes(20)
    fields = b"".join(
        f"NOTA{number}".encode().ljust(11, b"\0") + b"M" + bytes(4) + bytes([10, 0]) + bytes(14)
        for number in range(memo_fields)
    )
    body = (b" " + FIRST_MEMO_BLOCK * memo_fields) * records
    path.write_bytes(header + fields + b"\r" + body + b"\x1a")
    path.with_suffix(".dbt").write_bytes(bytes(BLOCK) + memo)


def test_long_dbase3_memo_is_read_whole_in_linear_time(tmp_path: Path) -> None:
    text = b"Diario de obra, medicao da etapa; " * (8 * 2**20 // 34)
    table = tmp_path / "diario.dbf"
    _write_table(table, DBASE_III_WITH_MEMO, memo_fields=1, records=1, memo=text + b"\x1a\x1a")
    with bounded(seconds=5):
        document = extract(table, ocr="never")
    assert document.tables[0].rows[1] == (text.decode("ascii").strip(),)
    assert not document.report.warnings


@pytest.mark.parametrize(
    ("version", "memo_fields", "records"),
    [(DBASE_IV_WITH_MEMO, 50, 1), (DBASE_III_WITH_MEMO, 1, 50)],
    ids=["many-fields-one-memo", "many-records-one-memo"],
)
def test_memos_pointed_at_again_and_again_stop_at_max_output_chars(
    tmp_path: Path, version: int, memo_fields: int, records: int
) -> None:
    size = 2 * 2**20
    if version == DBASE_IV_WITH_MEMO:  # a memo's own header: a mark, then its length
        memo = struct.pack("<II", 0x0008FFFF, size) + b"x" * size
    else:
        memo = b"x" * size + b"\x1a"
    table = tmp_path / "notas.dbf"
    _write_table(table, version, memo_fields, records, memo)
    limit = 1_000_000
    with bounded(seconds=10, megabytes=60):
        document = extract(table, ocr="never", limits={"max_output_chars": limit})
    # the memo text read is the budget; the page's field names then take a few characters
    # of what the output may hold
    assert limit - 1_000 < document.text.count("x") <= limit
    assert any("memo text past limits.max_output_chars" in warning.message
               for warning in document.report.warnings)
