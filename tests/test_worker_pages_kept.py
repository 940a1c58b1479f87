"""A worker lost in the middle of a document keeps the pages it had read.

Each page goes to the supervisor as soon as it is read (and again once OCR read it), so
a worker killed at the hard timeout (a native call that never returns) or lost to a
crash gives back the pages before it, as the in-process limit does between pages. The
command line shows the same pages passing for a single file.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from goblin_core import extract, extract_many
from goblin_core.engines import Task
from goblin_core.errors import ExtractionTimeout
from goblin_core.executors.local import hard_timeout, partial_document
from goblin_core.model import Page
from goblin_core.pipeline import pages_passed_to

from scripted_engines import (
    TEST_BYTES,
    TEST_MIME,
    FakeOCR,
    ScriptedParser,
    registry_with,
    scan_page,
    text_page,
)

STALL_SLEEP = b"GOBLIN-STALL 3 sleep\n"
STALL_CRASH = b"GOBLIN-STALL 3 crash\n"


def _assert_pages_before_kept(document, kind: str) -> None:
    assert [p.text for p in document.pages[:2]] == ["page 1 read", "page 2 read"]
    assert [p.status for p in document.pages] == ["clean", "clean", "failed", "failed", "failed"]
    assert all(p.reasons == (f"not read: {kind}",) for p in document.pages[2:])
    assert document.status == "partially_recovered"
    assert document.report.error_kinds == (kind,)
    assert "the 2 page(s) read before it are kept" in document.report.errors[0].message
    assert document.mime == "application/x-goblin-test-stall"


def test_a_worker_killed_at_the_hard_timeout_keeps_the_pages_it_had_read() -> None:
    started = time.monotonic()
    document = extract(STALL_SLEEP, name="stall.stall", timeout=1, isolate=True)
    assert time.monotonic() - started < hard_timeout(1) + 10
    _assert_pages_before_kept(document, "ExtractionTimeout")
    assert "killed after" in document.report.errors[0].message


def test_a_worker_that_crashes_keeps_the_pages_it_had_read() -> None:
    document = extract(STALL_CRASH, name="stall.stall", isolate=True)
    _assert_pages_before_kept(document, "WorkerCrashed")
    assert "signal 9" in document.report.errors[0].message


def test_a_batch_keeps_the_pages_and_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a.stall").write_bytes(STALL_CRASH)
    (tmp_path / "b.txt").write_text("the next document", encoding="utf-8")
    documents = {Path(d.name).name: d for d in extract_many([tmp_path], jobs=1)}
    _assert_pages_before_kept(documents["a.stall"], "WorkerCrashed")
    assert documents["b.txt"].text == "the next document"


def test_a_worker_lost_before_any_page_still_raises_in_isolate() -> None:
    with pytest.raises(ExtractionTimeout):
        extract(b"GOBLIN-SLEEPY 120\n", name="hangs.sleepy", isolate=True, timeout=1)


def _page(number: int) -> Page:
    return Page(number, f"page {number}", "tests.parser", "clean", 1.0)


def test_the_pages_left_are_those_of_the_task_range() -> None:
    error = ExtractionTimeout("killed", file="big.pdf")
    task = Task(None, "big.pdf", options={"goblin": {"page_range": "101-110"}})
    document = partial_document(task, error, 1.0, {101: _page(101), 102: _page(102)}, 500,
                                "application/pdf")
    assert [p.number for p in document.pages] == list(range(101, 111))
    assert document.mime == "application/pdf"


def test_a_worker_lost_after_its_last_page_says_every_page_is_kept() -> None:
    error = ExtractionTimeout("killed", file="a.pdf")
    document = partial_document(Task(None, "a.pdf"), error, 1.0, {1: _page(1), 2: _page(2)}, 2,
                                "application/pdf")
    assert [p.status for p in document.pages] == ["clean", "clean"]
    assert "every page had been read" in document.report.errors[0].message


def test_a_range_of_a_split_document_lost_with_its_worker_keeps_its_pages(
    tmp_path: Path,
) -> None:
    # pages 1-2 are one range, 3-6 the next: page 4 crashes the second range's worker
    (tmp_path / "long.stall").write_bytes(b"GOBLIN-STALL 4 crash\n")
    [document] = list(extract_many([tmp_path / "long.stall"], jobs=2, split_pages=2))
    assert [p.number for p in document.pages] == [1, 2, 3, 4, 5, 6]
    assert [p.text for p in document.pages[:3]] == ["page 1 read", "page 2 read", "page 3 read"]
    assert [p.status for p in document.pages[3:]] == ["failed", "failed", "failed"]
    assert document.status == "partially_recovered"
    assert "WorkerCrashed" in document.report.error_kinds


def test_a_first_range_lost_with_its_worker_still_has_the_ranges_after_it_read(
    tmp_path: Path,
) -> None:
    # page 2 crashes the first range's worker; the rest (3-5) is read by another worker,
    # which passes page 2 again: that range is lost too, its pages failed
    (tmp_path / "long.stall").write_bytes(b"GOBLIN-STALL 2 crash\n")
    [document] = list(extract_many([tmp_path / "long.stall"], jobs=2, split_pages=1))
    assert document.pages[0].text == "page 1 read"
    assert [p.number for p in document.pages] == [1, 2, 3, 4]
    assert "WorkerCrashed" in document.report.error_kinds


def test_each_page_is_passed_on_as_read_and_again_once_ocr_read_it() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "page one text"), scan_page(2)],
                            renders=True)
    ocr = FakeOCR("tests.ocr", {2: "page two read by OCR"})
    passed: list[tuple[int, str, str, int | None, str]] = []
    with pages_passed_to(lambda page, count, mime: passed.append(
            (page.number, page.status, page.text, count, mime))):
        extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr))
    assert passed == [
        (1, "clean", "page one text", 2, TEST_MIME),
        (2, "corrupt", "", 2, TEST_MIME),
        (2, "ocr", "page two read by OCR", 2, TEST_MIME),
    ]


def test_a_sink_that_fails_costs_no_page() -> None:
    parser = ScriptedParser("tests.parser", [text_page(n, f"page {n}") for n in (1, 2, 3)])

    def broken(page: Page, count: int | None, mime: str) -> None:
        raise BrokenPipeError("the supervisor is gone")

    with pages_passed_to(broken):
        document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert [p.text for p in document.pages] == ["page 1", "page 2", "page 3"]


def test_the_command_line_shows_the_page_being_read_and_ocr_again() -> None:
    from goblin_core.cli.extract import _PageProgress

    progress = _PageProgress()
    progress.page(_page(3), 10, "application/pdf")
    task = progress.bar.tasks[0]
    assert (task.completed, task.total, task.description) == (3, 10, "reading")
    progress.page(Page(2, "read", "ocr.tesseract", "ocr", 0.9), 10, "application/pdf")
    assert (task.completed, task.description) == (2, "OCR")
