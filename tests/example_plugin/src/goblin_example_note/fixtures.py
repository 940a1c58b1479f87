"""Test fixtures for goblin-core's isolation tests: parsers that hang, crash, abort or bloat.

They live in an installed plugin because an isolated extraction re-loads the
registry from entry points inside a fresh worker process, where an engine
defined inside a test would not exist. Their formats are only ever produced
by tests; block them with ``GOBLIN_DISABLE_PLUGINS=example-fixtures``.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from typing import Any

from goblin_core import CorruptDocument, FileType, Source, hookimpl
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument

SLEEPY_MIME = "application/x-goblin-test-sleepy"
CRASHY_MIME = "application/x-goblin-test-crashy"
ABORT_MIME = "application/x-goblin-test-abort"
ALLOC_MIME = "application/x-goblin-test-alloc"
SLEEPY_SIGNATURE = b"GOBLIN-SLEEPY "
CRASHY_SIGNATURE = b"GOBLIN-CRASHY"
ABORT_SIGNATURE = b"GOBLIN-ABORT"
ALLOC_SIGNATURE = b"GOBLIN-ALLOC"

#: Bytes the unbounded allocator adds per step (written, so they count in RSS).
_ALLOC_STEP = 32 * 1024 * 1024


class FixtureSniffer(BaseEngine):
    """Recognises the fixture signatures and nothing else."""

    name = "fixture.sniffer"
    formats = (SLEEPY_MIME, CRASHY_MIME, ABORT_MIME, ALLOC_MIME)
    priority = 1

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if head.startswith(SLEEPY_SIGNATURE):
            return FileType(SLEEPY_MIME, "sleepy", 0.99)
        if head.startswith(CRASHY_SIGNATURE):
            return FileType(CRASHY_MIME, "crashy", 0.99)
        if head.startswith(ABORT_SIGNATURE):
            return FileType(ABORT_MIME, "abort", 0.99)
        if head.startswith(ALLOC_SIGNATURE):
            return FileType(ALLOC_MIME, "alloc", 0.99)
        return None


class SleepyParser(BaseEngine):
    """Sleeps for the seconds the file names, then returns one page: a hung engine."""

    name = "fixture.sleepy"
    formats = (SLEEPY_MIME,)

    def open(self, source: Source, config: Config) -> TextDocument:
        data = source.bytes()
        if not data.startswith(SLEEPY_SIGNATURE):
            raise CorruptDocument("not a GOBLIN-SLEEPY file", file=source.display_name)
        raw = data[len(SLEEPY_SIGNATURE):].split(b"\n", 1)[0]
        try:
            seconds = float(raw)
        except ValueError as exc:
            raise CorruptDocument("GOBLIN-SLEEPY needs a number of seconds",
                                  file=source.display_name) from exc
        time.sleep(seconds)
        return TextDocument([f"slept {seconds:g} seconds"])


class CrashyParser(BaseEngine):
    """Kills its own process, as a segfault in a native library would."""

    name = "fixture.crashy"
    formats = (CRASHY_MIME,)

    def open(self, source: Source, config: Config) -> TextDocument:
        if not source.bytes().startswith(CRASHY_SIGNATURE):
            raise CorruptDocument("not a GOBLIN-CRASHY file", file=source.display_name)
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("unreachable: the process is gone")


class AbortParser(BaseEngine):
    """Aborts its process (SIGABRT), as a failed assertion in a native library would."""

    name = "fixture.abort"
    formats = (ABORT_MIME,)

    def open(self, source: Source, config: Config) -> TextDocument:
        if not source.bytes().startswith(ABORT_SIGNATURE):
            raise CorruptDocument("not a GOBLIN-ABORT file", file=source.display_name)
        os.abort()


class AllocParser(BaseEngine):
    """Allocates without bound, as a decoder fed a hostile size field would."""

    name = "fixture.alloc"
    formats = (ALLOC_MIME,)

    def open(self, source: Source, config: Config) -> TextDocument:
        if not source.bytes().startswith(ALLOC_SIGNATURE):
            raise CorruptDocument("not a GOBLIN-ALLOC file", file=source.display_name)
        hoard: list[bytes] = []
        while True:
            hoard.append(b"x" * _ALLOC_STEP)


@hookimpl
def goblin_register_sniffers(register: Callable[[Any], None]) -> None:
    register(FixtureSniffer())


@hookimpl
def goblin_register_parsers(register: Callable[[Any], None]) -> None:
    register(SleepyParser())
    register(CrashyParser())
    register(AbortParser())
    register(AllocParser())
