"""The progress bar's "failed" counts documents, not the error lines they have."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from goblin_core import extract, hookimpl, load_registry
from goblin_core.cli import CliState, cli
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, Task, TaskResult
from goblin_core.model import Report, ReportEntry

#: What a terminal is told to do (colours, cursor moves): not part of the text shown.
_TERMINAL_CODES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class _ThreeCausesExecutor(BaseEngine):
    """Reads each task here; a document named ``bad*`` comes back cut short three ways."""

    name = "executor.three_causes"

    def run(self, tasks: Iterable[Task], config: Config,
            jobs: int | None = None) -> Iterator[TaskResult]:
        for task in tasks:
            assert task.path is not None
            document = extract(Path(task.path), name=task.display_name, config=config)
            if task.display_name.startswith("bad"):
                causes = tuple(ReportEntry(kind, f"{kind} cut it short")
                               for kind in ("ExtractionTimeout", "OutputLimitReached",
                                            "Truncated"))
                document = dataclasses.replace(document, report=Report(errors=causes))
            yield TaskResult(task, document)


def test_the_progress_bar_counts_each_failed_document_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the bar is drawn as on a terminal, and its last picture stays in what stderr got
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    for name in ("bad-1.txt", "bad-2.txt", "good.txt"):
        (tmp_path / name).write_text(f"the text of {name}\n", encoding="utf-8")

    class Plugin:
        @staticmethod
        @hookimpl
        def goblin_register_executors(register: Any) -> None:
            register(_ThreeCausesExecutor())

    registry = load_registry(entry_points=lambda: [], extra_plugins=[("tests", Plugin())])
    result = CliRunner().invoke(
        cli, ["extract", str(tmp_path), "-o", str(tmp_path / "out"), "--executor",
              "three_causes", "--progress"], obj=CliState(registry))
    assert result.exit_code == 1, result.output
    shown = _TERMINAL_CODES.sub("", result.stderr)
    assert sum("error:" in line for line in shown.splitlines()) == 6, shown
    counts = {int(n) for n in re.findall(r"(\d+) failed", shown.split("summary")[0])}
    assert counts and max(counts) == 2, shown
