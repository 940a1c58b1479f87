"""What runs on the Dask workers: a supervised goblin worker per Dask worker process."""

from __future__ import annotations

import time
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from goblin_core.config import Config
from goblin_core.engines import Task, TaskResult
from goblin_core.errors import GoblinError
from goblin_core.executors.worker import error_document
from goblin_dask.remote_input import materialise

POOL_PLUGIN = "goblin-supervised-pool"


class SupervisedPoolPlugin(WorkerPlugin):
    """A Dask WorkerPlugin that gives each worker process one supervised goblin worker."""

    name = POOL_PLUGIN

    def __init__(self, settings: dict[str, Any]) -> None:
        super().__init__()
        self.settings = settings
        self.pool: Any = None
        self.config: Config | None = None

    def setup(self, worker: Any) -> None:
        from goblin_core.executors.local import SupervisedWorkers
        from goblin_core.registry import default_registry

        self.config = default_registry().config(None, **self.settings)
        self.pool = SupervisedWorkers(self.config, size=1)

    def teardown(self, worker: Any) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None


def run_on_worker(task: Task) -> TaskResult:
    """Runs on a Dask worker: fetch the document if it is a URL, extract it supervised."""
    from distributed import get_worker

    # distributed types its plugin registry by the base class; ours is always this one
    plugin: SupervisedPoolPlugin = get_worker().plugins[POOL_PLUGIN]  # type: ignore[assignment]
    started = time.monotonic()
    max_bytes = int(plugin.config.limits["max_file_size"]) if plugin.config else 0
    try:
        ready = materialise(task, max_bytes)
    except (OSError, ValueError) as exc:
        error = GoblinError(f"cannot read it on the worker: {exc}", file=task.display_name)
        return TaskResult(task, error_document(task, error), time.monotonic() - started)
    result = plugin.pool.run_one(ready)
    return TaskResult(task, result.document, result.seconds, get_worker().address)
