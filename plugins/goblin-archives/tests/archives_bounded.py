"""Helpers for goblin-archives tests: bounded child runs and tree snapshots."""

from __future__ import annotations

import json
import os
import stat
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


def extract_without_the_ratio(fixture: Path, tmp_root: Path) -> ChildRun:
    """``extract`` of ``fixture`` in a bounded child with ``limits.max_ratio`` raised out of
    the way, for a bomb that only some other bound may stop; its report's members (name,
    action, reason) and every document's text."""
    code = f"""
    doc = goblin_core.extract({str(fixture)!r}, ocr="never",
                              config={{"limits": {{"max_ratio": 1000000}}}})
    emit(members=[[m.name, m.action, m.reason] for m in doc.report.members],
         texts=[d.text for d in doc.walk()])
    """
    return run_bounded(code, tmp_root)


def snapshot(root: Path) -> set[str]:
    """Every path under ``root`` (links not followed), relative to it."""
    found = set()
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            found.add(os.path.relpath(os.path.join(folder, name), root))
    return found


_EXTRACT_AND_UNPACK = """
src, dest, opts, cfg = {src!r}, {dest!r}, {opts!r}, {cfg!r}
out = {{}}
try:
    doc = goblin_core.extract(src, ocr="never", config=cfg, **opts)
    out["members"] = [[m.name, m.action, m.reason] for d in doc.walk() for m in d.report.members]
    out["errors"] = [[e.kind, e.message] for d in doc.walk() for e in d.report.errors]
    out["warnings"] = [[e.kind, e.message] for d in doc.walk() for e in d.report.warnings]
    out["texts"] = [d.text for d in doc.walk()]
except GoblinError as exc:
    out["raised"] = [exc.kind, str(exc)]
from goblin_core.unpack import unpack
try:
    config = goblin_core.default_registry().config(cfg, **opts)
    result = unpack(src, dest, config=config)
    out["unpack_written"] = [str(p) for p in result.written]
    out["unpack_members"] = [[m.name, m.action, m.reason] for m in result.members]
    out["unpack_errors"] = [[e.kind, e.message] for e in result.errors]
except GoblinError as exc:
    out["unpack_raised"] = [exc.kind, str(exc)]
emit(**out)
"""


def run_hostile(tmp_path: Path, fixture: Path, config: dict[str, Any] | None = None,
                **opts: Any) -> ChildRun:
    """``extract`` and ``unpack`` of ``fixture`` in a bounded child, into ``tmp_path/dest``.

    Fails when the child runs past the ceilings, writes anything outside
    ``dest``, leaves temporary files or writes a link, a device or a setuid file.
    """
    dest = tmp_path / "dest"
    before = snapshot(tmp_path)
    code = _EXTRACT_AND_UNPACK.format(src=str(fixture), dest=str(dest), opts=opts, cfg=config)
    run = run_bounded(code, tmp_path)
    assert run.seconds < MAX_SECONDS, f"took {run.seconds:.1f}s"
    assert run.peak_rss < MAX_RSS_BYTES, f"peaked at {run.peak_rss / 2**20:.0f} MiB"
    _assert_nothing_outside(tmp_path, dest, before)
    return run


def _assert_nothing_outside(tmp_path: Path, dest: Path, before: set[str]) -> None:
    after = snapshot(tmp_path)
    new = {p for p in after - before if not p.startswith(("dest", "child-tmp"))}
    assert not new, f"written outside the destination: {sorted(new)[:10]}"
    leftovers = snapshot(tmp_path / "child-tmp")
    assert not leftovers, f"temporary files left behind: {sorted(leftovers)[:10]}"
    for folder, dirs, files in os.walk(dest) if dest.exists() else ():
        for name in dirs + files:
            path = Path(folder, name)
            assert not path.is_symlink(), f"a link was written: {path}"
            info = path.lstat()
            assert stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode), path
            assert not info.st_mode & 0o6000, f"setuid/setgid kept on {path}"


def without(*engines: str) -> dict[str, Any]:
    """A config with ``engines`` turned off: the next handler of the chain reads the archive."""
    return {"engines": {name: {"enabled": False} for name in engines}}
