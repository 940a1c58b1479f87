"""``jobs``: checked when extract_many is called, and never more workers than work."""

from __future__ import annotations

import logging
from pathlib import Path

import psutil
import pytest

from goblin_core import ConfigError, extract_many


@pytest.fixture(autouse=True)
def _light_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "example-note")


def _workers_running() -> int:
    return len(psutil.Process().children())


@pytest.mark.parametrize("jobs", [0, -1, "2", 2.0, True])
def test_a_bad_jobs_value_is_a_config_error_naming_it_at_call_time(jobs: object) -> None:
    with pytest.raises(ConfigError, match="jobs"):
        extract_many(["nothing-is-read.txt"], jobs=jobs)  # type: ignore[arg-type]


def test_bad_options_raise_when_called_not_at_the_first_document() -> None:
    with pytest.raises(ConfigError, match="foo"):
        extract_many(["nothing-is-read.txt"], foo=1)
    with pytest.raises(ConfigError, match=r"executor\.nope"):
        extract_many(["nothing-is-read.txt"], executor="executor.nope")


def test_one_small_file_starts_one_worker_even_with_pages_to_split(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one small file", encoding="utf-8")
    seen = []
    for document in extract_many([tmp_path], jobs=4, goblin={"split_pages": 10}):
        seen.append((document.text, _workers_running()))
    assert seen == [("one small file", 1)]


def test_a_huge_jobs_value_starts_one_worker_per_document_and_says_it_is_capped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(f"text of {name}", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="goblin_core.executors.local"):
        running = [_workers_running() for _ in extract_many([tmp_path], jobs=10**6)]
    assert max(running) <= 2
    assert "jobs=1000000 is more than 8 workers per CPU" in caplog.text
