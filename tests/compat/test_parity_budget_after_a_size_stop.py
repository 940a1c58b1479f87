"""An ExtractionBudget the total size limit stopped stays stopped, as in GoblinTools
0.13.4: ``exhausted`` is set, and the next archive of the same tree admits nothing."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

from test_from_bytes import zip_bytes

import goblin_core.compat as compat
from goblin_core.registry import Registry

#: Incompressible members, so only the total size limit can stop them.
LOTE = {name: random.Random(seed).randbytes(3000)
        for seed, name in enumerate(["a.bin", "b.bin", "c.bin"])}


def budget_after(module: Any, tmp_path: Path, out: str) -> tuple[bool, int, list[str], bool]:
    archive = tmp_path / f"{out}.zip"
    archive.write_bytes(zip_bytes(LOTE))
    budget = module.ExtractionBudget(module.ArchiveLimits(max_total_bytes=7000))
    assert module.ArchiveHandler.extract(str(archive), str(tmp_path / out),
                                         remove_source=False, budget=budget)
    second = tmp_path / f"{out}-segundo.zip"
    shutil.copy(archive, second)
    module.ArchiveHandler.extract(str(second), str(tmp_path / f"{out}-2"),
                                  remove_source=False, budget=budget)
    written = sorted(p.name for p in (tmp_path / f"{out}-2").glob("*")) \
        if (tmp_path / f"{out}-2").exists() else []
    return budget.exhausted, budget.members, written, bool(budget.skipped)


def test_the_total_size_limit_exhausts_the_budget(zip_registry: Registry,
                                                  tmp_path: Path) -> None:
    exhausted, members, written_after, skipped = budget_after(compat, tmp_path, "ours")
    assert exhausted and skipped
    assert members == 2
    assert written_after == []


def test_same_budget_as_goblintools_after_a_size_stop(goblintools: Any, zip_registry: Registry,
                                                      tmp_path: Path) -> None:
    assert budget_after(compat, tmp_path, "ours") == budget_after(goblintools, tmp_path,
                                                                   "theirs")
