"""The protocol every benchmark peer script follows, shared by all of them.

A peer script runs in its own virtual environment. It reads a JSON job from
the file named by its first argument — ``{"files": [...], "repeat": 1}`` —
and writes a JSON result to the second: one row per file with pages, words,
seconds and the text (so the runner can score phrase recall), plus the
peer's name and version. Only extraction is timed: interpreter start-up and
imports are not, and the first file is run once untimed to warm caches.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

Extract = Callable[[str], tuple[int, str]]


def run_peer(name: str, version: str, extract: Extract) -> None:
    """Time ``extract(path) -> (pages, text)`` on every file of the job."""
    job_path, out_path = sys.argv[1], sys.argv[2]
    with open(job_path, encoding="utf-8") as handle:
        job = json.load(handle)
    files: list[str] = job["files"]
    repeat = int(job.get("repeat", 1))
    keep_text = bool(job.get("keep_text", True))
    if files:
        _safe(extract, files[0])
    rows: list[dict[str, Any]] = []
    for path in files:
        best = float("inf")
        pages, text, error = 0, "", ""
        for _ in range(repeat):
            started = time.perf_counter()
            pages, text, error = _safe(extract, path)
            best = min(best, time.perf_counter() - started)
        rows.append({"file": path, "pages": pages, "words": len(text.split()), "seconds": best,
                     "error": error, "text": text if keep_text else ""})
    with open(out_path, "w", encoding="utf-8") as handle:
        json.dump({"peer": name, "version": version, "rows": rows}, handle, ensure_ascii=False)


def _safe(extract: Extract, path: str) -> tuple[int, str, str]:
    try:
        pages, text = extract(path)
    except Exception as exc:  # a peer failing on one file is a result, not a crash
        return 0, "", f"{type(exc).__name__}: {exc}"[:300]
    return pages, text, ""
