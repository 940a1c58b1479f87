"""What Python's reader of a zip, 7z or tar found wrong, kept for the handler of last resort.

A zip, 7z or tar that Python cannot read goes on to patool (7-Zip for the most
part), the handler of last resort. With ``archives.patool = false`` that handler
can only say it is turned off, and the core reports the error of the last
handler that ran: the real cause (a CRC that fails, a cut archive) was lost
behind "patool is turned off". So the first reader notes what went wrong with
the archive it was given, and the handler of last resort, turned off, raises
that, saying why no second tool was tried.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import BinaryIO, TypeVar

from goblin_archives.guarded import GuardedStream
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, Member
from goblin_core.errors import GoblinError
from goblin_core.source import Source

Handler = TypeVar("Handler")
MembersMethod = Callable[[Handler, Source, ArchiveLimits, Config], Iterator[Member]]

#: id() of a source being read -> what its first reader found wrong. An entry goes
#: when its source is collected, so an id never names the failure of another source.
_FAILURES: dict[int, GoblinError] = {}


def noting_failures(members: MembersMethod[Handler]) -> MembersMethod[Handler]:
    """``members`` of a handler, noting what stopped it, or the first member it could not
    give, as the failure of the source it was reading."""

    @functools.wraps(members)
    def noted(handler: Handler, source: Source, limits: ArchiveLimits,
              config: Config) -> Iterator[Member]:
        try:
            for member in members(handler, source, limits, config):
                yield _noting(member, source)
        except GoblinError as exc:
            _note(source, exc, replacing=True)
            raise

    return noted


def failure_of(source: Source) -> GoblinError | None:
    """What the first reader of ``source`` found wrong with it, if anything (forgotten
    once asked: a second reading starts afresh)."""
    return _FAILURES.pop(id(source), None)


def with_note(error: GoblinError, note: str) -> GoblinError:
    """``error`` (its kind, its file) with ``note`` after its message."""
    noted = type(error).__new__(type(error))  # as GoblinError.with_file: no __init__ re-run
    noted.__dict__.update(error.__dict__)
    noted.message = f"{error.message}; {note}"
    Exception.__init__(noted, f"{error.file}: {noted.message}" if error.file else noted.message)
    return noted


def _noting(member: Member, source: Source) -> Member:
    def opener() -> BinaryIO:
        try:
            stream = member.open()
        except GoblinError as exc:
            _note(source, exc, replacing=False)
            raise
        noted = GuardedStream(stream, f"{source.display_name}/{member.name}",
                              on_error=lambda exc: _note(source, exc, replacing=False))
        return noted  # type: ignore[return-value]

    return replace(member, open=opener)


def _note(source: Source, error: GoblinError, *, replacing: bool) -> None:
    """Keep ``error`` for ``source``: what stops a reader replaces what a member met,
    and of the members, the first one's stays (as the core reports the first)."""
    key = id(source)
    if key not in _FAILURES:
        weakref.finalize(source, _FAILURES.pop, key, None)
    elif not replacing:
        return
    _FAILURES[key] = error


def last_resort_runs(config: Config, fmt: str) -> bool:
    """Whether the handler of last resort for ``fmt`` (``zip``, ``7z``, ``tar``: patool
    driving 7-Zip) can run, so that an archive Python cannot wholly read is its to read."""
    from goblin_archives.patool_handler import FALLBACK_FORMATS, PatoolHandler

    if config.get("archives", "patool") is False:
        return False
    fallback = next(entry for entry in FALLBACK_FORMATS if entry.name == fmt)
    return PatoolHandler(fallback).available()[0]
