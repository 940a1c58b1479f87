"""An engine call that runs on past limits.timeout is interrupted, in process too.

The pipeline checks the deadline between pages and engines; these engines never come
back to it: pure-Python work that spins on one page, as pdfminer or pypdf can on a
damaged object, and that swallows exceptions on the way, as they do.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from goblin_core import ExtractionTimeout, PageContent, Source, extract
from goblin_core.deadline import (
    INTERRUPT_GRACE_SECONDS,
    DeadlineInterrupt,
    EngineInterrupted,
    document_deadline,
    enforced,
    time_limit,
)
from goblin_core.engines import BaseEngine

from scripted_engines import (
    TEST_BYTES,
    TEST_MIME,
    MarkerValidator,
    ScriptedDocument,
    ScriptedParser,
    registry_with,
    text_page,
)

#: How long the spinning engines would go on if nothing stopped them.
SPIN_SECONDS = 60.0


def _spin(seconds: float = SPIN_SECONDS, *, swallow: bool = False) -> None:
    """Python work that never asks for the time left; with ``swallow``, it goes on
    through any Exception, as a parser trying object after object does (pdfminer)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            sum(range(1000))
        except Exception:
            if not swallow:
                raise


def _spin_through_one_bare_except() -> None:
    """A bare ``except:`` takes the first interrupt; the work then goes on."""
    try:  # noqa: SIM105 - the bare except is what is under test
        _spin()
    except:  # noqa: E722
        pass
    _spin()


class _SpinningDocument(ScriptedDocument):
    """Yields its pages, then spins on page ``spin_at`` instead of returning it."""

    def __init__(self, pages: Sequence[PageContent], spin_at: int, swallow: bool) -> None:
        super().__init__(pages, renders=False, delay=0.0, page_count=len(pages))
        self._spin_at = spin_at
        self._swallow = swallow

    def pages(self) -> Iterator[PageContent]:
        for item in self._pages:
            assert isinstance(item, PageContent)
            if item.number == self._spin_at:
                _spin(swallow=self._swallow)
            yield item


class _SpinningParser(ScriptedParser):
    def __init__(self, pages: Sequence[PageContent], *, spin_at: int = 0,
                 spin_on_open: bool = False, swallow: bool = False) -> None:
        super().__init__("tests.spinning", pages)
        self.spin_at = spin_at
        self.spin_on_open = spin_on_open
        self.swallow = swallow

    def open(self, source: Source, config: Any) -> ScriptedDocument:
        if self.spin_on_open:
            _spin(swallow=self.swallow)
        return _SpinningDocument(self.pages, self.spin_at, self.swallow)  # type: ignore[arg-type]


class _SpinningRecovery(BaseEngine):
    name = "tests.spinning_recovery"
    formats = (TEST_MIME,)
    priority = 50

    def recover(self, source: Source, page_numbers: Sequence[int], config: Any) -> dict[int, str]:
        _spin_through_one_bare_except()
        return {number: "recovered" for number in page_numbers}


class _LaterRecovery(BaseEngine):
    name = "tests.later_recovery"
    formats = (TEST_MIME,)
    priority = 40
    calls = 0

    def recover(self, source: Source, page_numbers: Sequence[int], config: Any) -> dict[int, str]:
        type(self).calls += 1
        return {number: f"page {number} read later" for number in page_numbers}


def _pages(count: int) -> list[PageContent]:
    return [text_page(n, f"page {n} text") for n in range(1, count + 1)]


def _timed(**options: Any) -> tuple[Any, float]:
    started = time.monotonic()
    document = extract(TEST_BYTES, name="spin.test", **options)
    return document, time.monotonic() - started


@pytest.mark.parametrize("swallow", [False, True], ids=["plain", "swallowing"])
def test_a_page_that_never_ends_is_interrupted_and_the_pages_before_it_kept(
    swallow: bool,
) -> None:
    parser = _SpinningParser(_pages(5), spin_at=3, swallow=swallow)
    document, seconds = _timed(registry=registry_with(parser), timeout=1)
    assert seconds < 1 + INTERRUPT_GRACE_SECONDS + 2  # where the spin would take a minute
    assert [p.text for p in document.pages[:2]] == ["page 1 text", "page 2 text"]
    assert [p.number for p in document.pages] == [1, 2, 3, 4, 5]
    unread = document.pages[2:]
    assert all(p.status == "failed" and p.reasons == ("not read: ExtractionTimeout",)
               for p in unread)
    assert document.status == "partially_recovered"
    assert document.report.error_kinds == ("ExtractionTimeout",)
    assert "while tests.spinning was still working on it, and it was interrupted" in \
        document.report.errors[0].message


def test_a_parser_that_never_opens_the_file_is_an_extraction_timeout_naming_it() -> None:
    parser = _SpinningParser(_pages(2), spin_on_open=True, swallow=True)
    started = time.monotonic()
    with pytest.raises(ExtractionTimeout) as caught:
        extract(TEST_BYTES, name="spin.test", registry=registry_with(parser), timeout=1)
    assert time.monotonic() - started < 1 + INTERRUPT_GRACE_SECONDS + 2
    assert str(caught.value).startswith("spin.test: ")
    assert "limits.timeout" in str(caught.value)


def test_a_recovery_engine_that_never_ends_keeps_the_text_and_stops_the_chain() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE page"), text_page(2, "fine")])
    _LaterRecovery.calls = 0
    document, seconds = _timed(
        registry=registry_with(parser, MarkerValidator(), _SpinningRecovery(), _LaterRecovery()),
        timeout=1,
    )
    # the interrupt a bare except took is raised again a second later
    assert seconds < 1 + INTERRUPT_GRACE_SECONDS + 3
    assert [p.text for p in document.pages] == ["GARBAGE page", "fine"]
    assert document.pages[1].status == "clean"
    assert "ExtractionTimeout" in document.report.error_kinds
    # the deadline has passed: the next engine is not started only to be interrupted
    assert _LaterRecovery.calls == 0


