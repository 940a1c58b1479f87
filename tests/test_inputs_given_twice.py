"""A folder adds the files of a run not already reached: a folder given twice, or after a
file in it, reads its files once. A file named twice is read twice (``cat a a``), and a
link beside its target is still a file of its own."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from goblin_core import extract_many, load_registry
from goblin_core.batch import MANIFEST_NAME
from goblin_core.cli import CliState, cli
from goblin_core.inputs import InputProblem, tasks_for

pytestmark = pytest.mark.usefixtures("cli_environment")


def _folder(root: Path) -> Path:
    folder = root / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("first file\n", encoding="utf-8")
    (folder / "b.txt").write_text("second file\n", encoding="utf-8")
    return folder


def _names(paths: list[str]) -> list[str]:
    return [task.display_name for task in tasks_for(paths) if not isinstance(task, InputProblem)]


def test_a_folder_given_twice_under_two_spellings_is_walked_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert _names(["docs", "./docs/", "docs/../docs"]) == ["a.txt", "b.txt"]


def test_a_file_named_twice_is_read_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert _names(["docs/a.txt", "docs/a.txt"]) == ["docs/a.txt", "docs/a.txt (2)"]
    assert _names(["docs", "docs/a.txt"]) == ["docs/a.txt", "b.txt", "docs/a.txt (2)"]


def test_a_file_given_before_its_folder_keeps_its_own_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert _names(["docs/b.txt", "docs"]) == ["b.txt", "a.txt"]


def test_a_folder_reached_through_a_link_is_the_same_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    os.symlink(folder, tmp_path / "shortcut")
    assert _names([str(folder), str(tmp_path / "shortcut")]) == ["a.txt", "b.txt"]


def test_a_link_to_a_file_beside_it_is_read_as_a_file_of_its_own(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    os.symlink("a.txt", folder / "c.txt")
    assert _names([str(folder)]) == ["a.txt", "b.txt", "c.txt"]


def test_extract_many_returns_each_file_of_a_folder_once(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    documents = list(extract_many([folder / "a.txt", folder, folder]))
    assert sorted(d.text.strip() for d in documents) == ["first file", "second file"]


def test_goblin_extract_writes_one_result_for_a_file_its_folders_reach_twice(
        tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    output = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["extract", str(folder), str(folder), "-o", str(output),
              "--jobs", "1"],
        obj=CliState(load_registry(entry_points=lambda: [])))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (output / MANIFEST_NAME).read_text().splitlines()]
    assert sorted(row["path"] for row in rows) == ["a.txt", "b.txt"]
    assert sorted(p.name for p in output.iterdir()) == ["a.txt.txt", "b.txt.txt", MANIFEST_NAME]
