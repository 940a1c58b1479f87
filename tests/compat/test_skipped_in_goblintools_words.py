"""What an archive limit leaves out is listed once in ``skipped``, and the limits
GoblinTools 0.13.4 has (nesting depth, a member's size, the total size) in its words,
side by side with GoblinTools."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from test_from_bytes import zip_bytes

import goblin_core.compat as compat
from goblin_core.registry import Registry


def incompressible(size: int, seed: int) -> bytes:
    """Bytes that do not compress, so only the total size limit can stop them."""
    import random

    return random.Random(seed).randbytes(size)


LOTE = {"a.txt": incompressible(3000, 1), "b.txt": incompressible(3000, 2),
        "c.txt": incompressible(3000, 3)}


def config(module: Any, **limits: int) -> Any:
    return module.GoblinConfig(archive_limits=module.ArchiveLimits(**limits))


def test_an_archive_nested_too_deep_in_bytes(goblintools: Any, zip_registry: Registry) -> None:
    data = zip_bytes({"pasta/interno.zip": zip_bytes({"fundo.txt": "profundo"}),
                      "topo.txt": "topo"})
    ours = compat.extract_from_bytes(data, "lote.zip", config=config(compat, max_depth=1))
    theirs = goblintools.extract_from_bytes(data, "lote.zip",
                                            config=config(goblintools, max_depth=1))
    assert ours.skipped == theirs.skipped == [
        "interno.zip: nesting deeper than 1 archive levels; not extracted"]


@pytest.mark.parametrize("limit", [{"max_total_bytes": 7000}, {"max_member_bytes": 1000}])
def test_a_size_limit_in_bytes(goblintools: Any, zip_registry: Registry,
                               limit: dict[str, int]) -> None:
    data = zip_bytes(LOTE)
    ours = compat.extract_from_bytes(data, "lote.zip", config=config(compat, **limit))
    theirs = goblintools.extract_from_bytes(data, "lote.zip",
                                            config=config(goblintools, **limit))
    assert ours.skipped == theirs.skipped and ours.skipped


@pytest.mark.parametrize("limit", [{"max_total_bytes": 7000}, {"max_member_bytes": 1000}])
def test_a_size_limit_in_archive_handler(goblintools: Any, zip_registry: Registry,
                                         tmp_path: Path, limit: dict[str, int]) -> None:
    archive = tmp_path / "lote.zip"
    archive.write_bytes(zip_bytes(LOTE))

    def skipped(module: Any, out: str) -> list[str]:
        copy = tmp_path / f"{out}.zip"
        shutil.copy(archive, copy)
        budget = module.ExtractionBudget(module.ArchiveLimits(**limit))
        assert module.ArchiveHandler.extract(str(copy), str(tmp_path / out),
                                             remove_source=False, budget=budget)
        return list(budget.skipped)

    ours, theirs = skipped(compat, "ours"), skipped(goblintools, "theirs")
    assert ours == theirs
    assert len(ours) == len({line.split(":")[0] for line in ours})
