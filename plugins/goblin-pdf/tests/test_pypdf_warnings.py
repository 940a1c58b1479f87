"""pypdf's warnings about a damaged file stay off standard error while goblin reads it, and
the pypdf logger is left as the application set it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from goblin_core import extract
from goblin_core.errors import CorruptDocument
from goblin_pdf.pypdf_warnings import pypdf_warnings_held

_DAMAGED = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\nxref garbage"


def test_a_damaged_pdf_read_through_the_api_writes_nothing_on_stderr(tmp_path: Path) -> None:
    path = tmp_path / "cut.pdf"
    path.write_bytes(_DAMAGED)
    script = ("import sys, goblin_core\n"
              "try:\n    goblin_core.extract(sys.argv[1])\n"
              "except goblin_core.GoblinError as error:\n    print(error.kind)\n")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ), check=True)
    assert done.stdout.strip() == "CorruptDocument"
    assert done.stderr == ""  # pypdf said "EOF marker not found" here, with no file name


def test_the_pypdf_logger_keeps_the_level_the_application_gave_it() -> None:
    logger = logging.getLogger("pypdf")
    before = logger.level
    logger.setLevel(logging.INFO)
    try:
        with pytest.raises(CorruptDocument, match="pypdf cannot read it"):
            extract(_DAMAGED, name="cut.pdf", ocr="never")
        assert logger.level == logging.INFO
    finally:
        logger.setLevel(before)


def test_threads_holding_pypdf_s_warnings_release_them_once_all_are_done() -> None:
    logger = logging.getLogger("pypdf")
    assert logger.level == logging.NOTSET
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[int] = []

    def first() -> None:
        with pypdf_warnings_held():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second() -> None:
        first_in.wait(10)
        with pypdf_warnings_held():
            second_in.set()
            first_out.wait(10)
            seen.append(logger.level)  # the first thread left; this one still holds

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert seen == [logging.ERROR]
    assert logger.level == logging.NOTSET
