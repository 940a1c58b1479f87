"""A resumed run never writes a document's result over the result of one it kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from goblin_core import default_registry, load_registry
from goblin_core.batch import MANIFEST_NAME, run_batch
from goblin_core.cli import CliState, cli

pytestmark = pytest.mark.usefixtures("cli_environment")


def _two_names_one_result(folder: Path) -> Path:
    """``a/b.txt`` and a file named ``a\\b.txt``: both results would be ``a/b.txt.txt``,
    so the second of the first run is numbered."""
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "b.txt").write_text("slash one\n", encoding="utf-8")
    (folder / "a\\b.txt").write_text("backslash two\n", encoding="utf-8")
    return folder


def _results(out: Path) -> dict[str, str]:
    """Each manifest row's path and the last line of the result file it names."""
    rows = [json.loads(line) for line in (out / MANIFEST_NAME).read_text().splitlines()]
    outputs = [row["output"] for row in rows]
    assert len(set(outputs)) == len(outputs), f"two rows name one result: {outputs}"
    return {row["path"]: (out / row["output"]).read_text(encoding="utf-8").splitlines()[-1]
            for row in rows}


def test_a_resumed_cli_run_keeps_the_result_of_an_unchanged_document(tmp_path: Path) -> None:
    source = _two_names_one_result(tmp_path / "in")
    out = tmp_path / "out"

    def extract(*more: str) -> None:
        result = CliRunner().invoke(cli, ["extract", str(source), "-o", str(out), "--jobs", "1",
                                          *more],
                                    obj=CliState(load_registry(entry_points=lambda: [])))
        assert result.exit_code == 0, result.output

    extract()
    (source / "a\\b.txt").write_text("backslash changed\n", encoding="utf-8")
    extract("--resume")
    assert _results(out) == {"a/b.txt": "slash one", "a\\b.txt": "backslash changed"}


def test_a_resumed_batch_keeps_the_result_of_an_unchanged_document(tmp_path: Path) -> None:
    source = _two_names_one_result(tmp_path / "in")
    out = tmp_path / "out"
    registry = default_registry()
    run_batch(registry, registry.config(), [source], out, jobs=1)
    (source / "a\\b.txt").write_text("backslash changed\n", encoding="utf-8")
    summary = run_batch(registry, registry.config(), [source], out, jobs=1, resume=True)
    assert (summary.done, summary.skipped) == (1, 1)
    assert _results(out) == {"a/b.txt": "slash one", "a\\b.txt": "backslash changed"}
