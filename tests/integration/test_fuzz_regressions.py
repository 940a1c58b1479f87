"""Every file the fuzzer ever kept is replayed: none may crash, hang or break the contract."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from goblin_core.engines import Task
from goblin_core.executors.local import SupervisedWorkers
from goblin_core.registry import default_registry

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
sys.path.insert(0, str(FUZZ))

from mutation import findings, regression_files  # noqa: E402


@pytest.fixture(scope="module")
def pool() -> Iterator[SupervisedWorkers]:
    config = default_registry().config(ocr="never", timeout=10, max_memory="768MB")
    workers = SupervisedWorkers(config, size=1)
    yield workers
    workers.close()


def test_fuzz_seeds_are_replayed_cleanly(pool: SupervisedWorkers) -> None:
    """The committed seeds themselves extract without findings (the replay machinery works)."""
    seeds = sorted((FUZZ / "corpus").iterdir())
    assert len(seeds) >= 10
    for seed in seeds:
        document = pool.run_one(Task(path=str(seed), display_name=seed.name)).document
        assert findings(document) == [], seed.name
        assert document.status != "failed", (seed.name, document.report.errors)


def test_every_fuzz_regression_stays_fixed(pool: SupervisedWorkers) -> None:
    """Each file the fuzzer kept (none yet: no finding so far) must now extract cleanly."""
    failures = {}
    for path in regression_files():
        document = pool.run_one(Task(path=str(path), display_name=path.name)).document
        found = findings(document)
        if found:
            failures[path.name] = found
    assert failures == {}
