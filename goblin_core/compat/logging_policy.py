"""``configure(suppress_warnings=...)``: GoblinTools' switch for goblin's own warnings,
and the logger names the facade logs under.

The facade logs what GoblinTools logged under GoblinTools' own logger names
(``goblintools.parser``, ``goblintools.file_handling``...), so a logging
configuration written for GoblinTools keeps applying; goblin's pipeline logs
under ``goblin_core``. GoblinTools keeps one process-wide setting; goblin
implements it with the level of both loggers: every logger under them inherits
it, errors still pass, and third-party loggers are never touched.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

LIBRARY_LOGGER = "goblin_core"
#: The parent of the loggers the facade logs under, as GoblinTools named them.
GOBLINTOOLS_LOGGER = "goblintools"


def goblintools_logger(module: str) -> logging.Logger:
    """The logger GoblinTools' ``module`` (``parser``, ``file_handling``...) logged under."""
    return logging.getLogger(f"{GOBLINTOOLS_LOGGER}.{module}")


@dataclass
class _Policy:
    """The levels the ``goblin_core`` and ``goblintools`` loggers had before warnings
    were suppressed (empty while they are shown)."""

    saved_levels: dict[str, int] = field(default_factory=dict)


_POLICY = _Policy()


def set_suppress_warnings(suppress: bool) -> None:
    """Hide (True) or show again (False) goblin's warning log lines for the process."""
    if suppress and not _POLICY.saved_levels:
        for name in (LIBRARY_LOGGER, GOBLINTOOLS_LOGGER):
            logger = logging.getLogger(name)
            _POLICY.saved_levels[name] = logger.level
            logger.setLevel(logging.ERROR)
    elif not suppress and _POLICY.saved_levels:
        for name, level in _POLICY.saved_levels.items():
            logging.getLogger(name).setLevel(level)
        _POLICY.saved_levels.clear()


def warnings_suppressed() -> bool:
    return bool(_POLICY.saved_levels)


def configure(*, suppress_warnings: bool | None = None) -> None:
    """Process-wide setup, as in GoblinTools: ``configure(suppress_warnings=True)``
    hides goblin's warning logs; None leaves the setting as it is."""
    if suppress_warnings is not None:
        set_suppress_warnings(suppress_warnings)
