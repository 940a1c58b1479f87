"""What runs inside a worker process: receive Tasks, send back Documents."""

from __future__ import annotations

import logging
import os
import resource
import sys
from multiprocessing.connection import Connection
from typing import Any

from goblin_core.engines import Task
from goblin_core.errors import GoblinError
from goblin_core.model import Document, Report, ReportEntry

#: Exit code a worker uses when it ran out of memory, so the supervisor can say so.
OUT_OF_MEMORY_EXIT = 86

#: What a worker sends when it begins a task. The supervisor starts the
#: per-document clock then: importing every plugin in a fresh process can take
#: longer than a short timeout, and must not count against the first document.
STARTED = "goblin-worker:started"


def error_document(task: Task, error: GoblinError, seconds: float = 0.0) -> Document:
    """A Document standing for a task that produced nothing but an error."""
    return Document(
        name=task.display_name,
        mime="application/octet-stream",
        report=Report(errors=(ReportEntry(error.kind, str(error)),), seconds=round(seconds, 4)),
    )


def extract_task(task: Task, settings: dict[str, Any]) -> Document:
    """Run one task through the pipeline in this process; errors become the report."""
    from goblin_core.inputs import as_source
    from goblin_core.pipeline import Pipeline
    from goblin_core.registry import default_registry

    registry = default_registry()
    config = registry.config(None, **{**settings, **dict(task.options)})
    value: Any = task.data if task.data is not None else task.path
    source = as_source(value, task.display_name)
    try:
        return Pipeline(registry, config).run(source)
    except GoblinError as exc:
        return error_document(task, exc)
    finally:
        if not source.is_file:
            source.cleanup()


def _load_plugins() -> None:
    from goblin_core.registry import default_registry

    default_registry()


def _limit_memory(max_memory: int) -> None:
    # The supervisor also watches RSS; the address-space cap stops a runaway
    # allocation before it takes the whole machine down with it.
    if max_memory <= 0:
        return
    cap = max_memory * 2
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


def worker_main(
    conn: Connection, settings: dict[str, Any], env: dict[str, str], max_memory: int
) -> None:
    """Loop: receive a Task (None stops), say STARTED, reply with a Document."""
    os.environ.update(env)
    # Some libraries print diagnostics to stdout; a worker's stdout is the
    # parent's, where results may be streaming, so send them to stderr instead.
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _quiet_logging()
    _limit_memory(max_memory)
    _load_plugins()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        conn.send(STARTED)
        try:
            document = extract_task(task, settings)
        except MemoryError:
            os._exit(OUT_OF_MEMORY_EXIT)
        conn.send(document)
