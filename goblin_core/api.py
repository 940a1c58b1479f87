"""goblin's Python API: ``extract`` one document, ``extract_many`` in worker processes."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import Task, run_executor
from goblin_core.errors import ConfigError, GoblinError
from goblin_core.executors.local import check_jobs
from goblin_core.executors.worker import problem_document
from goblin_core.inputs import (
    InputProblem,
    PathsLike,
    SourceLike,
    as_source,
    input_paths,
    tasks_for,
)
from goblin_core.model import Document
from goblin_core.pipeline import Pipeline
from goblin_core.registry import Registry, default_registry

#: Held for every in-process extraction. Native engines (PDFium above all) are
#: not thread-safe: two threads inside them at once return wrong or empty text
#: still marked clean. Re-entrant, because an engine may extract a nested
#: document through ``extract`` on the same thread.
_IN_PROCESS = threading.RLock()

#: A Config, a config file's path, or its content as a mapping.
ConfigLike = Config | str | os.PathLike[str] | Mapping[str, Any] | None


def resolve_config(
    registry: Registry, config: ConfigLike, options: dict[str, Any]
) -> Config:
    """Config from a Config object, a file path (or $GOBLIN_CONFIG) or a mapping shaped as
    the file is, then call options."""
    if isinstance(config, Config):
        return config.with_options(**options) if options else config
    return registry.config(config, **options)


def extract(
    source: SourceLike,
    *,
    name: str | None = None,
    config: ConfigLike = None,
    isolate: bool = False,
    registry: Registry | None = None,
    **options: Any,
) -> Document:
    """Extract one document: a path, bytes, a binary file object or a Source.

    Options are the ``goblin`` and ``limits`` config options (``ocr="never"``,
    ``password="..."``, ``timeout=30``...) or a namespace with a mapping
    (``pdf={"password": "x"}``); anything else is a ConfigError. An option
    given as None is one not given: it keeps its configured value. A file that
    cannot be read at all raises a GoblinError; page-level problems are in
    ``document.report``. ``isolate=True`` runs it in a supervised worker
    process with a hard timeout and memory limit.

    Calls from several threads are safe but run one at a time: the native
    engines are not thread-safe, so the whole extraction holds one
    process-wide lock. To use several cores, use :func:`extract_many`
    (worker processes).

    >>> extract(b"hello", name="greeting.txt").text
    'hello'
    """
    if not isinstance(isolate, bool):
        # a string such as "no" would otherwise count as true
        raise ConfigError(f"isolate must be True or False, not {isolate!r}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string, not {type(name).__name__}")
    registry = registry or default_registry()
    cfg = resolve_config(registry, config, options)
    if isolate:
        return _extract_isolated(source, name, cfg)
    with _IN_PROCESS:
        src = as_source(source, name)
        try:
            return Pipeline(registry, cfg).run(src)
        finally:
            if not src.is_file:
                src.cleanup()


def _extract_isolated(source: SourceLike, name: str | None, config: Config) -> Document:
    from goblin_core.executors.local import LocalExecutor

    src = as_source(source, name)
    if not src.is_file:  # a stream is read only up to the limit before it goes to the worker
        src.check_size(int(config.limits["max_file_size"]))
    task = Task(
        path=str(src._path) if src.is_file else None,
        display_name=src.display_name,
        data=None if src.is_file else src.bytes(),
    )
    result = next(iter(LocalExecutor(jobs=1).run([task], config)))
    # The worker's error comes back whole (class, file, every attribute): raised
    # here as the in-process call would raise it.
    error = getattr(result, "error", None)
    if error is not None:
        raise src.located(error) if isinstance(error, GoblinError) else error
    return result.document


def extract_many(
    paths: PathsLike,
    *,
    jobs: int | None = None,
    config: ConfigLike = None,
    executor: str = "executor.local",
    registry: Registry | None = None,
    **options: Any,
) -> Iterator[Document]:
    """Extract many files (folders walked recursively) in worker processes.

    ``paths`` is one path or an iterable of paths, files or folders.

    Documents are yielded as they finish, not in input order; a file that
    fails yields a Document whose report holds the error, and the batch goes
    on. ``jobs`` is a whole number >= 1 and defaults to the CPU count; no
    more workers start than there are documents (or page ranges, with
    ``goblin.split_pages``), and at most 8 per CPU. Options, ``jobs`` and
    ``executor`` are checked when called (a ConfigError naming the bad one),
    before any document is read.
    """
    registry = registry or default_registry()
    cfg = resolve_config(registry, config, options)
    check_jobs(jobs)
    entry = registry.get(executor)
    if entry is None:
        raise ConfigError(
            f"no executor named {executor!r} is installed (executor.local is built in)"
        )
    return _documents(input_paths(paths), entry.engine, cfg, jobs)


def _documents(
    paths: list[str], engine: Any, config: Config, jobs: int | None
) -> Iterator[Document]:
    tasks: list[Task] = []
    problems: list[InputProblem] = []
    for item in tasks_for(paths, reads_urls=bool(getattr(engine, "reads_urls", False))):
        (problems if isinstance(item, InputProblem) else tasks).append(item)  # type: ignore[arg-type]
    for problem in problems:
        yield problem_document(problem)
    for result in run_executor(engine, tasks, config, jobs):
        yield result.document
