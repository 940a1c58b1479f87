"""Test fixtures for goblin-core's isolation tests: parsers that hang, crash, abort or bloat.

They live in an installed plugin because an isolated extraction re-loads the
registry from entry points inside a fresh worker process, where an engine
defined inside a test would not exist. Their formats are only ever produced
by tests; block them with ``GOBLIN_DISABLE_PLUGINS=example-fixtures``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from goblin_core import CorruptDocument, FileType, PageContent, Source, hookimpl
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument, TextDocument

SLEEPY_MIME = "application/x-goblin-test-sleepy"
CRASHY_MIME = "application/x-goblin-test-crashy"
ABORT_MIME = "application/x-goblin-test-abort"
ALLOC_MIME = "application/x-goblin-test-alloc"
SLOW_PAGES_MIME = "application/x-goblin-test-slowpages"
HELPER_MIME = "application/x-goblin-test-helper"
SPIN_MIME = "application/x-goblin-test-spin"
STALL_MIME = "application/x-goblin-test-stall"
SLEEPY_SIGNATURE = b"GOBLIN-SLEEPY "
CRASHY_SIGNATURE = b"GOBLIN-CRASHY"
ABORT_SIGNATURE = b"GOBLIN-ABORT"
ALLOC_SIGNATURE = b"GOBLIN-ALLOC"
SLOW_PAGES_SIGNATURE = b"GOBLIN-SLOWPAGES "
HELPER_SIGNATURE = b"GOBLIN-HELPER "
SPIN_SIGNATURE = b"GOBLIN-SPIN "
STALL_SIGNATURE = b"GOBLIN-STALL "

#: Pages a slow-pages file has: more than any test's time limit lets through.
_SLOW_PAGE_COUNT = 500

#: Seconds the spinning page would take: longer than any test waits.
_SPIN_SECONDS = 600.0

#: Bytes the unbounded allocator adds per step (written, so they count in RSS).
_ALLOC_STEP = 32 * 1024 * 1024


class FixtureSniffer(BaseEngine):
    """Recognises the fixture signatures and nothing else."""

    name = "fixture.sniffer"
    formats = (SLEEPY_MIME, CRASHY_MIME, ABORT_MIME, ALLOC_MIME, SLOW_PAGES_MIME, HELPER_MIME,
               SPIN_MIME, STALL_MIME)
    priority = 1

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if head.startswith(STALL_SIGNATURE):
            return FileType(STALL_MIME, "stall", 0.99)
        if head.startswith(SPIN_SIGNATURE):
            return FileType(SPIN_MIME, "spin", 0.99)
        if head.startswith(HELPER_SIGNATURE):
            return FileType(HELPER_MIME, "helper", 0.99)
        if head.startswith(SLOW_PAGES_SIGNATURE):
            return FileType(SLOW_PAGES_MIME, "slowpages", 0.99)
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


class HelperParser(BaseEngine):
    """Waits on a helper process that hangs, as a converter binary stuck on a file would.

    ``GOBLIN-HELPER PATH``: the helper runs in its own session, as Tesseract
    and the archive tools do, and its process id is written to PATH so a test
    can tell whether anything ended it.
    """

    name = "fixture.helper"
    formats = (HELPER_MIME,)

    def open(self, source: Source, config: Config) -> TextDocument:
        data = source.bytes()
        if not data.startswith(HELPER_SIGNATURE):
            raise CorruptDocument("not a GOBLIN-HELPER file", file=source.display_name)
        pid_file = data[len(HELPER_SIGNATURE):].split(b"\n", 1)[0].decode()
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                  start_new_session=True)
        with open(pid_file, "w", encoding="ascii") as handle:
            handle.write(str(helper.pid))
        helper.wait()
        return TextDocument(["the helper ended"])


class SlowPages(BaseParsedDocument):
    """A long document whose every page takes a while to read."""

    page_count = _SLOW_PAGE_COUNT

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def pages(self) -> Iterator[PageContent]:
        for number in range(1, _SLOW_PAGE_COUNT + 1):
            time.sleep(self.seconds)
            yield PageContent(number=number, text=f"page {number} read slowly")


class SlowPagesParser(BaseEngine):
    """Reads ``GOBLIN-SLOWPAGES SECONDS``: thousands of pages, each taking SECONDS.

    Stands for a long document that outlives the time limit while every page
    is fine: the pages read before the limit must come back.
    """

    name = "fixture.slowpages"
    formats = (SLOW_PAGES_MIME,)

    def open(self, source: Source, config: Config) -> SlowPages:
        raw = source.bytes()[len(SLOW_PAGES_SIGNATURE):].split(b"\n", 1)[0]
        try:
            return SlowPages(float(raw))
        except ValueError as exc:
            raise CorruptDocument("GOBLIN-SLOWPAGES needs a number of seconds per page",
                                  file=source.display_name) from exc


class SpinningPages(BaseParsedDocument):
    """Pages read at once up to one on which Python code spins, catching every
    Exception on the way, as pdfminer does trying object after object."""

    def __init__(self, spin_at: int) -> None:
        self.spin_at = spin_at
        self.page_count = spin_at + 2

    def pages(self) -> Iterator[PageContent]:
        for number in range(1, self.spin_at + 3):
            if number == self.spin_at:
                end = time.monotonic() + _SPIN_SECONDS
                while time.monotonic() < end:
                    try:
                        sum(range(1000))
                    except Exception:
                        continue
            yield PageContent(number=number, text=f"page {number} read")


class SpinningParser(BaseEngine):
    """Reads ``GOBLIN-SPIN N``: page N never ends, in Python code that asks for no time."""

    name = "fixture.spin"
    formats = (SPIN_MIME,)

    def open(self, source: Source, config: Config) -> SpinningPages:
        raw = source.bytes()[len(SPIN_SIGNATURE):].split(b"\n", 1)[0]
        try:
            return SpinningPages(int(raw))
        except ValueError as exc:
            raise CorruptDocument("GOBLIN-SPIN needs a page number",
                                  file=source.display_name) from exc


class StallingPages(BaseParsedDocument):
    """Pages read at once up to one on which the worker is lost: ``sleep`` stands for
    a native call that never returns (no Python interrupt reaches it), ``crash`` for a
    segfault."""

    def __init__(self, stall_at: int, how: str) -> None:
        self.stall_at = stall_at
        self.how = how
        self.page_count = stall_at + 2

    def pages(self) -> Iterator[PageContent]:
        for number in range(1, self.stall_at + 3):
            if number == self.stall_at:
                if self.how == "crash":
                    os.kill(os.getpid(), signal.SIGKILL)
                time.sleep(_SPIN_SECONDS)
            yield PageContent(number=number, text=f"page {number} read")


class StallingParser(BaseEngine):
    """Reads ``GOBLIN-STALL N HOW``: page N never comes back (HOW: sleep or crash)."""

    name = "fixture.stall"
    formats = (STALL_MIME,)

    def open(self, source: Source, config: Config) -> StallingPages:
        fields = source.bytes()[len(STALL_SIGNATURE):].split(b"\n", 1)[0].split()
        try:
            return StallingPages(int(fields[0]), fields[1].decode())
        except (IndexError, ValueError) as exc:
            raise CorruptDocument("GOBLIN-STALL needs a page number and sleep or crash",
                                  file=source.display_name) from exc


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
    register(SlowPagesParser())
    register(HelperParser())
    register(SpinningParser())
    register(StallingParser())
