"""Files of one run that share a name (two folders given, each holding ``x.txt``): each
keeps a name of its own in the results, the manifest and the trust report."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from goblin_core import default_registry, load_registry
from goblin_core.batch import MANIFEST_NAME, run_batch
from goblin_core.cli import CliState, cli
from goblin_core.inputs import tasks_for
from goblin_core.trust_report import build_report

#: ``né.txt`` as a Latin-1 file system names it: not UTF-8.
LATIN1_NAME = "né.txt".encode("latin-1")


pytestmark = pytest.mark.usefixtures("cli_environment")


def _two_folders(root: Path, name: bytes = b"x.txt") -> tuple[Path, Path]:
    """Folders ``one`` and ``two``, each holding a file ``name`` with its own text."""
    folders = []
    for label in ("one", "two"):
        folder = root / label
        folder.mkdir()
        with open(os.path.join(os.fsencode(folder), name), "wb") as stream:
            stream.write(f"text of {label}\n".encode())
        folders.append(folder)
    return folders[0], folders[1]


def test_tasks_of_two_folders_name_their_same_named_files_by_path(tmp_path: Path) -> None:
    one, two = _two_folders(tmp_path)
    (one / "only.txt").write_text("alone\n", encoding="utf-8")
    names = [t.display_name for t in tasks_for([one, two]) if hasattr(t, "display_name")]
    assert names == ["only.txt", (one / "x.txt").as_posix(), (two / "x.txt").as_posix()]


def test_a_batch_of_two_folders_keeps_a_manifest_row_for_each_same_named_file(
    tmp_path: Path,
) -> None:
    one, two = _two_folders(tmp_path)
    registry = default_registry()
    out = tmp_path / "out"
    summary = run_batch(registry, registry.config(), [one, two], out, jobs=1)
    assert (summary.done, summary.failed) == (2, 0)
    rows = [json.loads(line) for line in (out / MANIFEST_NAME).read_text().splitlines()]
    texts = {row["path"]: (out / row["output"]).read_text(encoding="utf-8") for row in rows}
    assert len(texts) == 2
    assert sorted(t.splitlines()[1] for t in texts.values()) == ["text of one", "text of two"]


def test_the_report_of_two_folders_names_each_same_named_file_apart(tmp_path: Path) -> None:
    one, two = _two_folders(tmp_path)
    registry = default_registry()
    data = build_report(registry, registry.config(), [one, two], jobs=1, thumbnails=False)
    by_name = {d["name"]: d["pages"][0]["text"] for d in data["documents"]}
    assert by_name == {(one / "x.txt").as_posix(): "text of one\n",
                       (two / "x.txt").as_posix(): "text of two\n"}


def test_same_named_files_whose_names_are_not_utf8_are_written_under_readable_names(
    tmp_path: Path,
) -> None:
    """Named by their paths, the names are still shown with ``%NN`` for the bytes that are
    not UTF-8, and their results are written: no traceback, no replacement characters."""
    one, two = _two_folders(tmp_path, LATIN1_NAME)
    files = [os.fsdecode(os.path.join(os.fsencode(f), LATIN1_NAME)) for f in (one, two)]
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["extract", *files, "-o", str(out), "--jobs", "1"],
                                obj=CliState(load_registry(entry_points=lambda: [])))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / MANIFEST_NAME).read_text().splitlines()]
    assert sorted(row["path"] for row in rows) == [f"{one.as_posix()}/n%E9.txt",
                                                   f"{two.as_posix()}/n%E9.txt"]
    assert sorted((out / row["output"]).read_text(encoding="utf-8").splitlines()[1]
                  for row in rows) == ["text of one", "text of two"]
