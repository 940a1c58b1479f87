"""The installed ``goblin`` console script, run as a real process.

Plugins are switched off with GOBLIN_LOAD_PLUGINS="" (inherited by the
worker processes too) so the runs depend on goblin-core alone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def goblin_script() -> str:
    found = shutil.which("goblin", path=str(Path(sys.executable).parent)) or shutil.which("goblin")
    if found is None:
        pytest.fail("the goblin console script is not installed next to this Python")
    return found


def core_env() -> dict[str, str]:
    """This environment without GOBLIN_ settings, plugins switched off."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOBLIN_")}
    env["GOBLIN_LOAD_PLUGINS"] = ""
    return env


def goblin(*args: str, stdin: bytes | None = None, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([goblin_script(), *args], input=stdin, capture_output=True, cwd=cwd,
                          env=core_env(), timeout=300, check=False)


def test_the_script_extracts_a_file_and_reads_stdin(tmp_path: Path) -> None:
    (tmp_path / "ata.txt").write_text("Ata da sessão pública\n", encoding="utf-8")
    result = goblin("extract", "ata.txt", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode("utf-8") == 'file_path_pwd:"ata.txt"\nAta da sessão pública\n'
    piped = goblin("extract", "-", "--name", "x.txt", stdin="ação\n".encode(), cwd=tmp_path)
    assert piped.returncode == 0
    assert piped.stdout.decode("utf-8") == 'file_path_pwd:"x.txt"\nação\n'


@pytest.mark.slow
def test_a_batch_in_worker_processes_goes_on_past_a_bad_file(tmp_path: Path) -> None:
    folder = tmp_path / "lote"
    folder.mkdir()
    (folder / "a.txt").write_text("primeiro\n", encoding="utf-8")
    (folder / "b.txt").write_bytes(b"")
    (folder / "c.txt").write_text("terceiro\n", encoding="utf-8")
    result = goblin("extract", "lote", "--jobs", "2", cwd=tmp_path)
    assert result.returncode == 1
    out = result.stdout.decode("utf-8")
    assert out.index('file_path_pwd:"a.txt"') < out.index('file_path_pwd:"c.txt"')
    assert "primeiro" in out and "terceiro" in out
    # stderr is a pipe: no progress bar, only the one line naming the bad file
    assert result.stderr.decode("utf-8").splitlines() == [
        'goblin: error: "b.txt": CorruptDocument: the file is empty (0 bytes): '
        "there is nothing to extract"
    ]


def test_usage_errors_exit_2_and_version_exits_0(tmp_path: Path) -> None:
    assert goblin("extract", cwd=tmp_path).returncode == 2
    version = goblin("--version", cwd=tmp_path)
    assert version.returncode == 0
    assert version.stdout.decode().startswith("goblin, version ")


@pytest.mark.parametrize("args", [
    ["plugins"], ["plugins", "--json"], ["formats"], ["config"], ["config", "--json"],
    ["doctor", "--json"], ["extract", "ata.txt"],
])
def test_a_reader_that_goes_away_ends_every_command_quietly_with_0(
    tmp_path: Path, args: list[str],
) -> None:
    (tmp_path / "ata.txt").write_text("Ata da sessão pública\n" * 20_000, encoding="utf-8")
    process = subprocess.Popen([goblin_script(), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path, env=core_env())
    assert process.stdout is not None
    process.stdout.close()  # before goblin writes a byte: every write meets a closed pipe
    _, stderr = process.communicate(timeout=300)
    assert stderr.decode() == ""
    assert process.returncode == 0


def _peak_of_goblin(args: list[str], stdin_path: str, env: dict[str, str]) -> tuple[int, str]:
    """Run the script with ``stdin_path`` as its standard input, from a child of its own
    (so no earlier child of this test process counts); its peak RSS in KB, its stderr."""
    probe = (
        "import resource, subprocess, sys\n"
        "with open(sys.argv[1], 'rb') as stdin:\n"
        "    done = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL,\n"
        "                          stderr=subprocess.PIPE, timeout=120)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(done.stderr.decode('utf-8', 'replace'))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe, stdin_path, goblin_script(), *args],
                            capture_output=True, env=env, timeout=300, check=True)
    peak, _, stderr = result.stdout.decode("utf-8").partition("\n")
    return int(peak), stderr


@pytest.mark.slow
def test_standard_input_is_copied_to_a_file_not_held_in_memory(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**core_env(), "TMPDIR": str(scratch)}
    # 400 MB of zeros, refused at a 300 MB limit: read to the limit, never held
    peak, stderr = _peak_of_goblin(["extract", "-", "-O", "limits.max_file_size=300MB"],
                                   "/dev/zero", env)
    assert 'error: "stdin": FileTooLarge: the stream holds more than limits.max_file_size' in stderr
    assert peak < 200 * 1024, f"{peak} KB"
    text = tmp_path / "nota.txt"
    text.write_text("Ata da sessão\n" * 1000, encoding="utf-8")
    piped = subprocess.run([goblin_script(), "extract", "-", "--name", "nota.txt"],
                           input=text.read_bytes(), capture_output=True, cwd=tmp_path, env=env,
                           timeout=300, check=False)
    assert piped.stdout.decode("utf-8").count("Ata da sessão") == 1000
    assert list(scratch.iterdir()) == [], "the copy of standard input is removed"
