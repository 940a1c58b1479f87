"""``goblin extract --executor dask`` in a real process, against the local executor's output."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import dask
import pytest
from distributed import LocalCluster


@pytest.fixture(scope="module")
def cluster() -> Any:
    with dask.config.set({"distributed.worker.daemon": False}), LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as running:
        yield running


def _run(folder: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "goblin_core.cli", "extract", str(folder), "-o", str(out),
               "--jobs", "2", "--progress", *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def test_a_batch_on_a_dask_scheduler_writes_what_the_local_executor_writes(
    tmp_path: Path, cluster: Any
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(6):
        (folder / f"doc{i}.txt").write_text(f"Documento {i}: licitação.\n", encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    local = _run(folder, tmp_path / "local")
    remote = _run(folder, tmp_path / "dask", "--executor", "dask",
                  "--scheduler", cluster.scheduler_address)
    assert local.returncode == remote.returncode == 1, remote.stderr
    assert "CorruptDocument" in remote.stderr and "pages/s" in remote.stderr
    names = sorted(p.name for p in (tmp_path / "local").iterdir() if p.suffix == ".txt")
    assert names == sorted(p.name for p in (tmp_path / "dask").iterdir() if p.suffix == ".txt")
    assert len(names) == 7  # the empty file has its result too: the error
    for name in names:
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_urls_given_on_the_command_line_are_read_by_the_dask_workers(
    tmp_path: Path, cluster: Any
) -> None:
    """The workers fetch URLs (README: any fsspec URL they can reach): the command line hands
    them on as they are, named as given, where they were read as paths no file has."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("the first by URL\n", encoding="utf-8")
    second.write_text("the second by URL\n", encoding="utf-8")
    urls = [first.as_uri(), second.as_uri()]
    command = [sys.executable, "-m", "goblin_core.cli", "extract", *urls, "--executor", "dask",
               "--scheduler", cluster.scheduler_address]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (f'file_path_pwd:"{urls[0]}"\nthe first by URL\n\n'
                             f'file_path_pwd:"{urls[1]}"\nthe second by URL\n')


def test_a_batch_stopped_on_the_cluster_goblin_starts_prints_goblin_s_lines_alone(
    tmp_path: Path, fixture_plugin: None, request: pytest.FixtureRequest
) -> None:
    """SIGTERM while documents are read on the LocalCluster: exit status 143 and goblin's
    one-line messages, not the warnings of Dask's processes cancelling their tasks, nor
    Dask's warning that its default HTTP port (8787) is taken, as by another cluster."""
    taken = socket.socket()
    with contextlib.suppress(OSError):  # already taken is as good
        taken.bind(("", 8787))
        taken.listen()
    request.addfinalizer(taken.close)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("read at once\n", encoding="utf-8")
    for i in range(2):
        (folder / f"slow{i}.sleepy").write_bytes(b"GOBLIN-SLEEPY 60\n")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "goblin_core.cli", "extract", str(folder), "-o", str(out),
               "--executor", "dask", "--jobs", "3"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        deadline = time.monotonic() + 300
        while not (out / "a.txt.txt").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1)  # the sleepy documents are being read on the other workers
        process.send_signal(signal.SIGTERM)
        try:
            _, stderr = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            pytest.fail("the stopped batch did not end within 120 s")
    assert process.returncode == 143, stderr
    lines = stderr.splitlines()
    assert any("stopped by SIGTERM" in line for line in lines), stderr
    assert all(line.startswith("goblin: ") for line in lines), stderr
