"""Holding a library's logger quiet while goblin calls it.

Libraries log what they work around in a damaged file (pypdf's "EOF marker not
found", extract-msg's error before it raises) without the file's name, and an
application that has not configured logging gets each line on standard error.
What matters reaches the document's report, so such a logger is raised to a
quieter level for the call. The hold counts its holders: threads reading at once
never leave the logger held, nor release it early.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator


class HeldLogger:
    """A library's logger, held at ``level`` inside ``held()`` blocks.

    >>> hold = HeldLogger("goblin.doctest.library", logging.ERROR)
    >>> with hold.held():
    ...     logging.getLogger("goblin.doctest.library").level == logging.ERROR
    True
    >>> logging.getLogger("goblin.doctest.library").level == logging.NOTSET
    True
    """

    def __init__(self, name: str, level: int) -> None:
        self.logger = logging.getLogger(name)
        self.level = level
        self._lock = threading.Lock()
        self._holders = 0
        self._level_before = logging.NOTSET

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The logger at ``level`` for the block, its own level restored after the last."""
        with self._lock:
            if self._holders == 0:
                self._level_before = self.logger.level
                self.logger.setLevel(self.level)
            self._holders += 1
        try:
            yield
        finally:
            with self._lock:
                self._holders -= 1
                if self._holders == 0:
                    self.logger.setLevel(self._level_before)
