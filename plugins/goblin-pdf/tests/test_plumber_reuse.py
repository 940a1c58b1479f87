"""pdfplumber opens a document once for all the pages the pipeline asks about, in turns."""

from __future__ import annotations

import gc
from typing import Any

import pdfplumber
import pytest
from pdf_builders import helvetica_pages, saved

from goblin_core import CorruptDocument, default_registry
from goblin_core.source import Source
from goblin_pdf.plumber_recovery import PdfplumberRecovery


def _pages(count: int = 3, name: str = "turns.pdf") -> Source:
    contents = [f"BT /F1 12 Tf 72 700 Td (Page {n} of {name}) Tj ET" for n in range(1, count + 1)]
    return Source.from_bytes(saved(helvetica_pages(*contents)), name)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every document pdfplumber opens, the real one, with whether it was closed."""
    documents: list[Any] = []
    real = pdfplumber.open

    def counted(*args: Any, **kwargs: Any) -> Any:
        pdf = real(*args, **kwargs)
        pdf.closed_by_goblin = False
        close = pdf.close

        def closing() -> None:
            pdf.closed_by_goblin = True
            close()

        pdf.close = closing
        documents.append(pdf)
        return pdf

    monkeypatch.setattr(pdfplumber, "open", counted)
    return documents


def test_the_probe_page_and_the_rest_are_read_from_one_opening(opened: list[Any]) -> None:
    source = _pages()
    config = default_registry().config()
    engine = PdfplumberRecovery()
    first = engine.recover(source, [1], config)
    rest = engine.recover(source, [2, 3], config)
    assert len(opened) == 1
    assert "Page 1 of turns.pdf" in first[1]
    assert sorted(rest) == [2, 3] and "Page 3 of turns.pdf" in rest[3]


def test_the_document_is_closed_when_its_source_goes(opened: list[Any]) -> None:
    source = _pages()
    PdfplumberRecovery().recover(source, [1], default_registry().config())
    assert not opened[0].closed_by_goblin
    del source
    gc.collect()
    assert opened[0].closed_by_goblin


def test_another_document_closes_the_one_before(opened: list[Any]) -> None:
    config = default_registry().config()
    engine = PdfplumberRecovery()
    first, second = _pages(name="first.pdf"), _pages(name="second.pdf")
    engine.recover(first, [1], config)
    texts = engine.recover(second, [2], config)
    assert "Page 2 of second.pdf" in texts[2]
    assert [pdf.closed_by_goblin for pdf in opened] == [True, False]
    # the first one is read again, opened anew
    assert "Page 3 of first.pdf" in engine.recover(first, [3], config)[3]
    assert len(opened) == 3


def test_a_file_pdfplumber_cannot_open_fails_every_call_from_one_try(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tries: list[object] = []

    def refusing(target: object, **kwargs: Any) -> Any:
        tries.append(target)
        raise ValueError("no startxref")

    monkeypatch.setattr(pdfplumber, "open", refusing)
    source = Source.from_bytes(b"%PDF-1.7\nnothing here", "broken.pdf")
    config = default_registry().config()
    for pages in ([1], [2, 3]):
        with pytest.raises(CorruptDocument, match=r"pdfplumber cannot open it \(ValueError"):
            PdfplumberRecovery().recover(source, pages, config)
    assert len(tries) == 1


def test_a_file_source_is_read_from_its_path_and_left_in_place(
        tmp_path: Any, opened: list[Any]) -> None:
    path = tmp_path / "on-disk.pdf"
    path.write_bytes(saved(helvetica_pages("BT /F1 12 Tf 72 700 Td (On disk) Tj ET")))
    source = Source.from_path(path)
    texts = PdfplumberRecovery().recover(source, [1], default_registry().config())
    assert "On disk" in texts[1] and path.exists()
    del source
    gc.collect()
    assert opened[0].closed_by_goblin and path.exists()
