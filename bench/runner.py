"""Running one peer script in its own environment and reading back its rows.

Shared by every suite: a ``Peer`` names its script and requirements, and
``run_peer`` hands it a JSON job, waits, and returns an ``Outcome`` whose
figures the suite turns into a table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from environments import ROOT, environment, peer_env

RESULTS_DIR = ROOT / "bench" / "results"

GOBLIN = [".", "./plugins/goblin-pdf", "./plugins/goblin-office", "./plugins/goblin-archives",
          "./plugins/goblin-ocr-tesseract", "./plugins/goblin-dask", "./plugins/goblin-djvu"]
GOBLINTOOLS = ["goblintools==0.13.4", "pypdf<7"]


@dataclass(frozen=True)
class Peer:
    """A contender: its name, its script under bench/peers, what its environment holds."""

    name: str
    script: str
    requirements: list[str]
    env: dict[str, str] = field(default_factory=dict)

    def with_env(self, **env: str) -> Peer:
        return Peer(self.name, self.script, self.requirements, {**self.env, **env})


@dataclass
class Outcome:
    """What one peer did: its rows, and the whole batch's time when it ran as one."""

    peer: str
    version: str
    rows: list[dict[str, Any]]
    total_seconds: float | None = None
    profile: str = ""

    @property
    def seconds(self) -> float:
        if self.total_seconds is not None:
            return self.total_seconds
        return sum(r["seconds"] for r in self.rows)

    @property
    def pages(self) -> int:
        return sum(r["pages"] for r in self.rows)

    @property
    def words(self) -> int:
        return sum(r["words"] for r in self.rows)

    @property
    def errors(self) -> int:
        return sum(1 for r in self.rows if r["error"])

    def extra(self, key: str) -> float:
        return sum(r.get("extra", {}).get(key, 0) for r in self.rows)


def run_peer(peer: Peer, files: list[str], *, repeat: int = 1, keep_text: bool = False,
             options: dict[str, Any] | None = None) -> Outcome:
    """Run ``peer`` on ``files`` in its environment.

    ``options`` reach the script as ``job["options"]``.
    """
    # peers that differ only in settings share an environment
    python = environment(peer.name.split(" ")[0], peer.requirements)
    with tempfile.TemporaryDirectory(prefix="goblin-bench-") as tmp:
        job, out = Path(tmp) / "job.json", Path(tmp) / "out.json"
        job.write_text(json.dumps({"files": files, "repeat": repeat, "keep_text": keep_text,
                                   "options": options or {}, "scratch": tmp}))
        env = {**peer_env(), **peer.env}
        started = time.perf_counter()
        script = ROOT / "bench" / "peers" / peer.script
        subprocess.run([str(python), str(script), str(job), str(out)], check=True, env=env,
                       cwd=ROOT)
        wall = time.perf_counter() - started
        print(f"  {peer.name} {peer.script}: {wall:.1f}s wall", file=sys.stderr)
        data = json.loads(out.read_text())
    return Outcome(data["peer"], data["version"], data["rows"], data.get("total_seconds"),
                   data.get("profile", ""))


def normalize(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def recall(outcome: Outcome, expected: dict[str, list[str]], corpus: Path) -> tuple[int, int]:
    """(phrases found, phrases expected) over the files ``outcome`` read."""
    found = total = 0
    for row in outcome.rows:
        name = Path(row["file"]).relative_to(corpus).as_posix()
        text = normalize(row["text"])
        for phrase in expected.get(name, []):
            total += 1
            found += normalize(phrase) in text
    return found, total


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def ratio(value: float, reference: float) -> str:
    return f"{value / reference:.2f}x" if reference else "n/a"


def table(headers: list[str], rows: list[list[str]], *, right_from: int = 1) -> list[str]:
    """A Markdown table; columns from ``right_from`` on are right-aligned (figures)."""
    align = ["---" if i < right_from else "---:" for i in range(len(headers))]
    return ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |",
            *("| " + " | ".join(row) + " |" for row in rows)]


def profile_section(peer: Peer, files: list[str], title: str) -> list[str]:
    """A cProfile run of ``peer`` on ``files`` (a separate run: profiling slows it down)."""
    outcome = run_peer(peer.with_env(BENCH_PROFILE="1"), files)
    return ["", f"Where goblin's time goes ({title}; cProfile, top functions by own time):", "",
            "```", outcome.profile, "```"]