def test_no_interrupt_lands_after_the_extraction() -> None:
    parser = _SpinningParser(_pages(3), spin_at=2)
    extract(TEST_BYTES, name="spin.test", registry=registry_with(parser), timeout=0.5)
    _spin(2 * INTERRUPT_GRACE_SECONDS + 0.5)  # would raise if one were still armed


def test_work_inside_the_grace_is_not_interrupted() -> None:
    with document_deadline(time.monotonic() + 0.1), enforced():
        _spin(0.1 + INTERRUPT_GRACE_SECONDS / 2)


def test_enforced_does_nothing_outside_an_extraction() -> None:
    with enforced():
        _spin(0.2)


def test_each_thread_is_interrupted_on_its_own_deadline() -> None:
    outcome: dict[str, str] = {}

    def work(name: str, seconds: float) -> None:
        try:
            with document_deadline(time.monotonic() + seconds), enforced():
                _spin(3 + INTERRUPT_GRACE_SECONDS)
            outcome[name] = "finished"
        except ExtractionTimeout:
            outcome[name] = "interrupted"

    threads = [threading.Thread(target=work, args=("short", 0.2)),
               threading.Thread(target=work, args=("long", 30.0))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert outcome == {"short": "interrupted", "long": "finished"}


def test_a_time_limit_of_its_own_ends_one_step_and_the_work_goes_on() -> None:
    started = time.monotonic()
    with pytest.raises(ExtractionTimeout) as caught, time_limit(0.3, "page 4 of the slow engine"):
        _spin(swallow=True)
    assert time.monotonic() - started < 0.3 + 2
    assert not isinstance(caught.value, EngineInterrupted)
    assert str(caught.value) == ("page 4 of the slow engine took longer than 0.3 s and was "
                                 "interrupted")
    _spin(1.5)  # nothing is left armed to land later


def test_a_time_limit_inside_an_engine_call_gives_the_document_deadline_back() -> None:
    with document_deadline(time.monotonic() + 1.0), pytest.raises(EngineInterrupted), \
            enforced("tests.engine"):
        with pytest.raises(ExtractionTimeout) as own, time_limit(0.2, "one page"):
            _spin()
        assert not isinstance(own.value, EngineInterrupted)
        # the rest of the call is held to the document's deadline again
        _spin()


def test_a_time_limit_past_the_document_deadline_leaves_the_deadline_in_charge() -> None:
    started = time.monotonic()
    with document_deadline(time.monotonic() + 0.2), pytest.raises(EngineInterrupted), \
            enforced("tests.engine"), time_limit(30.0, "one page"):
        _spin()
    assert time.monotonic() - started < 0.2 + INTERRUPT_GRACE_SECONDS + 2


def test_work_within_a_time_limit_is_not_interrupted() -> None:
    with time_limit(2.0, "a short step"):
        _spin(0.3)
    _spin(2.5)


class _SlowToFree:
    """An object whose finalizer works a while: an interrupt that lands there is
    swallowed by Python, which runs finalizers with their errors ignored."""

    def __del__(self) -> None:
        _spin(0.3)


def test_an_interrupt_a_finalizer_swallowed_is_raised_again_at_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    with pytest.raises(EngineInterrupted), document_deadline(time.monotonic() + 0.1), \
            enforced("tests.engine"):
        for _ in range(20):  # six seconds of finalizers, a few tenths of other work
            _SlowToFree()
            _spin(0.05)
    # the interrupt most likely lands in a finalizer first; raised again only a second
    # later, it would as likely land in the next one
    assert time.monotonic() - started < 0.1 + INTERRUPT_GRACE_SECONDS + 0.9
    assert "Exception ignored" not in capsys.readouterr().err


def test_no_interrupt_is_raised_while_a_thread_is_being_started() -> None:
    from goblin_core import deadline

    class _Starting(threading.Thread):
        pass

    starting = _Starting()
    threading._limbo[starting] = starting  # type: ignore[attr-defined]
    try:
        assert not deadline._fired(threading.get_ident())
    finally:
        del threading._limbo[starting]  # type: ignore[attr-defined]
    _spin(0.2)  # nothing was raised
    with pytest.raises(DeadlineInterrupt):
        assert deadline._fired(threading.get_ident())
        _spin(5)


_START_THREADS_PAST_THE_DEADLINE = """
import threading, time
from goblin_core import deadline
deadline.INTERRUPT_GRACE_SECONDS = 0.0
for attempt in range(150):
    try:
        with deadline.document_deadline(time.monotonic() + 0.02), deadline.enforced("engine"):
            while True:  # as an engine that starts a reader thread per page does
                thread = threading.Thread(target=lambda: None, daemon=True)
                thread.start()
                thread.join()
    except deadline.EngineInterrupted:
        pass
print("all interrupted")
"""


def test_an_engine_starting_threads_is_interrupted_and_never_left_waiting() -> None:
    # an interrupt raised while a thread was being started landed in the new thread,
    # which died unstarted: its starter waited for it forever (about one fire in a
    # hundred on two cores)
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _START_THREADS_PAST_THE_DEADLINE],
                         capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "all interrupted", run.stderr[-2000:]


def test_an_arm_left_behind_ends_with_the_extraction() -> None:
    from goblin_core import deadline

    with document_deadline(time.monotonic() + 0.1):
        deadline._WATCHDOG.arm(time.monotonic() + 0.5)  # never disarmed
    _spin(0.5 + INTERRUPT_GRACE_SECONDS + 1)  # would raise if it were still armed
