"""A 7z archive that lists more members than allowed is refused as its header is read.

py7zr builds a record of every member while it opens an archive, before anyone can
count them: a 7z of 62 KB listing 200,000 empty files held 300 MB and took 18 s to
open, only to be refused for the count then (py7zr's own bound is 8 million). py7zr
reads the count through one function, ``check_count``; goblin wraps it, so that the
count of members is checked against ``limits.max_members`` when it is read, in the
thread opening the archive. A py7zr without that function is left as it is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import py7zr.archiveinfo

#: The name py7zr gives the member count when it checks it.
_MEMBER_COUNT = "numfiles"

_opening = threading.local()


def _counted(original: Callable[..., int]) -> Callable[..., int]:
    def check_count(file: Any, count: int, what: str, *args: Any, **kwargs: Any) -> int:
        refuse: Callable[[int], None] | None = getattr(_opening, "refuse", None)
        if refuse is not None and what == _MEMBER_COUNT:
            refuse(count)
        return original(file, count, what, *args, **kwargs)

    check_count.goblin_counted = True  # type: ignore[attr-defined]
    return check_count


_original = getattr(py7zr.archiveinfo, "check_count", None)
if _original is not None and not getattr(_original, "goblin_counted", False):
    py7zr.archiveinfo.check_count = _counted(_original)


@contextmanager
def members_counted(refuse: Callable[[int], None]) -> Iterator[None]:
    """While py7zr opens an archive in this thread, ``refuse`` sees its member count first
    (and raises to stop the opening)."""
    _opening.refuse = refuse
    try:
        yield
    finally:
        _opening.refuse = None
