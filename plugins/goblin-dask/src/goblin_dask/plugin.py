"""Hook implementations of goblin-dask: the executor and its config namespace."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
from goblin_core.options import Option
from goblin_dask.executor import DaskExecutor

DASK_OPTIONS = (
    Option("scheduler", "str", "",
           "Scheduler address (tcp://host:8786). Empty: start a LocalCluster on this machine."),
    Option("workers", "int", 0,
           "Worker processes of the LocalCluster (0: the job count, else the CPU count).",
           minimum=0),
    Option("retries", "int", 2,
           "Times a document is retried when the worker running it is lost, on the "
           "LocalCluster goblin starts (a scheduler of your own retries as many times as its "
           "distributed.scheduler.allowed-failures says).", minimum=0),
    Option("memory_limit", "str", "auto",
           "Memory limit of each LocalCluster worker (dask syntax: 4GB, auto)."),
)


@hookimpl
def goblin_register_executors(register: Callable[[Any], None]) -> None:
    register(DaskExecutor())


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register("dask", DASK_OPTIONS, extra="dask",
             help="The Dask executor: where the cluster is and how documents are retried.")
