"""Page ranges: the pipeline keeps only its range; the executor splits huge documents and merges."""

from __future__ import annotations

from pathlib import Path

import pytest

from goblin_core import default_registry, extract
from goblin_core.engines import Task
from goblin_core.errors import ConfigError
from goblin_core.executors.page_ranges import parse_page_range, split_ranges


def test_page_ranges_parse_and_split() -> None:
    assert parse_page_range("") is None
    assert parse_page_range("101-200") == (101, 200)
    assert parse_page_range("7") == (7, 7)
    for bad in ("0-3", "5-2", "a-b"):
        with pytest.raises(ConfigError, match="page_range"):
            parse_page_range(bad)
    assert split_ranges(10, 3) == ["1-4", "5-7", "8-10"]
    assert split_ranges(2, 5) == ["1-1", "2-2"]


def _paged_text(path: Path, pages: int) -> Path:
    # Form feeds split plain text into pages: a multi-page document with no plugin.
    path.write_text("\f".join(f"page {n}: clause {n * 3}" for n in range(1, pages + 1)),
                    encoding="utf-8")
    return path


def test_any_parser_gets_the_range_from_the_pipeline(tmp_path: Path) -> None:
    text = _paged_text(tmp_path / "paged.txt", 10)
    part = extract(text, goblin={"page_range": "4-6"})
    assert [p.number for p in part.pages] == [4, 5, 6]
    assert part.text.startswith("page 4: clause 12")


def test_the_local_executor_splits_and_merges_a_long_text(tmp_path: Path) -> None:
    text = _paged_text(tmp_path / "paged.txt", 40)
    whole = extract(text)
    registry = default_registry()
    config = registry.config(goblin={"split_pages": 10})
    executor = registry.get("executor.local").engine
    [result] = list(executor.run([Task(path=str(text), display_name="paged.txt")], config,
                                 jobs=2))
    assert result.document.text == whole.text
    assert [p.number for p in result.document.pages] == list(range(1, 41))
    assert result.document.report.errors == whole.report.errors


def test_a_format_outside_split_formats_reads_its_rest_as_one_range(tmp_path: Path) -> None:
    from goblin_core.engines import TaskResult
    from goblin_core.executors.page_ranges import PageSplitter
    from goblin_core.executors.worker import extract_task

    text = _paged_text(tmp_path / "paged.txt", 40)
    task = Task(path=str(text), display_name="paged.txt")
    for formats, ranges in (([], ["11-40"]), (["text/plain"], ["11-25", "26-40"])):
        settings = default_registry().config(goblin={"split_formats": formats}).to_dict()
        splitter = PageSplitter(settings, split_above=10, workers=2)
        first = splitter.prepare(task, idle=1)
        more, ready = splitter.finished(TaskResult(first, extract_task(first, settings)))
        assert ready is None
        assert [t.options["goblin"]["page_range"] for t in more] == ranges
        parts = [splitter.finished(TaskResult(t, extract_task(t, settings))) for t in more]
        merged = parts[-1][1]
        assert merged is not None and merged.document.text == extract(text).text
        # a range is never cut again, even with a worker idle
        assert all(splitter.prepare(t, idle=1) is t for t in more)
