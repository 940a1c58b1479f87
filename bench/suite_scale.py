"""Scale: a batch of documents with 1 and 2 local workers, and on a Dask LocalCluster."""

from __future__ import annotations

import os
import sys

import workloads
from runner import GOBLIN, Peer, profile_section, run_peer, table

PEER = Peer("goblin", "scale_goblin.py", GOBLIN)
#: goblin's target: 2 local workers at least this many times faster than 1, on 2 cores.
TARGET = 1.7


def run(repeat: int, quick: bool) -> str:
    del repeat  # a batch is timed once, as a whole
    count = 200 if quick else 1000
    files = workloads.sized(workloads.documents(), count)
    megabytes = sum(os.path.getsize(f) for f in files) / 1e6
    print(f"scale: {len(files)} documents, {megabytes:.0f} MB", file=sys.stderr)
    runs = [("executor.local", 1), ("executor.local", 2), ("executor.dask", 2)]
    outcomes = [run_peer(PEER.with_env(BENCH_EXECUTOR=e, BENCH_JOBS=str(j)), files)
                for e, j in runs]
    one, two, dask = outcomes
    rows = [[o.peer, f"{o.seconds:.1f}", f"{len(files) / o.seconds:.1f}",
             f"{o.pages / o.seconds:.1f}", str(o.pages), str(o.errors),
             f"{one.seconds / o.seconds:.2f}x"] for o in outcomes]
    speedup = one.seconds / two.seconds
    overhead_ms = 1000 * (dask.seconds - two.seconds) / len(files)
    lines = [f"### Scale ({len(files)} documents: the corpus outside tricky/ repeated in order, "
             f"{megabytes:.0f} MB; OCR off; {os.cpu_count()} cores)", ""]
    lines += table(["run", "seconds", "docs/s", "pages/s", "pages", "errors", "speed-up vs jobs=1"],
                   rows)
    verdict = "met" if speedup >= TARGET else "MISSED"
    lines += ["", f"- local jobs=2 vs jobs=1: {speedup:.2f}x (target >= {TARGET}x): {verdict}",
              f"- Dask LocalCluster (2 workers) overhead vs local jobs=2: {overhead_ms:.1f} ms per "
              "document, cluster start-up included"]
    if speedup < TARGET:
        # Worker processes are out of the parent's profile: profile the per-document work
        # in process instead, on each distinct document once.
        distinct = sorted(set(files))
        lines += profile_section(Peer("goblin", "office_goblin.py", GOBLIN), distinct,
                                 f"goblin.extract in process on the {len(distinct)} distinct "
                                 "documents")
    return "\n".join(lines)
