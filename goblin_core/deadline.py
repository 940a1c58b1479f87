"""The time the document being extracted has left under ``limits.timeout``.

The core checks the limit between pages, members and engines, but one call into an
engine (an OCR backend reading a page, a recovery engine running a binary) can outlast
it by its own time budget. Such an engine asks :func:`time_left` and stops its work
when the document's time is up, whichever comes first. The core runs each engine call
:func:`enforced`, so Python code that never asks is interrupted soon after the deadline.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from goblin_core.errors import ExtractionTimeout

_DEADLINE: ContextVar[float | None] = ContextVar("goblin_document_deadline", default=None)


def time_left() -> float | None:
    """Seconds until the current document's ``limits.timeout`` (0.0 once it has passed);
    ``None`` outside an extraction, where only an engine's own limits apply.

    >>> time_left() is None
    True
    >>> with document_deadline(time.monotonic() + 60):
    ...     0 < time_left() <= 60
    True
    """
    deadline = _DEADLINE.get()
    if deadline is None:
        return None
    return max(deadline - time.monotonic(), 0.0)


@contextmanager
def document_deadline(deadline: float) -> Iterator[None]:
    """Within the block, :func:`time_left` counts down to ``deadline`` (``time.monotonic()``)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)
        if _DEADLINE.get() is None:
            # an arm still here outlived its block (an interrupt delivered inside its
            # disarm): once the extraction is over it would interrupt the caller's code
            _WATCHDOG.forget(threading.get_ident())


def within_document(seconds: float) -> float:
    """``seconds``, or less when the current document has less time left: the
    time a helper binary or a single engine call may take.

    >>> within_document(300.0)
    300.0
    >>> with document_deadline(time.monotonic() + 60):
    ...     within_document(300.0) <= 60
    True
    """
    left = time_left()
    return seconds if left is None else min(seconds, left)


#: How long past the deadline one engine call may go on before it is interrupted. The
#: core's own check between pages ends well-behaved work at the deadline itself; this
#: is for a call that never comes back to it (a pure-Python parser spinning on one
#: damaged object).
INTERRUPT_GRACE_SECONDS = 1.0
#: An interrupt an engine swallowed (a bare ``except:``) is raised again this often.
_INTERRUPT_AGAIN_SECONDS = 1.0


class EngineInterrupted(ExtractionTimeout):
    """An engine call was interrupted because the document's deadline had passed.

    Unlike an ExtractionTimeout an engine raises for a limit of its own (after which the
    next engine may try), this one ends the document's work: every engine after it
    would be interrupted too.
    """


class DeadlineInterrupt(BaseException):
    """Raised into a thread whose engine call outran its document's deadline.

    A BaseException, as KeyboardInterrupt is, so that an engine's ``except Exception``
    (pdfminer and pypdf have many) lets it through; :func:`enforced` turns it into an
    EngineInterrupted where the call was made.
    """


def interrupted(engine: str = "an engine") -> EngineInterrupted:
    """The error of a call into ``engine`` the deadline interrupted."""
    return EngineInterrupted(
        f"the per-document time limit (limits.timeout) ran out while {engine} was still "
        "working on it, and it was interrupted; pages read so far are kept"
    )


@contextmanager
def enforced(engine: str = "an engine") -> Iterator[None]:
    """Within the block, Python code still running ``INTERRUPT_GRACE_SECONDS`` after the
    current document's deadline is interrupted, and the block raises EngineInterrupted
    naming ``engine``.

    A native call (PDFium, a decompressor) is not stopped: the interrupt lands when it
    returns to Python. Outside an extraction, and inside another enforced block of the
    same thread, this does nothing.
    """
    deadline = _DEADLINE.get()
    if deadline is None or _WATCHDOG.arm_of_this_thread() is not None:
        yield
        return
    arm = _WATCHDOG.arm(deadline + INTERRUPT_GRACE_SECONDS)
    try:
        yield
    except DeadlineInterrupt:
        _WATCHDOG.disarm(arm)
        raise interrupted(engine) from None
    finally:
        _WATCHDOG.disarm(arm)


@contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """Within the block, Python code still running ``seconds`` after it began is
    interrupted, and the block raises ExtractionTimeout naming ``what``: a limit of the
    engine's own, so the engine goes on with its next page and the next engine may try.

    When the document's deadline comes first, that one is enforced instead (see
    :func:`enforced`). ``seconds`` of 0 or less sets no limit. As with :func:`enforced`,
    a native call is not stopped: the interrupt lands when it returns to Python.

    >>> with time_limit(5.0, "a quick step"):
    ...     sum(range(10))
    45
    """
    if seconds <= 0:
        yield
        return
    due = time.monotonic() + seconds
    outer = _WATCHDOG.arm_of_this_thread()
    if outer is not None and outer.due <= due:
        yield
        return
    arm = _WATCHDOG.arm(due)
    try:
        yield
    except DeadlineInterrupt:
        _WATCHDOG.disarm(arm, restore=outer)
        if outer is not None and time.monotonic() >= outer.due:
            raise  # the document's own deadline has passed meanwhile: the outer block's
        raise ExtractionTimeout(
            f"{what} took longer than {seconds:g} s and was interrupted") from None
    finally:
        _WATCHDOG.disarm(arm, restore=outer)


