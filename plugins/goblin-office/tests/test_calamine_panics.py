"""A Rust panic in calamine (pyo3 raises it as a BaseException, past ``except
Exception``) is a damaged file, not an engine failure: a CorruptDocument, so the next
engine reads the workbook when no sheet came out yet, and the sheets read are kept."""

from __future__ import annotations

import io
from typing import Any

import openpyxl
import pytest

import goblin_core
from goblin_core.errors import CorruptDocument, is_rust_panic
from goblin_core.source import Source
from goblin_office import spreadsheet
from goblin_office.spreadsheet import CalamineParser


class PanicException(BaseException):
    """Shaped as pyo3's: a BaseException of the module ``pyo3_runtime``."""

    __module__ = "pyo3_runtime"


PANIC = "range start index 7 out of range for slice of length 5"


def _workbook() -> bytes:
    workbook = openpyxl.Workbook()
    first = workbook.active
    assert first is not None
    first.title = "Resumo"
    first["A1"] = "Resumo do contrato"
    second = workbook.create_sheet("Custos")
    second["A1"] = "Custos do contrato"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_the_fake_is_told_as_a_panic() -> None:
    assert is_rust_panic(PanicException(PANIC)) and not isinstance(PanicException(), Exception)


def test_a_workbook_calamine_panics_on_is_corrupt_and_read_by_the_next_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def panics(_stream: Any) -> Any:
        raise PanicException(PANIC)

    monkeypatch.setattr(spreadsheet.CalamineWorkbook, "from_filelike", panics)
    config = goblin_core.default_registry().config()
    with pytest.raises(CorruptDocument, match="its reader panicked: range start index 7"):
        CalamineParser().open(Source.from_bytes(_workbook(), "contrato.xlsx"), config)

    document = goblin_core.extract(_workbook(), name="contrato.xlsx")
    assert "Resumo do contrato" in document.text and "Custos do contrato" in document.text
    assert "office.calamine" not in document.parsed_by
    assert "EnginePanic" not in {w.kind for w in document.report.warnings}


@pytest.mark.parametrize("sheet", ["Resumo", "Custos"])
def test_a_sheet_calamine_panics_on_ends_its_reading_as_a_corrupt_document(
        monkeypatch: pytest.MonkeyPatch, sheet: str) -> None:
    real = spreadsheet.CalamineWorkbook.get_sheet_by_name

    def panics_on_one(workbook: Any, name: str) -> Any:
        if name == sheet:
            raise PanicException(PANIC)
        return real(workbook, name)

    monkeypatch.setattr(spreadsheet.CalamineWorkbook, "get_sheet_by_name", panics_on_one)
    config = goblin_core.default_registry().config()
    document = CalamineParser().open(Source.from_bytes(_workbook(), "contrato.xlsx"), config)
    read: list[str] = []
    try:
        with pytest.raises(CorruptDocument, match=f"calamine stopped on sheet '{sheet}' "
                                                  "\\(its reader panicked: range start"):
            read.extend(page.text or "" for page in document.pages())
    finally:
        document.close()
    assert len(read) == (0 if sheet == "Resumo" else 1)

    whole = goblin_core.extract(_workbook(), name="contrato.xlsx")
    assert "EnginePanic" not in {w.kind for w in whole.report.warnings}
    if sheet == "Resumo":  # before any sheet came out: the next engine reads them all
        assert "office.calamine" not in whole.parsed_by
        assert "Custos do contrato" in whole.text
    else:  # the sheet read before it is kept
        assert "Resumo do contrato" in whole.pages[0].text
        assert whole.pages[1].status == "failed"
