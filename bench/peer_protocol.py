"""The protocol every benchmark peer script follows, shared by all of them.

A peer script runs in its own virtual environment. It reads a JSON job from
the file named by its first argument — ``{"files": [...], "repeat": 1,
"options": {...}, "scratch": DIR}`` — and writes a JSON result to the
second: one row per file with pages, words, seconds, the text (so the
runner can score phrase recall) and any extra counts, plus the peer's name
and version. Only extraction is timed: interpreter start-up and imports are
not, and the first file is run once untimed to warm caches.

``run_peer`` times each file on its own (the best of ``repeat`` runs);
``run_batch`` times a whole batch handed to the peer at once (worker pools,
clusters), once, and reports the batch's wall time as ``total_seconds``.

With ``BENCH_PROFILE`` set, the timed part runs under cProfile and the
result carries the top functions by own time (``profile``): the suites ask
for it, in a separate run, when goblin misses a target.
"""

from __future__ import annotations

import cProfile
import io
import json
import logging
import os
import pstats
import signal
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

#: ``extract(path)`` returns (pages, text) or (pages, text, extra counts).
# Peers' own warnings (font fallbacks, broken xref tables) are not results.
logging.disable(logging.WARNING)
warnings.simplefilter("ignore")

Extract = Callable[[str], tuple[Any, ...]]
#: ``batch(files)`` yields (file, pages, text, extra counts, error) as each one finishes.
Batch = Callable[[list[str]], Iterable[tuple[str, int, str, dict[str, float], str]]]


def job() -> dict[str, Any]:
    """The job this script was started with."""
    with open(sys.argv[1], encoding="utf-8") as handle:
        return dict(json.load(handle))


def options() -> dict[str, Any]:
    return dict(job().get("options", {}))


def run_peer(name: str, version: str, extract: Extract) -> None:
    """Time ``extract(path)`` on every file of the job."""
    spec = job()
    files: list[str] = spec["files"]
    repeat = int(spec.get("repeat", 1))
    keep_text = bool(spec.get("keep_text", True))
    if files:
        _safe(extract, files[0])
    rows: list[dict[str, Any]] = []
    profiler = _profiler()
    for path in files:
        best = float("inf")
        result: tuple[int, str, dict[str, float], str] = (0, "", {}, "")
        for _ in range(repeat):
            started = time.perf_counter()
            result = _safe(extract, path)
            best = min(best, time.perf_counter() - started)
        rows.append(_row(path, *result, seconds=best, keep_text=keep_text))
    _write(name, version, rows, None, _report(profiler))


def run_batch(name: str, version: str, batch: Batch) -> None:
    """Time ``batch(files)`` as a whole, once."""
    spec = job()
    keep_text = bool(spec.get("keep_text", True))
    profiler = _profiler()
    started = time.perf_counter()
    rows = [_row(path, pages, text, extra, error, seconds=0.0, keep_text=keep_text)
            for path, pages, text, extra, error in batch(spec["files"])]
    total = time.perf_counter() - started
    _write(name, version, rows, total, _report(profiler))


def _row(path: str, pages: int, text: str, extra: dict[str, float], error: str, *,
         seconds: float, keep_text: bool) -> dict[str, Any]:
    # Some extractors return lone surrogates from broken font maps; JSON cannot carry them.
    text = text.encode("utf-8", "replace").decode("utf-8")
    return {"file": path, "pages": pages, "words": len(text.split()), "seconds": seconds,
            "error": error, "text": text if keep_text else "", "extra": extra}


def _write(name: str, version: str, rows: list[dict[str, Any]], total: float | None,
           profile: str) -> None:
    with open(sys.argv[2], "w", encoding="utf-8") as handle:
        json.dump({"peer": name, "version": version, "rows": rows, "total_seconds": total,
                   "profile": profile}, handle, ensure_ascii=False)


def _profiler() -> cProfile.Profile | None:
    if not os.environ.get("BENCH_PROFILE"):
        return None
    profiler = cProfile.Profile()
    profiler.enable()
    return profiler


def _report(profiler: cProfile.Profile | None, top: int = 15) -> str:
    if profiler is None:
        return ""
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    # Keep the column header and the rows; pstats' preamble says nothing useful here.
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    return "\n".join(lines[start:])


class FileTimeout(Exception):
    """A peer spent longer than BENCH_FILE_TIMEOUT seconds on one file."""


def _alarm(signum: int, frame: Any) -> None:
    raise FileTimeout(f"over {os.environ.get('BENCH_FILE_TIMEOUT', '120')} s on one file")


def _safe(extract: Extract, path: str) -> tuple[int, str, dict[str, float], str]:
    # A peer stuck on one hostile file must not stall the whole suite: the file
    # becomes an error row (Python-level work is interrupted; a C call finishes first).
    limit = float(os.environ.get("BENCH_FILE_TIMEOUT", "120"))
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        result = extract(path)
    except Exception as exc:  # a peer failing on one file is a result, not a crash
        return 0, "", {}, f"{type(exc).__name__}: {exc}"[:300]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    extra = result[2] if len(result) > 2 else {}
    return int(result[0]), str(result[1]), dict(extra), ""
