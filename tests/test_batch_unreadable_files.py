"""A file that fails because it cannot be read still gets its result and manifest row."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from goblin_core import default_registry, load_registry
from goblin_core.batch import MANIFEST_NAME, BatchWriter, run_batch
from goblin_core.cli import CliState, cli
from goblin_core.engines import Task
from goblin_core.errors import UnreadableFile
from goblin_core.executors.worker import error_document

#: A regular file whose reading fails (EIO) on Linux, even for root.
UNREADABLE = Path("/proc/self/mem")


pytestmark = pytest.mark.usefixtures("cli_environment")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    if not UNREADABLE.is_file():
        pytest.skip("no /proc/self/mem here (Linux only)")
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text("alpha\n", encoding="utf-8")
    os.symlink(UNREADABLE, source / "mem")
    return source


def _rows(out: Path) -> dict[str, dict[str, object]]:
    lines = (out / MANIFEST_NAME).read_text(encoding="utf-8").splitlines()
    return {row["path"]: row for row in map(json.loads, lines)}


def test_a_batch_records_a_file_it_cannot_read_and_resumes_past_it(
    folder: Path, tmp_path: Path,
) -> None:
    registry = default_registry()
    out = tmp_path / "out"
    summary = run_batch(registry, registry.config(), [folder], out, jobs=1)
    assert (summary.done, summary.failed) == (2, 1)
    rows = _rows(out)
    assert rows["mem"]["status"] == "failed" and rows["mem"]["sha256"] == ""
    assert str(rows["mem"]["error"]).startswith("UnreadableFile:")
    again = run_batch(registry, registry.config(), [folder], out, jobs=1, resume=True)
    assert (again.done, again.skipped, again.failed) == (1, 1, 1)


def test_the_cli_names_the_read_error_alone_and_records_it(folder: Path, tmp_path: Path) -> None:
    """Not a second "its result could not be written" line for the same cause, and the
    failure has its manifest row."""
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["extract", str(folder), "-o", str(out), "--jobs", "1"],
                                obj=CliState(load_registry(entry_points=lambda: [])))
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "UnreadableFile" in errors[0], result.stderr
    assert _rows(out)["mem"]["status"] == "failed"
    assert (out / "mem.txt").is_file()


def test_a_fifo_put_in_a_file_s_place_does_not_block_its_manifest_row(tmp_path: Path) -> None:
    """A file replaced by a FIFO after the walk fails in its worker; its manifest row, which
    hashes the file when the document has no hash, must not wait on the FIFO for ever."""
    fifo = tmp_path / "b.txt"
    os.mkfifo(fifo)
    registry = default_registry()
    writer = BatchWriter(registry, registry.config(), tmp_path / "out", "text")
    failed = error_document(Task(str(fifo), "b.txt"),
                            UnreadableFile("not a regular file", file="b.txt"))
    rows: list[dict[str, object]] = []
    writing = threading.Thread(target=lambda: rows.append(
        writer.write(failed, Task(str(fifo), "b.txt"), 0.0)), daemon=True)
    writing.start()
    writing.join(timeout=30)  # a safety ceiling: it takes milliseconds
    if writing.is_alive():
        # a writer's open ends the blocked reader's, so the thread does not outlive the test
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        writing.join(timeout=10)
        pytest.fail("writing the manifest row of a FIFO blocked")
    writer.close({})
    assert rows[0]["sha256"] == "" and rows[0]["status"] == "failed"
    assert _rows(tmp_path / "out")["b.txt"]["error"] == "UnreadableFile: b.txt: not a regular file"
