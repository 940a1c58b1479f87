"""pypdf's warnings while goblin reads a damaged file with it.

pypdf logs what it works around ("EOF marker not found", "Ignoring wrong pointing
object") without the file's name, and an application that has not configured
logging gets each line on standard error. What matters reaches the document's
report (the engine's error, the page's status), so the ``pypdf`` logger is held
at ERROR while goblin calls it. The hold counts its holders: several threads
reading PDFs never leave the logger held, or release it early.
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager

from goblin_core.library_logs import HeldLogger

_PYPDF = HeldLogger("pypdf", logging.ERROR)


def pypdf_warnings_held() -> AbstractContextManager[None]:
    """pypdf's warnings dropped for the block; its errors still logged."""
    return _PYPDF.held()
