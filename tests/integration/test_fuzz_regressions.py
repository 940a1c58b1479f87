"""Every file the fuzzer ever kept is replayed: none may crash, hang or break the contract."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from goblin_core.engines import Task
from goblin_core.executors.local import SupervisedWorkers
from goblin_core.registry import default_registry
from goblin_core.testing.corpus import corpus_dir, require_binary

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
sys.path.insert(0, str(FUZZ))

from mutation import (  # noqa: E402
    SEEDS,
    Finding,
    Splice,
    apply_splices,
    findings,
    regression_files,
    regression_mutant,
    save_regression,
    seed_reference,
)


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
    require_binary("gs", "ghostscript")  # seed.ps runs through Ghostscript
    require_binary("djvutxt", "djvulibre-bin")  # seed.djvu through DjVuLibre
    require_binary("wpd2text", "libwpd-tools")  # seed.wpd through libwpd
    for seed in seeds:
        document = pool.run_one(Task(path=str(seed), display_name=seed.name)).document
        assert findings(document) == [], seed.name
        assert document.status != "failed", (seed.name, document.report.errors)


def test_every_fuzz_regression_stays_fixed(pool: SupervisedWorkers) -> None:
    """Each mutant the fuzzer kept, rebuilt from its seed (a shared-corpus file read in
    place, or a committed seed), must now extract cleanly."""
    kept = regression_files()
    assert kept
    corpus = corpus_dir(__file__)
    failures = {}
    for path in kept:
        name, data = regression_mutant(path, corpus)
        document = pool.run_one(Task(path=None, display_name=name, data=data)).document
        found = findings(document)
        if found:
            failures[name] = found
    assert failures == {}


def test_a_kept_regression_is_its_seed_and_splices_not_a_copy(tmp_path: Path) -> None:
    seed = SEEDS / "seed.pdf"
    seed_data = seed.read_bytes()
    splices = [Splice(10, 1, b"\xff"), Splice(0, 0, b"%%EOF"), Splice(len(seed_data), 0, b"x"),
               Splice(200, 50, b"")]
    kept = save_regression("pdf", seed_reference(seed, None), seed_data, splices,
                           [Finding("KeyError", "a finding")], folder=tmp_path)
    record = kept.read_text()
    assert seed_data[20:120].hex() not in record and "seed.pdf" in record
    name, data = regression_mutant(kept, None)
    assert data == apply_splices(seed_data, splices) != seed_data
    assert name == kept.name.removesuffix(".json") and name.startswith("pdf-")
