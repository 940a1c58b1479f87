"""The local executor: a pool of supervised worker processes.

Each worker is a separate interpreter started fresh (never forked from a
process that may hold PDFium state, never a multiprocessing spawn that would
re-run the caller's ``__main__``, and never a thread: PDFium is not
thread-safe). The
supervisor hands one task at a time to each worker and watches it: a worker
that runs past the per-document timeout, grows past the memory limit or dies
is killed and replaced, its document comes back with ExtractionTimeout,
MemoryLimitExceeded or WorkerCrashed in its report (and the pages the worker had
already sent), and the batch goes on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import socket
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, Task, TaskResult
from goblin_core.errors import (
    ConfigError,
    ExtractionTimeout,
    GoblinError,
    MemoryLimitExceeded,
    WorkerCrashed,
)
from goblin_core.executors.page_ranges import PageSplitter, parse_page_range
from goblin_core.executors.process_tree import kill_process_tree
from goblin_core.executors.worker import (
    STARTED,
    PageRead,
    Reply,
    Thumbnails,
    WorkerResult,
    error_document,
)
from goblin_core.metadata import normalise
from goblin_core.model import Document, Page, Report, ReportEntry

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1
#: What a worker interpreter runs. ``-c`` rather than ``-m``: the package
#: already imports the worker module, and runpy would warn about running it twice.
WORKER_ENTRY = "from goblin_core.executors.worker import main; main()"
#: Seconds a fresh worker may take to import its plugins before its first task starts.
STARTUP_SECONDS = 120.0
#: The hard kill waits past ``limits.timeout`` by this share of it, at least
#: GRACE_MIN_SECONDS and at most GRACE_MAX_SECONDS. The worker's own pipeline
#: stops at limits.timeout between two pages and sends back every page read so
#: far; killing at the same instant threw that away. The grace covers the page
#: in hand when the limit runs out (an OCR'd page takes seconds) and sending
#: the Document back; a worker still busy after it is stuck inside one page
#: (a hung native call) and is killed.
GRACE_SHARE = 0.25
GRACE_MIN_SECONDS = 5.0
GRACE_MAX_SECONDS = 60.0


def hard_timeout(timeout: float) -> float:
    """Seconds after which a worker still on its task is killed: the limit plus a grace.

    >>> hard_timeout(2), hard_timeout(300), hard_timeout(3600)
    (7.0, 360.0, 3660.0)
    """
    grace = min(GRACE_MAX_SECONDS, max(GRACE_MIN_SECONDS, timeout * GRACE_SHARE))
    return timeout + grace


#: Most workers started per CPU, whatever ``jobs`` asks: beyond a few per core
#: more processes only add memory and start-up time (each imports every plugin),
#: and a typo such as jobs=1000000 must not try to start a million interpreters.
MAX_JOBS_PER_CPU = 8


def check_jobs(jobs: object) -> int | None:
    """``jobs`` once it is None (one worker per CPU) or a whole number >= 1.

    >>> check_jobs(4), check_jobs(None)
    (4, None)
    """
    if jobs is None:
        return None
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(
            f"jobs must be a whole number of worker processes, 1 or more (or None for one "
            f"per CPU), not {jobs!r}"
        )
    return jobs


def worker_limit(jobs: object) -> int:
    """Most workers to run for ``jobs``: one per CPU by default, capped per CPU with a warning."""
    cpus = os.cpu_count() or 1
    wanted = check_jobs(jobs) or cpus
    cap = MAX_JOBS_PER_CPU * cpus
    if wanted > cap:
        log.warning(
            "jobs=%d is more than %d workers per CPU on %d CPUs; starting at most %d",
            wanted, MAX_JOBS_PER_CPU, cpus, cap,
        )
    return min(wanted, cap)


class _Process:
    """A worker interpreter with the few process calls the supervisor needs."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self.popen = popen
        self.pid = popen.pid

    def is_alive(self) -> bool:
        return self.popen.poll() is None

    @property
    def exitcode(self) -> int | None:
        return self.popen.poll()

    def join(self, timeout: float | None = None) -> None:
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return

    def kill(self) -> None:
        """Kill the worker and every helper process it started, in whatever session."""
        kill_process_tree(self.pid)
        self.popen.kill()


