"""The Dask executor on a real LocalCluster with two worker processes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import dask
import pytest
from distributed import Client, LocalCluster

from goblin_core import Document, default_registry
from goblin_core.inputs import tasks_for

TIMING_KEYS = {"seconds"}


def _strip_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, (list, tuple)):
        return [_strip_timing(v) for v in value]
    return value


def _canonical(documents: list[Document]) -> list[str]:
    rows = [json.dumps(_strip_timing(d.to_dict()), sort_keys=True, ensure_ascii=False)
            for d in documents]
    return sorted(rows)


@pytest.fixture(scope="module")
def cluster() -> Any:
    with dask.config.set({"distributed.worker.daemon": False}), LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as running:
        yield running


def _write_texts(folder: Path, count: int) -> None:
    for i in range(count):
        (folder / f"doc{i:03d}.txt").write_text(f"Documento número {i}: licitação aberta.\n",
                                                encoding="utf-8")



def test_outputs_match_the_local_executor_byte_for_byte(tmp_path: Path, cluster: Any) -> None:
    _write_texts(tmp_path, 12)
    (tmp_path / "empty.txt").write_bytes(b"")
    registry = default_registry()
    tasks = [t for t in tasks_for([tmp_path])]
    local_config = registry.config()
    dask_config = registry.config(dask={"scheduler": cluster.scheduler_address})
    local = [r.document for r in registry.get("executor.local").engine.run(tasks, local_config,
                                                                          jobs=2)]
    remote = [r.document for r in registry.get("executor.dask").engine.run(tasks, dask_config)]
    assert len(remote) == len(tasks) == 13
    assert _canonical(remote) == _canonical(local)


def test_a_local_cluster_starts_when_no_scheduler_is_named(tmp_path: Path) -> None:
    _write_texts(tmp_path, 3)
    registry = default_registry()
    tasks = [t for t in tasks_for([tmp_path])]
    results = list(registry.get("executor.dask").engine.run(tasks, registry.config(), jobs=2))
    assert sorted(r.document.name for r in results) == ["doc000.txt", "doc001.txt", "doc002.txt"]
    assert all(r.document.status == "clean" for r in results)


def test_urls_given_to_extract_many_are_read_by_the_dask_workers(tmp_path: Path,
                                                                  cluster: Any) -> None:
    # the API walked a URL as a path ("https:/host/x: no such file or folder"), so only
    # the command line handed URLs to the workers
    from goblin_core import extract_many

    (tmp_path / "edital.txt").write_text("Edital lido pela URL.\n", encoding="utf-8")
    url = (tmp_path / "edital.txt").as_uri()
    [document] = list(extract_many([url], executor="executor.dask",
                                   dask={"scheduler": cluster.scheduler_address}))
    assert (document.name, document.status) == (url, "clean")
    assert document.text.strip() == "Edital lido pela URL."


def test_per_document_limits_apply_on_the_cluster(tmp_path: Path, cluster: Any,
                                                  fixture_plugin: None) -> None:
    (tmp_path / "hangs.sleepy").write_bytes(b"GOBLIN-SLEEPY 60\n")
    (tmp_path / "crashes.crashy").write_bytes(b"GOBLIN-CRASHY\n")
    _write_texts(tmp_path, 2)
    registry = default_registry()
    config = registry.config(timeout=3, dask={"scheduler": cluster.scheduler_address})
    tasks = [t for t in tasks_for([tmp_path])]
    docs = {r.document.name: r.document
            for r in registry.get("executor.dask").engine.run(tasks, config)}
    assert docs["hangs.sleepy"].report.error_kinds == ("ExtractionTimeout",)
    assert docs["crashes.crashy"].report.error_kinds == ("WorkerCrashed",)
    assert docs["doc000.txt"].status == docs["doc001.txt"].status == "clean"


def test_a_worker_killed_mid_run_loses_no_document(tmp_path: Path, fixture_plugin: None) -> None:
    for i in range(16):
        (tmp_path / f"slow{i:02d}.sleepy").write_bytes(b"GOBLIN-SLEEPY 0.5\n")
    registry = default_registry()
    tasks = [t for t in tasks_for([tmp_path])]
    with dask.config.set({"distributed.worker.daemon": False}), LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as own_cluster, Client(own_cluster) as client:
        pids = list(client.run(os.getpid).values())
        config = registry.config(dask={"scheduler": own_cluster.scheduler_address})
        seen: list[Document] = []
        for result in registry.get("executor.dask").engine.run(tasks, config):
            seen.append(result.document)
            if len(seen) == 2:
                # Kill a whole Dask worker process (and with it its goblin child).
                threading.Thread(target=os.kill, args=(pids[0], signal.SIGKILL)).start()
    assert sorted(d.name for d in seen) == sorted(t.display_name for t in tasks)
    assert all(d.text == "slept 0.5 seconds" for d in seen), [d.report for d in seen]


def test_two_runs_on_one_scheduler_each_get_their_own_documents(
    tmp_path: Path, cluster: Any, fixture_plugin: None
) -> None:
    """Two batches sharing a scheduler at once, each with a first document ``a.sleepy``:
    each gets the text of its own file, not the other run's."""
    registry = default_registry()
    config = registry.config(dask={"scheduler": cluster.scheduler_address})
    seconds = {"first": "1.5", "second": "0.5"}
    texts: dict[str, list[str]] = {}

    def run(label: str) -> None:
        folder = tmp_path / label
        folder.mkdir()
        (folder / "a.sleepy").write_bytes(f"GOBLIN-SLEEPY {seconds[label]}\n".encode())
        tasks = list(tasks_for([folder]))
        texts[label] = [r.document.text
                        for r in registry.get("executor.dask").engine.run(tasks, config)]

    runs = [threading.Thread(target=run, args=(label,)) for label in seconds]
    for thread in runs:
        thread.start()
    for thread in runs:
        thread.join()
    assert texts == {label: [f"slept {s} seconds"] for label, s in seconds.items()}


