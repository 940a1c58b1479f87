"""Time and memory bounds the hostile-input tests hold a reading to."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bounded(seconds: float = 10.0, megabytes: int = 200) -> Iterator[None]:
    """Fail when the block takes longer or allocates more (Python heap) than given."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        yield
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert time.monotonic() - started < seconds
    assert peak < megabytes * 1024**2
