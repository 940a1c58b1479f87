"""``goblin extract`` as a batch tool: executor choice, progress, the closing summary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from goblin_core.cli import cli
from goblin_core.cli.extract import executor_name


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("alpha\n", encoding="utf-8")
    (folder / "b.txt").write_text("beta\n", encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    return folder


def test_executor_names_from_the_command_line() -> None:
    assert executor_name("dask") == "executor.dask"
    assert executor_name("local") == "executor.local"
    assert executor_name("executor.local") == "executor.local"


def test_an_unknown_executor_is_a_usage_error_naming_the_installed_ones(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["extract", str(_folder(tmp_path)), "--executor", "nope"])
    assert result.exit_code == 2
    assert "no executor named executor.nope" in result.stderr
    assert "local" in result.stderr


def test_a_watched_batch_ends_with_a_summary_table(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["extract", str(_folder(tmp_path)), "-o", str(out),
                                      "--executor", "local", "--jobs", "2", "--progress"])
    assert result.exit_code == 1  # the empty file failed; the others were written
    table = result.stderr
    for row in ("documents", "pages", "errors", "seconds", "pages/s"):
        assert row in table
    assert "CorruptDocument 1" in table
    assert "clean 2" in table and "failed 1" in table
    assert (out / "a.txt.txt").read_text(encoding="utf-8").endswith("alpha\n")
    assert (out / "b.txt.txt").read_text(encoding="utf-8").endswith("beta\n")


def test_the_batch_cli_in_a_real_process_keeps_its_exit_codes(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "goblin_core.cli", "extract", str(folder), "-o", str(out),
               "--jobs", "2", "--executor", "local", "--progress"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert "pages/s" in done.stderr and "CorruptDocument" in done.stderr
    (folder / "empty.txt").unlink()
    again = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