def test_a_document_whose_dask_worker_keeps_dying_fails_as_a_crashed_worker(
    tmp_path: Path, fixture_plugin: None
) -> None:
    """The error a lost worker leaves is the local executor's: WorkerCrashed, naming it."""
    (tmp_path / "slow.sleepy").write_bytes(b"GOBLIN-SLEEPY 30\n")
    registry = default_registry()
    tasks = list(tasks_for([tmp_path]))
    with dask.config.set({"distributed.worker.daemon": False,
                          "distributed.scheduler.allowed-failures": 0}), LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as own_cluster, Client(own_cluster) as client:
        pid = next(iter(client.run(os.getpid).values()))
        config = registry.config(dask={"scheduler": own_cluster.scheduler_address, "retries": 0})
        threading.Timer(8, os.kill, args=(pid, signal.SIGKILL)).start()
        results = list(registry.get("executor.dask").engine.run(tasks, config))
    [document] = [r.document for r in results]
    assert document.name == "slow.sleepy"
    assert document.report.error_kinds == ("WorkerCrashed",)
    assert "Dask worker" in document.report.errors[0].message


def test_retries_count_the_lost_workers_of_the_cluster_goblin_starts(
    tmp_path: Path, fixture_plugin: None
) -> None:
    """``dask.retries = 0``: the LocalCluster's scheduler gives a document up when the worker
    running it dies once, where it retried it three times whatever the option said."""
    import psutil

    (tmp_path / "slow.sleepy").write_bytes(b"GOBLIN-SLEEPY 20\n")
    registry = default_registry()
    tasks = list(tasks_for([tmp_path]))

    def kill_the_dask_worker_reading_it() -> None:
        # the goblin worker reading the document is a child of the Dask worker process;
        # on a loaded machine the cluster takes a while to start it, so look until it runs
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for process in psutil.Process().children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if "goblin_core.executors.worker" in " ".join(process.cmdline()):
                        # one just started may still be importing, not yet reading
                        time.sleep(max(0.0, process.create_time() + 5 - time.time()))
                        os.kill(process.ppid(), signal.SIGKILL)
                        return
            time.sleep(0.5)

    threading.Timer(10, kill_the_dask_worker_reading_it).start()
    config = registry.config(dask={"retries": 0, "workers": 1})
    [document] = [r.document for r in registry.get("executor.dask").engine.run(tasks, config)]
    assert document.report.error_kinds == ("WorkerCrashed",), document.text
