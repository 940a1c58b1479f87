"""``office.hidden_sheets = false`` holds for the fallback spreadsheet engines as it does
for calamine: hidden and very hidden sheets are both left out."""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence

import openpyxl
import pytest
from packages import (
    PKG_RELS,
    R,
    _biff,
    _record,
    _row_header,
    _shared_strings,
    _wide,
    compound_file,
    zip_bytes,
)

SHOWN = "Resumo do contrato"
SECRET = "Margem interna de lucro"
CALAMINE_OFF = {"office.calamine": {"enabled": False}}
# a sheet's visibility in each format: BIFF8 BOUNDSHEET and BIFF12 BrtBundleSh use the
# same codes, the xlsx workbook part spells them out
STATES = {"hidden": 1, "veryHidden": 2}


def _xlsx(state: str) -> bytes:
    workbook = openpyxl.Workbook()
    shown = workbook.active
    assert shown is not None
    shown.title = "Resumo"
    shown["A1"] = SHOWN
    hidden = workbook.create_sheet("Custos")
    hidden["A1"] = SECRET
    hidden.sheet_state = state
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _xlsb(sheets: Sequence[tuple[str, str, int]]) -> bytes:
    """An .xlsb of worksheets (name, the text of A1, hsState)."""
    bundles = b"".join(
        _record(0x9C, struct.pack("<II", state, number) + _wide(f"rId{number}") + _wide(name))
        for number, (name, _, state) in enumerate(sheets, start=1)
    )
    book = _record(0x83) + _record(0x8F) + bundles + _record(0x90) + _record(0x84)
    members: dict[str, bytes | str] = {"xl/workbook.bin": book}
    overrides = ""
    links = ""
    for number, (_, text, _) in enumerate(sheets, start=1):
        members[f"xl/worksheets/sheet{number}.bin"] = (
            _record(0x81)  # BrtBeginSheet
            + _record(0x94, struct.pack("<IIII", 0, 0, 0, 0))  # BrtWsDim
            + _record(0x91)  # BrtBeginSheetData
            + _row_header(0)
            + _record(0x06, struct.pack("<II", 0, 0) + _wide(text))  # BrtCellSt
            + _record(0x92)
            + _record(0x82)
        )
        overrides += (
            f'<Override PartName="/xl/worksheets/sheet{number}.bin" '
            'ContentType="application/vnd.ms-excel.worksheet"/>'
        )
        links += (
            f'<Relationship Id="rId{number}" Type="{R}/worksheet" '
            f'Target="worksheets/sheet{number}.bin"/>'
        )
    main = "application/vnd.ms-excel.sheet.binary.macroEnabled.main"
    members["[Content_Types].xml"] = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Override PartName="/xl/workbook.bin" ContentType="{main}"/>{overrides}</Types>'
    )
    members["_rels/.rels"] = (
        f'<?xml version="1.0"?><Relationships xmlns="{PKG_RELS}">'
        f'<Relationship Id="rId1" Type="{R}/officeDocument" Target="xl/workbook.bin"/>'
        "</Relationships>"
    )
    members["xl/_rels/workbook.bin.rels"] = (
        f'<?xml version="1.0"?><Relationships xmlns="{PKG_RELS}">{links}</Relationships>'
    )
    return zip_bytes(members)


def _xls(sheets: Sequence[tuple[str, str, int]]) -> bytes:
    """A BIFF8 .xls of worksheets (name, the text of A1, BOUNDSHEET visibility)."""

    def bof(kind: int) -> bytes:
        return _biff(0x0809, struct.pack("<HHHHII", 0x0600, kind, 0x0DBB, 0x07CC, 0, 0x06))

    def bound_sheet(position: int, name: str, visibility: int) -> bytes:
        raw = name.encode("latin-1")
        return _biff(0x0085, struct.pack("<IBBBB", position, visibility, 0, len(raw), 0) + raw)

    def sheet(index: int) -> bytes:
        return (
            bof(0x0010)
            + _biff(0x0200, struct.pack("<IIHHH", 0, 1, 0, 1, 0))  # DIMENSIONS
            + _biff(0xFD, struct.pack("<HHHI", 0, 0, 0, index))  # LABELSST
            + _biff(0x000A)
        )

    strings = _shared_strings([text for _, text, _ in sheets])
    head = bof(0x0005)
    listing_size = sum(len(bound_sheet(0, name, 0)) for name, _, _ in sheets)
    position = len(head) + listing_size + len(strings) + len(_biff(0x000A))
    listing = b""
    bodies = b""
    for index, (name, _, visibility) in enumerate(sheets):
        listing += bound_sheet(position + len(bodies), name, visibility)
        bodies += sheet(index)
    return compound_file({"Workbook": head + listing + strings + _biff(0x000A) + bodies})


def _workbook(kind: str, state: str) -> bytes:
    code = STATES[state]
    if kind == "xlsx":
        return _xlsx(state)
    if kind == "xlsb":
        return _xlsb([("Resumo", SHOWN, 0), ("Custos", SECRET, code)])
    return _xls([("Resumo", SHOWN, 0), ("Custos", SECRET, code)])


FALLBACKS = {"xlsx": "office.openpyxl", "xlsb": "office.xlsb_records", "xls": "office.xlrd"}


@pytest.mark.parametrize("state", sorted(STATES))
@pytest.mark.parametrize("kind", sorted(FALLBACKS))
def test_fallback_engine_leaves_hidden_sheets_out_when_asked(read, kind, state) -> None:  # type: ignore[no-untyped-def]
    data = _workbook(kind, state)
    name = f"orcamento.{kind}"
    everything = read(data, name, engines=CALAMINE_OFF)
    assert everything.parsed_by == (FALLBACKS[kind],)
    assert SECRET in everything.text
    assert [page.label for page in everything.pages] == ["Resumo", "Custos"]
    shown = read(data, name, engines=CALAMINE_OFF, office={"hidden_sheets": False})
    assert shown.parsed_by == (FALLBACKS[kind],)
    assert SECRET not in shown.text
    assert SHOWN in shown.text
    assert [page.label for page in shown.pages] == ["Resumo"]


@pytest.mark.parametrize("kind", sorted(FALLBACKS))
def test_fallback_engine_reads_as_calamine_does(read, kind) -> None:  # type: ignore[no-untyped-def]
    data = _workbook(kind, "hidden")
    name = f"orcamento.{kind}"
    first = read(data, name, office={"hidden_sheets": False})
    fallback = read(data, name, engines=CALAMINE_OFF, office={"hidden_sheets": False})
    assert first.parsed_by == ("office.calamine",)
    assert [page.label for page in fallback.pages] == [page.label for page in first.pages]


def test_fallback_engine_reads_a_workbook_whose_every_sheet_is_hidden_as_empty(read) -> None:  # type: ignore[no-untyped-def]
    data = _xlsb([("Custos", SECRET, 1)])
    document = read(data, "custos.xlsb", engines=CALAMINE_OFF, office={"hidden_sheets": False})
    assert document.parsed_by == ("office.xlsb_records",)
    assert SECRET not in document.text