def start_worker(
    settings: dict[str, Any], env: dict[str, str], max_memory: int, thumbnails: bool = False
) -> tuple[_Process, Connection]:
    """Start one worker interpreter and hand it its start-up bundle (``thumbnails``: it
    draws the trust report's thumbnails of each document after reading it).

    The child holds the other end of a socket pair: when it dies, however it
    dies, the supervisor's end reads EOF, so a crash is seen as soon as it
    happens without a separate process sentinel.
    """
    ours, theirs = socket.socketpair()
    try:
        popen = subprocess.Popen(
            [sys.executable, "-c", WORKER_ENTRY, str(theirs.fileno())],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
        )
    except OSError:
        ours.close()
        raise
    finally:
        theirs.close()
    conn = Connection(ours.detach())
    startup = {
        "sys_path": list(sys.path), "settings": settings, "env": env, "max_memory": max_memory,
        "thumbnails": thumbnails,
    }
    try:
        conn.send(startup)
    except OSError:
        # The child died before reading; the supervisor sees EOF and reports it.
        log.debug("worker %s exited before its start-up bundle was sent", popen.pid)
    return _Process(popen), conn


@dataclass
class _Worker:
    process: _Process
    conn: Connection
    task: Task | None = None
    started: float = 0.0
    name: str = ""
    done: int = field(default=0)
    running: bool = False
    #: Resident bytes of the worker when it began its first task: the
    #: interpreter and every plugin loaded, no document yet.
    baseline: int = 0
    #: The pages of the current task read so far, and the page count its parser declared.
    pages: dict[int, Page] = field(default_factory=dict)
    page_count: int | None = None
    mime: str = ""
    #: The task's result, read, while the worker draws its thumbnails: handed on with
    #: them, or without them when drawing them crashes, hangs or takes too much memory.
    read: WorkerResult | None = None

    def keep(self, read: PageRead) -> None:
        """A page the worker sent; a page sent again (OCR'd) replaces the first."""
        self.pages[read.page.number] = read.page
        self.page_count, self.mime = read.page_count, read.mime


class LocalExecutor(BaseEngine):
    """Supervised worker processes on this machine.

    ``jobs`` defaults to the CPU count. Tesseract inside a worker runs with
    OMP_THREAD_LIMIT=1: the executor owns the cores.
    """

    name = "executor.local"
    priority = 10

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = check_jobs(jobs)

    def run(
        self, tasks: Iterable[Task], config: Config, jobs: int | None = None, *,
        thumbnails: bool = False,
    ) -> Iterator[TaskResult]:
        """Yield a TaskResult per task as each finishes (in completion order).

        Never more workers run than there is work: one per document at most,
        and when long documents are split (``goblin.split_pages``), further
        workers start only when their page ranges are queued.

        ``thumbnails``: each worker also draws the trust report's page images of the
        documents it reads (``WorkerResult.thumbnails``), under the same limits; a
        drawing that fails costs only that document's images.
        """
        limit = worker_limit(jobs if jobs is not None else self.jobs)
        pending: deque[Task] = deque(tasks)
        if not pending:
            return
        split_above = int(config.core.get("split_pages", 0) or 0)
        capacity = limit if split_above else min(limit, len(pending))
        pool = _Pool(config, min(limit, len(pending)), capacity=capacity,
                     thumbnails=thumbnails)
        splitter = PageSplitter(pool.settings, split_above, capacity) if capacity > 1 else None
        try:
            yield from pool.run(pending, splitter)
        finally:
            pool.close()


