"""Helpers for goblin-archives tests: bounded child runs and tree snapshots."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Ceilings every hostile input must stay under.
MAX_SECONDS = 20.0
MAX_RSS_BYTES = 1024**3


@dataclass(frozen=True)
class ChildRun:
    """What a bounded child process reported, how long it took and its peak memory."""

    result: dict[str, Any]
    seconds: float
    peak_rss: int


_CHILD_PRELUDE = """
import json, resource, sys, time
from pathlib import Path
import goblin_core
from goblin_core.errors import GoblinError

goblin_core.default_registry()  # plugin loading is start-up, not work on the archive
STARTED = time.monotonic()

def emit(**data):
    data["seconds"] = time.monotonic() - STARTED
    data["peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print("RESULT " + json.dumps(data, default=str))

def members(doc):
    return [[m.name, m.action, m.reason] for m in doc.report.members]
"""


def run_bounded(code: str, tmp_root: Path, timeout: float = MAX_SECONDS) -> ChildRun:
    """Run ``code`` in a fresh Python with TMPDIR inside ``tmp_root``; kill it past ``timeout``.

    The code calls ``emit(...)`` once with what the test should check. The
    time reported is the work's, measured in the child after plugins loaded.
    """
    tmpdir = tmp_root / "child-tmp"
    tmpdir.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(tmpdir)}
    script = _CHILD_PRELUDE + textwrap.dedent(code)
    # Start-up (loading every installed plugin) is not bounded by ``timeout``.
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=timeout + 180, env=env, check=False)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")), None)
    assert line is not None, f"child failed (exit {done.returncode}):\n{done.stderr[-3000:]}"
    result = json.loads(line[len("RESULT "):])
    return ChildRun(result, float(result.pop("seconds")), int(result.pop("peak_rss")))


def snapshot(root: Path) -> set[str]:
    """Every path under ``root`` (links not followed), relative to it."""
    found = set()
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            found.add(os.path.relpath(os.path.join(folder, name), root))
    return found
