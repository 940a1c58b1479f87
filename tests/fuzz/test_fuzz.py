"""The fuzz session (``nox -s fuzz``): hypothesis-driven mutation of seed files per family.

Run longer with ``GOBLIN_FUZZ_EXAMPLES=20000 nox -s fuzz`` (examples per
family); ``GOBLIN_FUZZ_FAMILIES=pdf,archives`` picks families. Each finding is
saved to tests/fuzz/regressions/ (its seed and the splices that make it) before the
test fails, and replayed by tests/integration/test_fuzz_regressions.py from then on.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goblin_core.engines import Task
from goblin_core.executors.local import SupervisedWorkers
from goblin_core.registry import default_registry
from goblin_core.testing.corpus import find_corpus

from mutation import (
    FAMILIES,
    HERE,
    Finding,
    Splice,
    apply_splices,
    findings,
    mutant_name,
    save_regression,
    seed_files,
    seed_reference,
)

EXAMPLES = int(os.environ.get("GOBLIN_FUZZ_EXAMPLES", "150"))
CHOSEN = [f for f in os.environ.get("GOBLIN_FUZZ_FAMILIES", ",".join(FAMILIES)).split(",") if f]
STATS: dict[str, dict[str, float]] = {}

INTERESTING = [
    b"\x00",
    b"\xff",
    b"\xff\xff\xff\xff",
    b"\x7f",
    b"999999999999",
    b"-1",
    b"0",
    b"%%EOF",
    b"endobj",
    b"obj",
    b"<<",
    b">>",
    b"PK\x03\x04",
    b"\x00" * 16,
]


@pytest.fixture(scope="module")
def pool() -> Iterator[SupervisedWorkers]:
    registry = default_registry()
    config = registry.config(ocr="never", timeout=10, max_memory="768MB")
    workers = SupervisedWorkers(config, size=1)
    yield workers
    workers.close()
    (HERE / "last-run.json").write_text(json.dumps(STATS, indent=2) + "\n")


@st.composite
def mutants(draw: st.DrawFn,
            seeds: list[tuple[str, bytes]]) -> tuple[str, bytes, list[Splice]]:
    """A seed's reference, and the splices (one to four) that make a mutant of it."""
    name, data = draw(st.sampled_from(seeds))
    size = len(data)
    splices: list[Splice] = []
    for _ in range(draw(st.integers(1, 4))):
        if not size:
            splices.append(Splice(0, 0, draw(st.binary(min_size=1, max_size=64))))
            size = len(splices[-1].insert)
            continue
        at = draw(st.integers(0, size - 1))
        operation = draw(
            st.sampled_from(["flip", "overwrite", "truncate", "duplicate", "insert", "delete"])
        )
        if operation == "flip":
            bit = 1 << draw(st.integers(0, 7))
            current = apply_splices(data, splices)[at]
            splice = Splice(at, 1, bytes([current ^ bit]))
        elif operation == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=32))
            splice = Splice(at, min(len(chunk), size - at), chunk)
        elif operation == "truncate":
            splice = Splice(at, size - at, b"")
        elif operation == "duplicate":
            end = min(size, at + draw(st.integers(1, 4096)))
            splice = Splice(at, 0, apply_splices(data, splices)[at:end])
        elif operation == "insert":
            splice = Splice(at, 0, draw(st.sampled_from(INTERESTING)))
        else:
            splice = Splice(at, min(draw(st.integers(1, 256)), size - at), b"")
        splices.append(splice)
        size += len(splice.insert) - splice.remove
    return name, data, splices


@pytest.mark.parametrize("family", CHOSEN)
def test_mutants_never_crash_hang_or_break_the_contract(
    family: str, pool: SupervisedWorkers
) -> None:
    corpus = find_corpus(__file__)
    seeds = [(seed_reference(p, corpus), p.read_bytes()) for p in seed_files(family, corpus)]
    assert seeds, f"no seeds for {family}"
    stats = STATS.setdefault(
        family, {"executions": 0, "findings": 0, "seconds": 0.0, "seeds": len(seeds)}
    )
    started = time.monotonic()
    # Hypothesis replays the smallest failing mutant last: only that one is kept.
    last: list[tuple[str, bytes, list[Splice], list[Finding]]] = []

    @settings(
        max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(mutants(seeds))
    def run(mutant: tuple[str, bytes, list[Splice]]) -> None:
        seed, seed_data, splices = mutant
        data = apply_splices(seed_data, splices)
        stats["executions"] += 1
        name = mutant_name(family, seed, data)
        document = pool.run_one(Task(path=None, display_name=name, data=data)).document
        found = findings(document)
        if found:
            last[:] = [(seed, seed_data, splices, found)]
            raise AssertionError([(f.kind, f.message[:200]) for f in found])

    try:
        run()
    except AssertionError:
        if last:
            stats["findings"] += 1
            save_regression(family, *last[0])
        raise
    finally:
        stats["seconds"] = round(stats["seconds"] + time.monotonic() - started, 1)


def test_regressions_folder_is_documented() -> None:
    assert (Path(HERE) / "README.md").is_file()
