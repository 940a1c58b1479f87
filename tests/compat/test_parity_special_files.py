"""A FIFO given where a file is expected ends at once, with no text and a report saying
why; GoblinTools 0.13.4 (and the facade before) waited for ever for a writer."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from pathlib import Path
from typing import Any

import pytest

from goblin_core.compat import ArchiveHandler, FileValidator, TextExtractor

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def ends_without_a_writer(fifo: Path, call: Callable[[], Any]) -> Any:
    """``call()``'s answer; the test fails if it waits on the FIFO."""
    pool = ThreadPoolExecutor(max_workers=1)
    answer = pool.submit(call)
    try:
        return answer.result(timeout=30)  # a safety ceiling: it takes milliseconds
    except FuturesTimeout:
        # opening the writer's end lets the blocked read return, so the pool can end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a FIFO blocked")
    finally:
        pool.shutdown(wait=False)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "dados.txt"
    os.mkfifo(path)
    return path


def test_extract_from_file_refuses_a_fifo_and_reports_it(fifo: Path) -> None:
    extractor = TextExtractor()
    assert ends_without_a_writer(fifo, lambda: extractor.extract_from_file(str(fifo))) == ""
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"
    assert "not a regular file" in " ".join(report.errors)


def test_file_questions_about_a_fifo_end(fifo: Path) -> None:
    assert ends_without_a_writer(fifo, lambda: FileValidator.is_zip_by_magic(str(fifo))) is False
    assert ends_without_a_writer(
        fifo, lambda: FileValidator.detect_extension_from_magic(str(fifo))) is None
    assert ends_without_a_writer(
        fifo, lambda: FileValidator.office_container_extension(str(fifo))) is None
    assert ends_without_a_writer(
        fifo, lambda: ArchiveHandler.extract_zip(str(fifo), str(fifo.parent / "out"))) is False