@dataclass
class _Arm:
    thread: int
    due: float
    fired: float | None = None


class _Watchdog:
    """One daemon thread per process that raises DeadlineInterrupt into threads whose
    armed deadline has passed; started on the first arm."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        # also the state of a forked child, which inherits no thread
        self._wake = threading.Condition()
        #: when the watchdog wakes next on its own (infinity: only when told)
        self._next_wake = float("inf")
        self._arms: dict[int, _Arm] = {}
        self._thread: threading.Thread | None = None

    def arm_of_this_thread(self) -> _Arm | None:
        return self._arms.get(threading.get_ident())

    def arm(self, due: float) -> _Arm:
        arm = _Arm(threading.get_ident(), due)
        with self._wake:
            self._arms[arm.thread] = arm
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="goblin-deadline",
                                                daemon=True)
                self._thread.start()
            if due < self._next_wake:  # an arm per page: most are due no sooner
                self._wake.notify()
        _catch_swallowed_interrupts()
        return arm

    def disarm(self, arm: _Arm, restore: _Arm | None = None) -> None:
        """End ``arm``; ``restore`` is the arm of an enclosing block, in force again."""
        with self._wake:
            if self._arms.get(arm.thread) is arm:
                if restore is None:
                    del self._arms[arm.thread]
                else:
                    self._arms[arm.thread] = restore
                    if restore.due < self._next_wake:
                        self._wake.notify()
            if arm.fired is not None:
                # an interrupt raised but not yet delivered would land after the block
                _raise_in(arm.thread, None)
                arm.fired = None  # withdrawn once: a later one is the restored arm's

    def forget(self, thread: int) -> None:
        """Drop any arm of ``thread``, and take back an interrupt not yet delivered."""
        arm = self._arms.get(thread)
        if arm is not None:
            self.disarm(arm)

    def again_soon(self, thread: int) -> None:
        """Raise the interrupt into ``thread`` again at once: the one raised landed in a
        finalizer, which Python runs with its errors ignored, so the work goes on."""
        with self._wake:
            arm = self._arms.get(thread)
            if arm is None or arm.fired is None:
                return
            arm.fired = time.monotonic() - _INTERRUPT_AGAIN_SECONDS
            self._wake.notify()

    def _watch(self) -> None:
        with self._wake:
            while True:
                now = time.monotonic()
                soonest: float | None = None
                for arm in self._arms.values():
                    due = arm.due if arm.fired is None else arm.fired + _INTERRUPT_AGAIN_SECONDS
                    if due <= now:
                        if _fired(arm.thread):
                            arm.fired = now
                            due = now + _INTERRUPT_AGAIN_SECONDS
                        else:
                            due = now + _THREAD_STARTING_WAIT
                    soonest = due if soonest is None else min(soonest, due)
                self._next_wake = float("inf") if soonest is None else soonest
                self._wake.wait(None if soonest is None else soonest - now)


#: How long the watchdog waits for a thread being started to run before it tries again.
_THREAD_STARTING_WAIT = 0.005


def _fired(thread: int) -> bool:
    """Raise the interrupt into ``thread``; False, raising nothing, while a thread is
    being started anywhere in the process.

    CPython (3.11) makes a new thread's state in the thread that starts it, under that
    thread's id, and gives it its own id only once the new thread runs. An interrupt
    raised in between lands in the new thread, which dies before it tells its starter
    that it runs, and the starter (Tesseract's stderr reader, a pool) waits for it
    forever. ``threading`` lists a thread as being started over all that time.
    """
    if _threads_starting():
        return False
    _raise_in(thread, DeadlineInterrupt)
    if _threads_starting():
        # one was started between the check and the raise: take the interrupt back from
        # the first state holding the id, the new thread's while it holds it
        _raise_in(thread, None)
        return False
    return True


def _threads_starting() -> bool:
    return bool(getattr(threading, "_limbo", None))


def _raise_in(thread: int, exception: type[BaseException] | None) -> None:
    """Have ``thread`` raise ``exception`` at its next Python instruction; None withdraws
    one not yet raised."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread), ctypes.py_object(exception) if exception is not None else None
    )


def _catch_swallowed_interrupts() -> None:
    """Install a ``sys.unraisablehook`` that takes the interrupts a finalizer swallowed
    (an object's ``__del__``, a weakref callback, run wherever the interrupt landed):
    Python would print each to stderr as "Exception ignored" and the engine's work would
    go on a second longer. Anything else goes to the hook there was before. Checked at
    each arm, so a hook set meanwhile (a test runner's) is wrapped too."""
    previous = sys.unraisablehook
    if getattr(previous, "_goblin_deadline", False):
        return

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, DeadlineInterrupt) or (
                unraisable.exc_type is DeadlineInterrupt):
            _WATCHDOG.again_soon(threading.get_ident())
            return
        previous(unraisable)

    hook._goblin_deadline = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


_WATCHDOG = _Watchdog()
os.register_at_fork(after_in_child=_WATCHDOG._reset)