class _Pool:
    def __init__(self, config: Config, size: int, capacity: int | None = None,
                 thumbnails: bool = False) -> None:
        self.config = config
        self.thumbnails = thumbnails
        # Workers beyond ``size`` (up to ``capacity``) start only when queued work needs them.
        self.capacity = max(size, capacity or size)
        self.settings = config.to_dict()
        self.timeout = float(config.limits["timeout"])
        self.hard_timeout = hard_timeout(self.timeout)
        self.max_memory = int(config.limits["max_memory"])
        self.workers: list[_Worker] = []
        for index in range(size):
            self.workers.append(self._spawn(index))

    def _spawn(self, index: int) -> _Worker:
        env = {"OMP_THREAD_LIMIT": "1"}
        process, conn = start_worker(self.settings, env, self.max_memory, self.thumbnails)
        return _Worker(process=process, conn=conn, name=f"goblin-worker-{index}")

    def run(
        self, pending: deque[Task], splitter: PageSplitter | None = None
    ) -> Iterator[TaskResult]:
        while pending or any(w.task is not None for w in self.workers):
            self._grow(len(pending))
            for worker in self.workers:
                if worker.task is None and pending:
                    task = pending.popleft()
                    if splitter is not None:
                        task = splitter.prepare(task, self._idle() - 1 - len(pending))
                    self._assign(worker, task)
            busy = [w for w in self.workers if w.task is not None]
            ready = wait([w.conn for w in busy], POLL_SECONDS)
            for worker in busy:
                result = self._check(worker, ready)
                if result is None:
                    continue
                if splitter is not None:
                    more, result = splitter.finished(result)
                    pending.extendleft(reversed(more))
                if result is not None:
                    yield result

    def _idle(self) -> int:
        """Workers free for a task: idle ones and those not started yet."""
        spare = self.capacity - len(self.workers)
        return spare + sum(w.task is None for w in self.workers)

    def _grow(self, queued: int) -> None:
        idle = sum(w.task is None for w in self.workers)
        while queued > idle and len(self.workers) < self.capacity:
            self.workers.append(self._spawn(len(self.workers)))
            idle += 1

    def _assign(self, worker: _Worker, task: Task) -> None:
        worker.task = task
        worker.started = time.monotonic()
        worker.running = False
        worker.pages, worker.page_count, worker.mime = {}, None, ""
        worker.read = None
        try:
            worker.conn.send(task)
        except (BrokenPipeError, OSError):
            self._replace(worker)
            worker.task = task
            worker.started = time.monotonic()
            worker.conn.send(task)

    def _check(self, worker: _Worker, ready: list[Any]) -> TaskResult | None:
        task = worker.task
        assert task is not None
        elapsed = time.monotonic() - worker.started
        if worker.conn in ready:
            try:
                reply = worker.conn.recv()
            except (EOFError, OSError):
                return self._crashed(worker, task)
            if isinstance(reply, str) and reply == STARTED:
                worker.started, worker.running = time.monotonic(), True
                worker.baseline = worker.baseline or _rss(worker.process.pid)
                return None
            if isinstance(reply, PageRead):
                worker.keep(reply)
                return self._check_limits(worker, task, elapsed)
            return self._answered(worker, task, reply, elapsed)
        return self._check_limits(worker, task, elapsed)

    def _answered(self, worker: _Worker, task: Task, answer: Reply | Thumbnails,
                  elapsed: float) -> WorkerResult | None:
        """The result of a task once its worker's answer is in: at its Reply, or at the
        Thumbnails that follow the Reply in a pool drawing them (None until then)."""
        if isinstance(answer, Thumbnails):
            assert worker.read is not None, "thumbnails come after the document"
            return self._finish(worker, dataclasses.replace(worker.read,
                                                            thumbnails=answer.images))
        error = answer.error.rebuild() if answer.error is not None else None
        result = WorkerResult(task, answer.document, elapsed, worker.name, error)
        if not self.thumbnails:
            return self._finish(worker, result)
        # the thumbnails come next, on a clock of their own
        worker.read, worker.started = result, time.monotonic()
        return None

    @staticmethod
    def _finish(worker: _Worker, result: WorkerResult) -> WorkerResult:
        worker.task, worker.read = None, None
        worker.done += 1
        return result

    def _check_limits(self, worker: _Worker, task: Task, elapsed: float) -> TaskResult | None:
        if not worker.process.is_alive():
            return self._crashed(worker, task)
        if worker.running and elapsed > self.hard_timeout:
            return self._fail(worker, ExtractionTimeout(
                f"killed after {elapsed:.0f}s, still inside one step "
                f"{self.hard_timeout - self.timeout:g}s past limits.timeout ({self.timeout:g}s); "
                "the worker was replaced", file=task.display_name))
        if not worker.running and elapsed > self.timeout + STARTUP_SECONDS:
            return self._fail(worker, ExtractionTimeout(
                f"the worker did not start within {self.timeout + STARTUP_SECONDS:g}s "
                "(a plugin hangs while loading?); it was replaced", file=task.display_name))
        return self._check_memory(worker, task)

    def _check_memory(self, worker: _Worker, task: Task) -> TaskResult | None:
        # limits.max_memory counts what documents add to an idle worker: the
        # interpreter and its plugins alone take 60-100 MiB, more than a small
        # limit, and no document could be read under it at all.
        if not worker.running:
            return None
        rss = _rss(worker.process.pid)
        added = rss - worker.baseline
        if added <= self.max_memory:
            return None
        return self._fail(worker, MemoryLimitExceeded(
            f"worker grew by {added // 2**20} MiB past its idle {worker.baseline // 2**20} MiB, "
            f"over limits.max_memory ({self.max_memory // 2**20} MiB); killed and replaced",
            file=task.display_name))

    def _crashed(self, worker: _Worker, task: Task) -> TaskResult:
        error = WorkerCrashed(self._crash_message(worker), file=task.display_name)
        return self._fail(worker, error)

    def _crash_message(self, worker: _Worker) -> str:
        worker.process.join(1)
        code = worker.process.exitcode
        if code is not None and code < 0:
            return f"the worker process died from signal {-code} (a crash in a native library)"
        if code == 86:
            return "the worker ran out of memory (limits.max_memory)"
        return f"the worker process exited unexpectedly (exit code {code})"

    def _fail(self, worker: _Worker, error: GoblinError) -> TaskResult:
        task = worker.task
        assert task is not None
        elapsed = time.monotonic() - worker.started
        answered = self._drain(worker, task, elapsed)
        if answered is not None or worker.read is not None:
            # lost after its answer (while drawing thumbnails, or on its way out): the
            # document was read whole, and goes on as read, without the images to come
            log.warning("%s: %s", task.display_name, error)
            result = answered or worker.read
            self._replace(worker)
            assert result is not None
            return result
        if isinstance(error, WorkerCrashed) and worker.process.exitcode == 86:
            error = MemoryLimitExceeded(error.message, file=task.display_name)
        log.warning("%s", error)
        pages, page_count, mime = worker.pages, worker.page_count, worker.mime
        self._replace(worker)
        if pages or task.options.get("goblin", {}).get("page_range"):
            # the pages read before it stay, as when the limit is met between pages; a
            # range of a split document says which of its pages are lost
            document = partial_document(task, error, elapsed, pages, page_count, mime,
                                        str(self.config.core.get("page_range") or ""))
            return WorkerResult(task, document, elapsed, worker.name)
        document = error_document(task, error, elapsed)
        return WorkerResult(task, document, elapsed, worker.name, error)

    def _drain(self, worker: _Worker, task: Task, elapsed: float) -> WorkerResult | None:
        """Take what a lost worker sent and the supervisor has not read yet: one that
        crashed right after sending a page, or its answer, is seen dead before that is
        read. The task's result when its answer was among them."""
        try:
            while worker.conn.poll(0):
                message = worker.conn.recv()
                if isinstance(message, PageRead):
                    worker.keep(message)
                elif isinstance(message, Reply | Thumbnails):
                    answered = self._answered(worker, task, message, elapsed)
                    if answered is not None:
                        return answered
        except (EOFError, OSError):
            pass
        return None

    def _replace(self, worker: _Worker) -> None:
        _kill(worker.process)
        worker.conn.close()
        fresh = self._spawn(self.workers.index(worker))
        worker.process, worker.conn, worker.name = fresh.process, fresh.conn, fresh.name
        worker.task, worker.read = None, None

    def close(self) -> None:
        for worker in self.workers:
            # A worker already gone needs no stop message; it is reaped below.
            with contextlib.suppress(BrokenPipeError, OSError):
                worker.conn.send(None)
        deadline = time.monotonic() + 2
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            _kill(worker.process)
            worker.conn.close()


