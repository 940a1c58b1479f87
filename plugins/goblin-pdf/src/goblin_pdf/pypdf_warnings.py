"""pypdf's warnings while goblin reads a damaged file with it.

pypdf logs what it works around ("EOF marker not found", "Ignoring wrong pointing
object") without the file's name, and an application that has not configured
logging gets each line on standard error. What matters reaches the document's
report (the engine's error, the page's status), so the ``pypdf`` logger is held
at ERROR while goblin calls it. The hold counts its holders: several threads
reading PDFs never leave the logger held, or release it early.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator

_LOGGER = logging.getLogger("pypdf")
_LOCK = threading.Lock()
_holders = 0
_level_before = logging.NOTSET


@contextlib.contextmanager
def pypdf_warnings_held() -> Iterator[None]:
    """pypdf's warnings dropped for the block; its errors still logged."""
    global _holders, _level_before
    with _LOCK:
        if _holders == 0:
            _level_before = _LOGGER.level
            _LOGGER.setLevel(logging.ERROR)
        _holders += 1
    try:
        yield
    finally:
        with _LOCK:
            _holders -= 1
            if _holders == 0:
                _LOGGER.setLevel(_level_before)
