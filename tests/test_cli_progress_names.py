"""The progress shown on a terminal, whatever the names of the files hold."""

from __future__ import annotations

import importlib.util
import os
import pty
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from goblin_core.testing.corpus import skip_or_fail


def _goblin_script() -> str:
    found = shutil.which("goblin", path=str(Path(sys.executable).parent)) or shutil.which("goblin")
    if found is None:
        pytest.fail("the goblin console script is not installed next to this Python")
    return found


def _on_a_terminal(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run goblin with its standard error on a pseudo-terminal; its status and what the
    terminal showed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOBLIN_")}
    # the example plugin's fixtures alone: a document that takes its time to read
    env.update(GOBLIN_LOAD_PLUGINS="example-fixtures", COLUMNS="120", TERM="xterm")
    leader, follower = pty.openpty()
    process = subprocess.Popen([_goblin_script(), *args], cwd=cwd, env=env,
                               stdout=subprocess.DEVNULL, stderr=follower,
                               stdin=subprocess.DEVNULL)
    os.close(follower)
    shown = bytearray()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end is closed: the process is done
                break
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None:
            break
    os.close(leader)
    return process.wait(timeout=60), shown.decode("utf-8", "replace")


def test_a_name_that_reads_as_rich_markup_leaves_the_progress_bar_working(
    tmp_path: Path,
) -> None:
    """``a[/b].txt`` (a file ``b].txt`` in a folder ``a[``): the bar's text is markup, and
    the closing tag ``[/b]`` ended the thread that draws it with a traceback on screen.
    The bar shows the name while the next document, which sleeps, is read."""
    if importlib.util.find_spec("goblin_example_note") is None:
        skip_or_fail("goblin-example-note (tests/example_plugin) is not installed")
    source = tmp_path / "in"
    (source / "a[").mkdir(parents=True)
    (source / "a[" / "b].txt").write_text("alpha\n", encoding="utf-8")
    (source / "b.sleepy").write_bytes(b"GOBLIN-SLEEPY 2\n")
    status, shown = _on_a_terminal(["extract", "in", "-o", "out", "--jobs", "1"], tmp_path)
    assert status == 0, shown
    assert "Traceback" not in shown and "MarkupError" not in shown, shown
    assert "a[/b].txt" in shown  # the name as it is, once drawn


def test_the_report_progress_never_sends_a_name_s_escape_codes_raw(tmp_path: Path) -> None:
    """A file named with a terminal's clear-screen code is shown escaped, not obeyed."""
    source = tmp_path / "in"
    source.mkdir()
    (source / "x\x1b[2Jy.txt").write_text("alpha\n", encoding="utf-8")
    (source / "z.txt").write_text("zulu\n", encoding="utf-8")
    status, shown = _on_a_terminal(["report", "in", "-o", "r.html", "--no-thumbnails",
                                    "-j", "1"], tmp_path)
    assert status == 0, shown
    assert "\x1b[2J" not in shown
    assert "x\\x1b[2Jy.txt" in shown
