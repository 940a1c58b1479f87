"""``goblin extract ... -o DIR`` where DIR is, or holds, what is to be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from goblin_core import load_registry
from goblin_core.cli import CliState, cli

pytestmark = pytest.mark.usefixtures("cli_environment")


def _extract(*args: str) -> Result:
    return CliRunner().invoke(cli, ["extract", *args, "--jobs", "1"],
                              obj=CliState(load_registry(entry_points=lambda: [])))


def _rows(folder: Path) -> list[str]:
    lines = (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    return sorted(json.loads(line)["path"] for line in lines)


def test_the_folder_of_the_inputs_can_take_their_results(tmp_path: Path) -> None:
    """``-o`` naming the folder read: its documents are read, and a second run reads them
    again without reading back the results and the manifest the first one wrote."""
    (tmp_path / "a.txt").write_text("alpha\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_text("bravo\n", encoding="utf-8")
    for _ in range(2):
        result = _extract(str(tmp_path), "-o", str(tmp_path))
        assert result.exit_code == 0, result.output
        assert "wrote 2 result file(s)" in result.stderr
    assert _rows(tmp_path) == ["a.txt", "sub/b.txt"]
    assert (tmp_path / "a.txt.txt").read_text(encoding="utf-8") == 'file_path_pwd:"a.txt"\nalpha\n'
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                  if p.is_file()) == ["a.txt", "a.txt.txt", "manifest.jsonl", "sub/b.txt",
                                      "sub/b.txt.txt"]


def test_a_file_given_by_name_in_the_output_folder_is_read(tmp_path: Path) -> None:
    source = tmp_path / "a.txt"
    source.write_text("alpha\n", encoding="utf-8")
    result = _extract(str(source), "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert _rows(tmp_path) == ["a.txt"]
    assert (tmp_path / "a.txt.txt").is_file()


def test_a_folder_of_earlier_results_alone_says_they_were_left_out(tmp_path: Path) -> None:
    source = tmp_path / "a.txt"
    source.write_text("alpha\n", encoding="utf-8")
    assert _extract(str(source), "-o", str(tmp_path)).exit_code == 0
    source.unlink()
    result = _extract(str(tmp_path), "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"goblin: nothing to extract: the folders given hold only results "
                             f"of earlier runs into {tmp_path} (2 file(s), left out)\n")
