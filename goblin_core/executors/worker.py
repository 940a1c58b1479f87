"""What runs inside a worker process: receive Tasks, send back Documents.

A worker is a plain child interpreter running :func:`main` (``python -c "from
goblin_core.executors.worker import main; main()" FD``), never a
multiprocessing child: spawning would re-import the caller's ``__main__``,
and a script without an ``if __name__ == "__main__"`` guard would then start
its whole batch again inside every worker. The supervisor talks to it over
one end of a socket pair, inherited as file descriptor FD.
"""

from __future__ import annotations

import logging
import os
import resource
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goblin_core.engines import Task, TaskResult
from goblin_core.errors import ERROR_KINDS, GoblinError, UnreadableFile
from goblin_core.executors.error_state import ErrorState
from goblin_core.executors.process_tree import kill_process_tree
from goblin_core.inputs import InputProblem
from goblin_core.model import Document, Page, Report, ReportEntry

if TYPE_CHECKING:  # the registry is loaded by the worker, not by importing this module
    from goblin_core.config import Config
    from goblin_core.registry import Registry

#: Exit code a worker uses when it ran out of memory, so the supervisor can say so.
OUT_OF_MEMORY_EXIT = 86

#: Exit code of a worker that stopped because its supervisor was gone.
SUPERVISOR_GONE_EXIT = 87

#: What a worker sends when it begins a task. The supervisor starts the
#: per-document clock then: importing every plugin in a fresh process can take
#: longer than a short timeout, and must not count against the first document.
STARTED = "goblin-worker:started"


@dataclass(frozen=True)
class PageRead:
    """A page of the task's document, sent as soon as it is read (its first engine's
    text): what the supervisor keeps should it have to kill the worker later on."""

    page: Page
    page_count: int | None
    mime: str


def error_document(task: Task, error: GoblinError, seconds: float = 0.0) -> Document:
    """A Document standing for a task that produced nothing but an error: the file's
    type, size and hash when the pipeline had learnt them before it stopped."""
    return Document(
        name=task.display_name,
        mime=error.detected_mime or "application/octet-stream",
        sha256=error.sha256,
        size=error.size,
        report=Report(errors=(ReportEntry(error.kind, str(error)),), seconds=round(seconds, 4)),
    )


def problem_document(problem: InputProblem, name: str | None = None) -> Document:
    """The Document, named ``name`` (else by the path), of an input that could not be
    walked (missing, a loop, unreadable).

    Its report has the kind ``extract`` would raise for the same path:
    UnreadableFile (missing, no permission, a folder loop) or UnsupportedFormat
    (not a regular file), never the bare base class; the command line reports the same
    kind, so a file missing when the run starts and one gone by the time its turn
    comes are counted alike.
    """
    error_type = ERROR_KINDS.get(problem.kind, UnreadableFile)
    error = error_type(problem.message, file=problem.path)
    return error_document(Task(None, name or problem.path), error)


@dataclass(frozen=True)
class Reply:
    """A worker's answer to a task: the Document, and the error whole when it raised one."""

    document: Document
    error: ErrorState | None = None


@dataclass(frozen=True)
class WorkerResult(TaskResult):
    """A TaskResult that also carries, whole, the error that left the document unread.

    ``extract(..., isolate=True)`` raises it, as the in-process call would.
    """

    error: GoblinError | None = None
    #: The trust report's page images of the document (data URIs keyed by document name
    #: and page), when the executor was asked to draw them.
    thumbnails: Mapping[tuple[str, int], str] = field(default_factory=dict)


@dataclass(frozen=True)
class Thumbnails:
    """What a worker started to draw thumbnails sends after each Reply: the trust report's
    page images of the document (data URIs keyed by document name and page), drawn where
    it was read, so a batch draws them on every core; empty when it has none."""

    images: dict[tuple[str, int], str]


def extract_task(task: Task, settings: dict[str, Any]) -> Document:
    """Run one task through the pipeline in this process; errors become the report."""
    return run_task(task, settings).document


def run_task(task: Task, settings: dict[str, Any]) -> Reply:
    """Run one task in this process: its Document, and the error the pipeline raised."""
    from goblin_core.inputs import as_source
    from goblin_core.pipeline import Pipeline
    from goblin_core.registry import default_registry

    registry = default_registry()
    config = _task_config(registry, task, settings)
    value: Any = task.data if task.data is not None else task.path
    source = as_source(value, task.display_name)
    try:
        return Reply(Pipeline(registry, config).run(source))
    except GoblinError as exc:
        return Reply(error_document(task, exc), ErrorState.of(exc))
    finally:
        if not source.is_file:
            source.cleanup()


def _task_config(registry: Registry, task: Task, settings: dict[str, Any]) -> Config:
    return registry.config(None, **{**settings, **dict(task.options)})


