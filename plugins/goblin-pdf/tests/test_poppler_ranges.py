"""pdftotext reads consecutive pages a range per call, and each page exactly as alone."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from pdf_builders import helvetica_pages, saved

from goblin_core import default_registry
from goblin_core.source import Source
from goblin_core.testing.corpus import require_binary
from goblin_pdf import poppler_recovery
from goblin_pdf.poppler_recovery import PopplerRecovery

PAGES = 12


def _numbered_pages(count: int = PAGES, words: int = 4) -> Source:
    pages = [f"BT /F1 12 Tf 72 700 Td (Page {n} {'words ' * words}) Tj ET"
             for n in range(1, count + 1)]
    return Source.from_bytes(saved(helvetica_pages(*pages)), "numbered.pdf")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """The (first, last) page of every pdftotext run, the real binary doing the work."""
    require_binary("pdftotext", "poppler-utils")
    made: list[tuple[str, str]] = []
    real = subprocess.run

    def counted(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        made.append((command[command.index("-f") + 1], command[command.index("-l") + 1]))
        return real(command, **kwargs)

    monkeypatch.setattr(poppler_recovery.subprocess, "run", counted)
    yield made


def _alone(source: Source, numbers: list[int]) -> dict[int, str]:
    """Each page read by a call of its own, as a range of one."""
    config = default_registry().config()
    texts: dict[int, str] = {}
    for number in numbers:
        texts.update(PopplerRecovery().recover(source, [number], config))
    return texts


def test_consecutive_pages_are_read_a_range_per_call_each_as_if_alone(
        calls: list[tuple[str, str]]) -> None:
    source = _numbered_pages()
    asked = [1, 2, 3, 4, 7, 8, 12]
    texts = PopplerRecovery().recover(source, asked, default_registry().config())
    assert calls == [("1", "4"), ("7", "8"), ("12", "12")]
    assert sorted(texts) == asked
    assert all(f"Page {n} words" in texts[n] and f"Page {n + 1} " not in texts[n]
               for n in asked)
    assert texts == _alone(source, asked)


def test_a_long_run_is_cut_into_ranges(calls: list[tuple[str, str]],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(poppler_recovery, "RANGE_PAGES", 5)
    texts = PopplerRecovery().recover(_numbered_pages(), list(range(1, PAGES + 1)),
                                      default_registry().config())
    assert calls == [("1", "5"), ("6", "10"), ("11", "12")]
    assert sorted(texts) == list(range(1, PAGES + 1))


def test_pages_past_the_end_of_a_range_are_left_out_and_the_rest_kept(
        calls: list[tuple[str, str]]) -> None:
    # pdftotext stops at the last page: the range comes back short and is read page by page
    texts = PopplerRecovery().recover(_numbered_pages(3), [2, 3, 4, 5],
                                      default_registry().config())
    assert sorted(texts) == [2, 3] and "Page 3 words" in texts[3]
    assert calls[0] == ("2", "5")


def test_every_page_of_a_range_is_cut_at_the_output_cap(calls: list[tuple[str, str]]) -> None:
    config = default_registry().config(pdf={"poppler_max_output": 1024})
    texts = PopplerRecovery().recover(_numbered_pages(4, words=400), [1, 2, 3, 4], config)
    assert calls == [("1", "4")]
    assert sorted(texts) == [1, 2, 3, 4]
    for number, text in texts.items():
        assert text.startswith(f"Page {number} words") and len(text.encode("utf-8")) <= 1024


def _ranges_end_as(monkeypatch: pytest.MonkeyPatch, written: bytes,
                  stalled: bool) -> list[tuple[str, str]]:
    """Every range call writes ``written`` and then times out (``stalled``) or fails;
    single-page calls run the real pdftotext. Returns the (first, last) of every call."""
    require_binary("pdftotext", "poppler-utils")
    made: list[tuple[str, str]] = []
    real = subprocess.run

    def ending(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        first, last = command[command.index("-f") + 1], command[command.index("-l") + 1]
        made.append((first, last))
        if first == last:
            return real(command, **kwargs)
        with open(command[-1], "wb") as target:
            target.write(written)
        if stalled:
            raise subprocess.TimeoutExpired(command, kwargs["timeout"])
        return subprocess.CompletedProcess(command, 99, b"", b"Syntax Error")

    monkeypatch.setattr(poppler_recovery.subprocess, "run", ending)
    return made


def test_a_range_cut_short_by_its_timeout_keeps_its_finished_pages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pdftotext wrote pages 1 and 2 whole and was stopped inside page 3: those two are
    kept, and pages 3 and 4 are read again, one call each, with the page timeout."""
    made = _ranges_end_as(
        monkeypatch, b"Page 1 as written\n\fPage 2 as written\n\fPage 3 half writ", stalled=True)
    texts = PopplerRecovery().recover(_numbered_pages(4), [1, 2, 3, 4],
                                      default_registry().config())
    assert made == [("1", "4"), ("3", "3"), ("4", "4")]
    assert texts[1] == "Page 1 as written\n" and texts[2] == "Page 2 as written\n"
    assert "Page 3 words" in texts[3] and "Page 4 words" in texts[4]


def test_a_range_pdftotext_fails_on_is_read_again_page_by_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What a failed call wrote is not trusted, however whole its pages look."""
    made = _ranges_end_as(monkeypatch, b"Page 1 as written\n\fPage 2 as written\n\f",
                          stalled=False)
    texts = PopplerRecovery().recover(_numbered_pages(2), [1, 2], default_registry().config())
    assert made == [("1", "2"), ("1", "1"), ("2", "2")]
    assert "Page 1 words" in texts[1] and "Page 2 words" in texts[2]
