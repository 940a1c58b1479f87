"""The Dask executor: goblin's supervised extraction spread over a Dask cluster.

Each Dask worker process keeps one supervised goblin worker (the local
executor's pool of size one, through a WorkerPlugin), so every document gets
the same per-document timeout, memory limit and crash isolation as on one
machine. Dask adds the scheduling: tasks go wherever there is room, results
stream back as they finish, and a lost worker's tasks are retried elsewhere.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, Task, TaskResult
from goblin_core.errors import EngineUnavailable, GoblinError, WorkerCrashed
from goblin_core.executors.worker import error_document

log = logging.getLogger(__name__)

class DaskExecutor(BaseEngine):
    """Extraction on a Dask cluster: ``[dask] scheduler`` names it, or a LocalCluster starts."""

    name = "executor.dask"
    priority = 0
    #: The workers read a task whose path is an fsspec URL themselves (``remote_input``):
    #: ``goblin extract s3://bucket/a.pdf --executor dask`` hands the URL on as it is.
    reads_urls = True

    def available(self) -> tuple[bool, str]:
        try:
            import distributed  # noqa: F401
        except ImportError as exc:
            return False, f"dask.distributed cannot be imported ({exc}): pip install goblin-dask"
        return True, ""

    def run(
        self, tasks: Iterable[Task], config: Config, jobs: int | None = None
    ) -> Iterator[TaskResult]:
        """Submit every task; yield TaskResults as they complete."""
        # Imported here: importing dask.distributed takes seconds, and every
        # goblin process loads this plugin whether it uses Dask or not.
        from distributed import as_completed

        from goblin_dask.worker_side import POOL_PLUGIN, SupervisedPoolPlugin, run_on_worker

        options = config.section("dask")
        todo = list(tasks)
        if not todo:
            return
        with self._client(options, jobs, config) as client:
            client.register_plugin(SupervisedPoolPlugin(config.to_dict()), name=POOL_PLUGIN)
            retries = int(options.get("retries", 2))
            # A scheduler takes a key it already holds for the same task: without this
            # run's own token, two runs on one shared scheduler, each with a document 0
            # named a.pdf, were both given the result of the one submitted first.
            run = uuid.uuid4().hex
            futures = [
                client.submit(run_on_worker, task, pure=False, retries=retries,
                              key=f"goblin-{task.index}-{task.display_name}-{run}")
                for task in todo
            ]
            by_key = {f.key: t for f, t in zip(futures, todo, strict=True)}
            for future in as_completed(futures):
                yield self._result(future, by_key[future.key])

    def _result(self, future: Any, task: Task) -> TaskResult:
        try:
            result: TaskResult = future.result()
        except Exception as exc:  # a task that failed on every retry still yields a document
            error = _cluster_error(exc, task)
            log.warning("%s", error)
            return TaskResult(task, error_document(task, error))
        return result

    @contextlib.contextmanager
    def _client(self, options: Any, jobs: int | None, config: Config) -> Iterator[Any]:
        import dask
        from distributed import Client, LocalCluster

        address = str(options.get("scheduler", ""))
        if address:
            try:
                client = Client(address, timeout="20s")
            except OSError as exc:
                raise EngineUnavailable(
                    f"cannot reach the Dask scheduler at {address}: {exc}"
                ) from exc
            with client:
                yield client
            return
        workers = int(options.get("workers", 0)) or jobs or None
        # Supervised goblin workers are child processes; Dask's default daemonic
        # workers may not start children. A task whose worker is lost is retried by the
        # scheduler up to its allowed-failures (submit's retries count only tasks that
        # raised, which run_on_worker never lets happen): the scheduler started here
        # takes dask.retries as that count.
        with dask.config.set({"distributed.worker.daemon": False,
                              "distributed.scheduler.allowed-failures":
                                  int(options.get("retries", 2))}), LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            memory_limit=str(options.get("memory_limit", "auto")),
            dashboard_address=None,
            # the scheduler's HTTP server on a free port of this machine: on its default,
            # 8787, a second batch at once (or any other cluster) printed a warning
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=_cluster_log_level(),
        ) as cluster, Client(cluster) as client:
            yield client


def _cluster_log_level() -> int:
    """The least level the cluster's own processes log at: Dask's warnings (a task
    cancelled as a stopped batch closes the cluster, a worker restarted) when goblin
    logs warnings (``-v``), else its errors alone, as goblin's command line is quiet but
    for its own lines. What a lost worker costs a document is in that document's report."""
    return max(logging.WARNING, logging.getLogger().getEffectiveLevel())


def _cluster_error(exc: Exception, task: Task) -> GoblinError:
    """The error a task the cluster gave up on leaves in its document: a lost worker is
    WorkerCrashed, as the local executor reports one, with the worker's address."""
    from distributed.scheduler import KilledWorker

    if isinstance(exc, KilledWorker):
        tries = exc.allowed_failures + 1
        return WorkerCrashed(
            f"the Dask worker process running it died, {tries} time(s) on as many workers "
            f"(distributed.scheduler.allowed-failures), the last {exc.last_worker.address}",
            file=task.display_name)
    return GoblinError(f"failed on the cluster after retries: {type(exc).__name__}: {exc}",
                       file=task.display_name)