def page_thumbnails(task: Task, settings: dict[str, Any],
                    document: Document) -> dict[tuple[str, int], str]:
    """The trust report's thumbnails of ``document``, read from the file of ``task``;
    none for a task without a file (bytes) or when drawing them fails: they are
    decoration, and the document stays as it was read."""
    if task.path is None or task.data is not None:
        return {}
    from goblin_core.registry import default_registry
    from goblin_core.trust_report.thumbnails import thumbnails_for

    registry = default_registry()
    try:
        return thumbnails_for(registry, _task_config(registry, task, settings), Path(task.path),
                              document)
    except Exception as exc:  # MemoryError too: this worker still has its next task to do
        logging.getLogger(__name__).warning("no thumbnails for %s: %s", task.display_name, exc)
        return {}


def _load_plugins() -> None:
    from goblin_core.registry import default_registry

    default_registry()


#: Least room the address-space cap leaves above an idle worker. The supervisor
#: polls resident memory every 0.1 s (executors.local) and reports MemoryLimitExceeded; the
#: cap is only the backstop for what grows faster than that (or one huge
#: allocation), so it must sit well above limits.max_memory: an allocation it
#: refuses surfaces as the parser's MemoryError, not as the limit.
BACKSTOP_MIN_BYTES = 1024**3


def _limit_memory(max_memory: int) -> None:
    # The address-space cap stops a runaway allocation before it takes the whole
    # machine down. Set once the plugins are loaded, above the address space they
    # already take: like limits.max_memory it bounds what a document adds, and a
    # small limit must not make a plugin's import fail.
    if max_memory <= 0:
        return
    import psutil  # only workers need it: not loaded with goblin_core itself

    room = max(max_memory * 2, BACKSTOP_MIN_BYTES)
    cap = psutil.Process().memory_info().vms + room
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):
        return


def _quiet_logging() -> None:
    # Every problem a worker meets comes back in its Document's report; without
    # a handler, Python's last-resort handler would print each log warning on
    # the parent's stderr a second time.
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())


#: Seconds between a worker's checks that its supervisor is still alive.
PARENT_CHECK_SECONDS = 0.5


def _exit_with_supervisor(supervisor: int) -> None:
    """End this process soon after the supervisor ``supervisor`` (a PID) is gone.

    A supervisor stopped outright (SIGKILL, a crash, a signal it does not
    catch) never sends the stop message, and a worker in the middle of a long
    document would go on with it for nothing, holding a core and its memory,
    until it found the socket closed. An orphan is handed to another parent,
    so its parent PID changes: a thread watches for that, since the main
    thread may be inside a native call for minutes. The helper processes the
    worker started go with it, as they do when the supervisor kills a worker.
    """
    def watch() -> None:
        while os.getppid() == supervisor:
            time.sleep(PARENT_CHECK_SECONDS)
        kill_process_tree(os.getpid(), include_root=False)
        os._exit(SUPERVISOR_GONE_EXIT)

    threading.Thread(target=watch, name="goblin-supervisor-watch", daemon=True).start()


def worker_main(
    conn: Connection, settings: dict[str, Any], env: dict[str, str], max_memory: int,
    thumbnails: bool = False,
) -> None:
    """Loop: receive a Task (None stops), say STARTED, answer with a Reply, then with its
    Thumbnails when ``thumbnails``: the Reply goes first, so a renderer that crashes or
    hangs this worker costs its supervisor the thumbnails only."""
    os.environ.update(env)
    # Ctrl-C reaches the whole process group; the supervisor decides how a
    # batch stops, and closes its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Some libraries print diagnostics to stdout; a worker's stdout is the
    # parent's, where results may be streaming, so send them to stderr instead.
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _quiet_logging()
    _load_plugins()
    _limit_memory(max_memory)
    from goblin_core.pipeline import pages_passed_to

    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        if not _told(conn, STARTED):
            return
        try:
            with pages_passed_to(lambda *read: conn.send(PageRead(*read))):
                reply = run_task(task, settings)
        except MemoryError:
            os._exit(OUT_OF_MEMORY_EXIT)
        if not _told(conn, reply):
            return
        if thumbnails and not _told(
                conn, Thumbnails(page_thumbnails(task, settings, reply.document))):
            return


def _told(conn: Connection, message: object) -> bool:
    """Send ``message``; False when the supervisor has closed its end (it stopped or gave up
    on this worker), which ends the worker quietly rather than with a traceback."""
    try:
        conn.send(message)
    except OSError:
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    """Entry point of a worker interpreter, given the inherited socket's FD.

    The first message on the socket is the start-up bundle the supervisor
    sends: the parent's ``sys.path`` (so the child imports what the parent
    does), the settings, the environment additions and the memory limit.
    """
    supervisor = os.getppid()
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not args[0].isdigit():
        sys.stderr.write(
            "usage: a goblin worker takes one FD argument (started by the local executor)\n"
        )
        raise SystemExit(2)
    _exit_with_supervisor(supervisor)
    conn = Connection(socket.socket(fileno=int(args[0])).detach())
    try:
        startup = conn.recv()
    except (EOFError, OSError):
        return
    sys.path[:] = [entry for entry in startup["sys_path"] if entry] + [
        entry for entry in sys.path if entry not in startup["sys_path"]
    ]
    worker_main(conn, startup["settings"], startup["env"], startup["max_memory"],
                bool(startup.get("thumbnails")))
