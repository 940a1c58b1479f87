"""``configure(suppress_warnings=...)``: GoblinTools' switch for goblin's own warnings.

GoblinTools keeps one process-wide setting. goblin implements it with the
level of the ``goblin_core`` logger: every goblin logger inherits it, errors
still pass, and third-party loggers are never touched.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

LIBRARY_LOGGER = "goblin_core"


@dataclass
class _Policy:
    """The level the ``goblin_core`` logger had before warnings were suppressed."""

    saved_level: int | None = None


_POLICY = _Policy()


def set_suppress_warnings(suppress: bool) -> None:
    """Hide (True) or show again (False) goblin's warning log lines for the process."""
    logger = logging.getLogger(LIBRARY_LOGGER)
    if suppress and _POLICY.saved_level is None:
        _POLICY.saved_level = logger.level
        logger.setLevel(logging.ERROR)
    elif not suppress and _POLICY.saved_level is not None:
        logger.setLevel(_POLICY.saved_level)
        _POLICY.saved_level = None


def warnings_suppressed() -> bool:
    return _POLICY.saved_level is not None


def configure(*, suppress_warnings: bool | None = None) -> None:
    """Process-wide setup, as in GoblinTools: ``configure(suppress_warnings=True)``
    hides goblin's warning logs; None leaves the setting as it is."""
    if suppress_warnings is not None:
        set_suppress_warnings(suppress_warnings)
