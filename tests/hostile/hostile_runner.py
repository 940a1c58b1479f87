"""Runs goblin on a hostile file in a child process, with a time and memory ceiling.

Every run goes through a small driver in a fresh interpreter: the CLI
(``goblin extract``/``goblin unpack``) or the Python API. The driver reports
its exit code, peak resident memory (its own and its children's: workers,
pdftotext, 7z, tesseract) and a summary of the document on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CEILING_SECONDS = 20.0
CEILING_BYTES = 1024**3
MARK = "@@GOBLIN-HOSTILE "

DRIVER = r"""
import json, resource, sys, time
mode, args = sys.argv[1], sys.argv[2:]
code, result = 0, {}
try:
    if mode == "cli":
        from goblin_core.cli import main
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    else:
        import goblin_core
        try:
            document = goblin_core.extract(args[0], **json.loads(args[1]))
        except goblin_core.GoblinError as exc:
            result = {"raised": exc.kind, "message": str(exc)}
        else:
            docs = list(document.walk())
            result = {
                "status": document.status,
                "errors": sorted({e.kind for d in docs for e in d.report.errors}),
                "warnings": sorted({w.kind for d in docs for w in d.report.warnings}),
                # an engine's failure on one page is the page's, not the document's
                "attempts": sorted({a.error_kind for d in docs for p in d.pages
                                    for a in p.attempts if a.error_kind}),
                "refused": [m.name for d in docs for m in d.report.members if m.action == "refused"],
                "names": [d.name for d in docs],
                "text": "\n".join(d.text for d in docs)[:200000],
            }
finally:
    # The driver's own peak from /proc: ru_maxrss survives exec on Linux, so it would
    # report the test process the driver was started from, not the driver.
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with open("/proc/self/status") as status:
            own = next(int(x.split()[1]) for x in status if x.startswith("VmHWM:"))
    except (OSError, StopIteration):
        pass
    usage = max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    sys.stderr.write("\n@@GOBLIN-HOSTILE " + json.dumps(
        {"code": code, "peak_kb": usage, "result": result}) + "\n")
"""


@dataclass(frozen=True)
class Run:
    code: int
    seconds: float
    peak_bytes: int
    stdout: str
    stderr: str
    result: dict[str, Any]

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.stderr


class HostileRunner:
    """Runs the driver under the ceilings, in a scratch folder for temporary files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.scratch = root / "scratch-tmp"
        self.scratch.mkdir(exist_ok=True)

    def _run(
        self,
        mode: str,
        args: list[str],
        extra_env: dict[str, str] | None = None,
        ceiling: float = CEILING_SECONDS,
    ) -> Run:
        env = dict(
            os.environ,
            TMPDIR=str(self.scratch),
            GOBLIN_CACHE=str(self.root / "cache"),
            **(extra_env or {}),
        )
        started = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-c", DRIVER, mode, *args],
                capture_output=True,
                text=True,
                timeout=ceiling + 40,
                env=env,
                cwd=self.root,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"goblin {mode} {args[:1]} ran past {CEILING_SECONDS + 40:.0f}s")
        seconds = time.monotonic() - started
        line = next((x for x in reversed(done.stderr.splitlines()) if x.startswith(MARK)), None)
        assert line is not None, f"the driver did not finish:\n{done.stderr[-3000:]}"
        data = json.loads(line[len(MARK) :])
        run = Run(
            int(data["code"] or 0),
            seconds,
            int(data["peak_kb"]) * 1024,
            done.stdout,
            done.stderr,
            data["result"],
        )
        assert not run.traceback, run.stderr[-4000:]
        assert run.seconds < ceiling, f"{run.seconds:.1f}s is over the ceiling"
        assert run.peak_bytes < CEILING_BYTES, f"peak RSS {run.peak_bytes / 2**20:.0f} MiB"
        return run

    def cli(
        self, *args: str, env: dict[str, str] | None = None, ceiling: float = CEILING_SECONDS
    ) -> Run:
        return self._run("cli", list(args), env, ceiling)

    def api(self, path: Path, **options: Any) -> Run:
        return self._run("api", [str(path), json.dumps(options)])

    def assert_contained(self, allowed: list[Path]) -> None:
        """Every file under the test's root sits in an allowed folder; the scratch is empty."""
        allowed = [a.resolve() for a in allowed] + [(self.root / "cache").resolve()]
        for path in self.root.rglob("*"):
            if path.is_dir():
                continue
            resolved = path.resolve() if not path.is_symlink() else path.absolute()
            assert path.is_symlink() is False, f"a link was written: {path}"
            if resolved.is_relative_to(self.scratch.resolve()):
                pytest.fail(f"a temporary file was left behind: {path}")
            assert any(resolved.is_relative_to(a) for a in allowed), f"written outside: {path}"