def partial_document(task: Task, error: GoblinError, seconds: float, pages: dict[int, Page],
                     page_count: int | None, mime: str, page_range: str = "") -> Document:
    """The Document of a task whose worker was lost after reading ``pages``: those pages,
    then the rest of its page range as failed pages, and ``error`` saying so."""
    wanted = parse_page_range(str(task.options.get("goblin", {}).get("page_range")
                                  or page_range or ""))
    reached = max(pages, default=wanted[0] - 1 if wanted else 0)
    last = max(page_count or reached, reached)
    if wanted is not None:
        last = min(page_count or wanted[1], max(wanted[1], reached))
    unread = (f"not read: {error.kind}",)
    rest = [Page(number, "", "", "failed", 0.0, reason="error", reasons=unread)
            for number in range(reached + 1, last + 1)]
    if not pages:
        message = f"{error}; none of pages {reached + 1}-{last} had been read"
    elif rest:
        message = f"{error}; the {len(pages)} page(s) read before it are kept"
    else:
        span = f" of pages {wanted[0]}-{last}" if wanted is not None else ""
        message = f"{error}; every page{span} had been read and is kept"
    mime = mime or "application/octet-stream"
    return Document(
        name=task.display_name,
        mime=mime,
        # the whole document's count: a first page range lost this way still has the
        # ranges after it read by other workers
        metadata=normalise({}, mime=mime, page_count=page_count),
        pages=tuple(pages[number] for number in sorted(pages)) + tuple(rest),
        report=Report(errors=(ReportEntry(error.kind, message),), seconds=round(seconds, 4)),
    )


def _rss(pid: int | None) -> int:
    if pid is None:
        return 0
    import psutil  # only a pool watching its workers needs it: not loaded with goblin_core

    try:
        process = psutil.Process(pid)
        return int(process.memory_info().rss)
    except psutil.Error:
        return 0


def _kill(process: _Process) -> None:
    if process.is_alive():
        process.kill()
    process.join(5)


class SupervisedWorkers:
    """A long-lived supervised pool fed one task at a time.

    For callers that schedule work themselves (a Dask worker runs one of
    these): each call still gets the timeout, memory limit and crash
    isolation of the local executor, without paying a process start per task.
    """

    def __init__(self, config: Config, size: int = 1) -> None:
        self._pool = _Pool(config, size)

    def run_one(self, task: Task) -> TaskResult:
        return next(self._pool.run(deque([task])))

    @property
    def pids(self) -> tuple[int, ...]:
        """Process ids of the live workers (to watch their memory from outside)."""
        return tuple(w.process.pid for w in self._pool.workers)

    def close(self) -> None:
        self._pool.close()
