"""``goblin extract`` of several documents as one HTML page or JSON array: each document is
written as it is finished, not held in memory until the last."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from goblin_core import extract, hookimpl, load_registry
from goblin_core.cli import CliState, cli
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, Task, TaskResult
from goblin_core.renderers import HTMLRenderer, JSONRenderer


class _WatchingExecutor(BaseEngine):
    """Reads each task in this process, and notes what standard output holds before
    handing back each document after the first."""

    name = "executor.watching"

    def __init__(self) -> None:
        self.seen_before: list[str] = []

    def run(self, tasks: Iterable[Task], config: Config,
            jobs: int | None = None) -> Iterator[TaskResult]:
        for number, task in enumerate(tasks):
            if number:
                self.seen_before.append(sys.stdout.buffer.getvalue().decode())  # type: ignore[attr-defined]
            assert task.path is not None
            document = extract(Path(task.path), name=task.display_name, config=config)
            yield TaskResult(task, document)


def _run(tmp_path: Path, fmt: str) -> tuple[str, list[str]]:
    for name, text in (("a.txt", "alpha text\n"), ("b.txt", "bravo <text>\n"),
                       ("c.txt", "charlie text\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    executor = _WatchingExecutor()

    class Plugin:
        @staticmethod
        @hookimpl
        def goblin_register_executors(register: Any) -> None:
            register(executor)

    registry = load_registry(entry_points=lambda: [], extra_plugins=[("tests", Plugin())])
    result = CliRunner().invoke(
        cli, ["extract", str(tmp_path), "-f", fmt, "--executor", "watching"],
        obj=CliState(registry))
    assert result.exit_code == 0, result.output
    return result.stdout, executor.seen_before


def test_a_json_array_of_several_documents_is_written_as_each_is_finished(
    tmp_path: Path,
) -> None:
    output, seen_before = _run(tmp_path, "json")
    documents = json.loads(output)
    assert [d["name"] for d in documents] == ["a.txt", "b.txt", "c.txt"]
    # the first document is out before the second is handed back, the second before the third
    assert '"alpha text\\n"' in seen_before[0] and "bravo" not in seen_before[0]
    assert '"bravo <text>\\n"' in seen_before[1] and "charlie" not in seen_before[1]


def test_an_html_page_of_several_documents_is_written_as_each_is_finished(
    tmp_path: Path,
) -> None:
    output, seen_before = _run(tmp_path, "html")
    assert output.count("<section") == 3 and output.endswith("</body></html>\n")
    assert "alpha text" in seen_before[0] and "bravo" not in seen_before[0]
    assert "bravo &lt;text&gt;" in seen_before[1] and "charlie" not in seen_before[1]


@pytest.mark.parametrize("renderer", [JSONRenderer(), HTMLRenderer()], ids=["json", "html"])
def test_a_streamed_rendering_is_the_rendering_of_the_whole(renderer: Any) -> None:
    documents = [extract(b"one\n\ntwo\n", name="a.txt"), extract(b'say "hi" <b>\n', name="b.txt"),
                 extract(b"tab\tand \xc3\xa9\n", name="c\n.txt")]
    streamed = io.StringIO()
    stream = renderer.stream_documents(streamed, None)
    for document in documents:
        stream.add(document)
    stream.close()
    assert streamed.getvalue() == renderer.render(documents, None)
