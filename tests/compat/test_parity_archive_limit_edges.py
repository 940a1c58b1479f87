"""ArchiveLimits at their edges give GoblinTools 0.13.4's answers: a ``max_depth`` of 0
or less still opens the top-level archive (``extract_from_bytes`` raised ConfigError),
a member cap already reached is a limit, not a failure, and an archive whose every
member a size limit refused adds no report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_from_bytes import zip_bytes

import goblin_core.compat as compat
from goblin_core.registry import Registry

LOTE = {"a.txt": "primeiro", "pasta/b.txt": "segundo",
        "interno.zip": zip_bytes({"c.txt": "terceiro"})}


def limited(module: Any, **limits: int) -> Any:
    return module.GoblinConfig(archive_limits=module.ArchiveLimits(**limits))


@pytest.mark.parametrize("depth", [0, -1])
def test_a_depth_of_zero_or_less_still_opens_the_top_archive(zip_registry: Registry,
                                                             depth: int) -> None:
    result = compat.extract_from_bytes(zip_bytes(LOTE), "lote.zip",
                                       config=limited(compat, max_depth=depth))
    assert result.text == ('file_path_pwd:"a.txt"\nprimeiro\n\n'
                           'file_path_pwd:"pasta/b.txt"\nsegundo')
    assert result.skipped == [
        f"interno.zip: nesting deeper than {depth} archive levels; not extracted"]


@pytest.mark.parametrize("depth", [0, -1])
def test_same_text_as_goblintools_at_a_depth_of_zero_or_less(
        goblintools: Any, zip_registry: Registry, depth: int) -> None:
    def read(module: Any) -> tuple[str, list[str]]:
        result = module.extract_from_bytes(zip_bytes(LOTE), "lote.zip",
                                           config=limited(module, max_depth=depth))
        return result.text, result.skipped

    assert read(compat) == read(goblintools)


@pytest.mark.parametrize("cap", [0, -1])
def test_a_member_cap_already_reached_is_a_limit_not_a_failure(
        zip_registry: Registry, tmp_path: Path, cap: int) -> None:
    archive = tmp_path / "lote.zip"
    archive.write_bytes(zip_bytes(LOTE))
    for extract in (compat.ArchiveHandler.extract, compat.FileManager.extract_files_recursive):
        budget = compat.ExtractionBudget(compat.ArchiveLimits(max_members=cap))
        assert extract(str(archive), str(tmp_path / "out"), budget=budget) is True
        assert budget.exhausted and budget.skipped and budget.members == 0
        assert not (tmp_path / "out").exists()
        assert archive.exists()  # nothing was read from it: it is kept


@pytest.mark.parametrize("limit", [{"max_member_bytes": 0}, {"max_total_bytes": 0}])
def test_an_archive_a_size_limit_empties_adds_no_report(zip_registry: Registry,
                                                        limit: dict[str, int]) -> None:
    result = compat.extract_from_bytes(zip_bytes(LOTE), "lote.zip",
                                       config=limited(compat, **limit))
    assert result.text == ""
    assert result.reports == {}
    assert result.overall_status == "clean"
    assert result.skipped


@pytest.mark.parametrize("limit", [{"max_member_bytes": 0}, {"max_total_bytes": 0}])
def test_same_reports_as_goblintools_when_a_size_limit_empties_an_archive(
        goblintools: Any, zip_registry: Registry, limit: dict[str, int]) -> None:
    def read(module: Any) -> tuple[str, list[str], list[str], str]:
        result = module.extract_from_bytes(zip_bytes(LOTE), "lote.zip",
                                           config=limited(module, **limit))
        return result.text, sorted(result.reports), result.skipped, result.overall_status

    assert read(compat) == read(goblintools)


@pytest.mark.parametrize("limit", [{"max_depth": -1}, {"max_member_bytes": -1},
                                   {"max_total_bytes": -1}, {"max_members": -1}])
def test_negative_limits_do_not_stop_a_file_that_is_no_archive(
        tmp_path: Path, limit: dict[str, int]) -> None:
    # goblin's own config refuses a negative limit; GoblinTools only compares with it
    path = tmp_path / "nota.txt"
    path.write_text("Valor global", encoding="utf-8")
    extractor = compat.TextExtractor(config=limited(compat, **limit))
    assert extractor.extract_from_file(str(path), display_path="nota.txt") == (
        'file_path_pwd:"nota.txt"\nValor global')


@pytest.mark.parametrize("limit", [{"max_member_bytes": -1}, {"max_total_bytes": -1}])
def test_a_negative_size_limit_refuses_every_member_as_goblintools_does(
        goblintools: Any, zip_registry: Registry, limit: dict[str, int]) -> None:
    def read(module: Any) -> tuple[str, list[str], list[str]]:
        result = module.extract_from_bytes(zip_bytes(LOTE), "lote.zip",
                                           config=limited(module, **limit))
        return result.text, sorted(result.reports), result.skipped

    assert read(compat) == read(goblintools)
