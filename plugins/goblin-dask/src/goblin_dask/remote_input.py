"""Reading a task's document where the worker runs: local paths or fsspec URLs."""

from __future__ import annotations

import re
from dataclasses import replace

import fsspec

from goblin_core.engines import Task

_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")


def is_url(path: str | None) -> bool:
    """True for ``s3://bucket/key``, ``https://...``, ``file:///...``; False for plain paths."""
    return bool(path and _URL.match(path))


def materialise(task: Task, max_bytes: int) -> Task:
    """A task whose URL has been read into bytes on this worker (plain paths pass through).

    Reads at most ``max_bytes`` + 1 so an oversized remote file is refused by
    the pipeline's size check instead of filling the worker's memory.
    """
    if not is_url(task.path):
        return task
    assert task.path is not None
    with fsspec.open(task.path, "rb") as stream:
        data = stream.read(max_bytes + 1 if max_bytes else -1)
    return replace(task, path=None, data=data)
