"""A GoblinError taken apart in a worker and rebuilt whole in the caller.

Plain pickling of an exception calls its class with the formatted text as the
only argument: ``file`` comes back None with the file name baked into the
message, and a subclass whose constructor takes other arguments cannot be
rebuilt at all. Here the class is named, its attributes travel as they are,
and the caller rebuilds the same class without calling its constructor, so
the error raised by ``extract(..., isolate=True)`` has the class, message,
file and every attribute the in-process one has.
"""

from __future__ import annotations

import importlib
import logging
import pickle
from dataclasses import dataclass, field
from typing import Any

from goblin_core.errors import ERROR_KINDS, GoblinError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ErrorState:
    """What it takes to rebuild a GoblinError in another process."""

    module: str
    qualname: str
    kind: str
    text: str
    attributes: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, error: GoblinError) -> ErrorState:
        """The state of ``error``; an attribute that cannot be pickled is left out."""
        kept: dict[str, Any] = {}
        for key, value in vars(error).items():
            # Broad: any value may refuse pickling in its own way (PicklingError,
            # TypeError, AttributeError...); it is logged and left out.
            try:
                pickle.dumps(value)
            except Exception:
                log.debug("%s.%s cannot cross to the caller; left out", error.kind, key)
                continue
            kept[key] = value
        kind_type = type(error)
        return cls(kind_type.__module__, kind_type.__qualname__, error.kind, str(error), kept)

    def rebuild(self) -> GoblinError:
        """The error again: same class (or its kind's class), text and attributes."""
        error_type = self._error_type()
        error = error_type.__new__(error_type)
        Exception.__init__(error, self.text)
        error.__dict__.update(self.attributes)
        return error

    def _error_type(self) -> type[GoblinError]:
        try:
            found: Any = importlib.import_module(self.module)
            for part in self.qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            found = None
        if isinstance(found, type) and issubclass(found, GoblinError):
            return found
        # A plugin's error class the caller cannot import: its kind's class still fits.
        return ERROR_KINDS.get(self.kind, GoblinError)
