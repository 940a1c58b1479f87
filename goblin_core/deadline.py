"""The time the document being extracted has left under ``limits.timeout``.

The core checks the limit between pages, members and engines, but one call into an
engine (an OCR backend reading a page, a recovery engine running a binary) can outlast
it by its own time budget. Such an engine asks :func:`time_left` and stops its work
when the document's time is up, whichever comes first.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("goblin_document_deadline", default=None)


def time_left() -> float | None:
    """Seconds until the current document's ``limits.timeout`` (0.0 once it has passed);
    ``None`` outside an extraction, where only an engine's own limits apply.

    >>> time_left() is None
    True
    >>> with document_deadline(time.monotonic() + 60):
    ...     0 < time_left() <= 60
    True
    """
    deadline = _DEADLINE.get()
    if deadline is None:
        return None
    return max(deadline - time.monotonic(), 0.0)


@contextmanager
def document_deadline(deadline: float) -> Iterator[None]:
    """Within the block, :func:`time_left` counts down to ``deadline`` (``time.monotonic()``)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def within_document(seconds: float) -> float:
    """``seconds``, or less when the current document has less time left: the
    time a helper binary or a single engine call may take.

    >>> within_document(300.0)
    300.0
    >>> with document_deadline(time.monotonic() + 60):
    ...     within_document(300.0) <= 60
    True
    """
    left = time_left()
    return seconds if left is None else min(seconds, left)
