"""A batch stopped from outside leaves no worker behind and keeps what it finished.

Workers are busy on GOBLIN-SLEEPY documents (the example plugin's hung engine),
so only a worker that watches its supervisor, or a supervisor that closes its
workers, can end them before their ten minutes are up.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from test_cli_subprocess import goblin_script

from goblin_core.cli import app

#: Seconds a worker may outlive its supervisor: its watch looks twice a second.
WORKERS_GONE_WITHIN = 15
#: Seconds the batches below would run if nothing stopped them.
HUNG_SECONDS = 600

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals"),
]

BATCH_SCRIPT = """
import sys
from goblin_core import extract_many
for document in extract_many([sys.argv[1]], jobs=2, timeout=3600):
    print(document.name, flush=True)
"""


def fixtures_env() -> dict[str, str]:
    """This environment with only the example plugin's fixtures (and the built-in text parser)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOBLIN_")}
    env["GOBLIN_LOAD_PLUGINS"] = "example-fixtures"
    return env


def hung_batch(folder: Path) -> Path:
    folder.mkdir()
    (folder / "a.txt").write_text("lido antes da parada\n", encoding="utf-8")
    for name in ("b.sleepy", "c.sleepy"):
        (folder / name).write_bytes(b"GOBLIN-SLEEPY %d\n" % HUNG_SECONDS)
    return folder


def busy_workers(supervisor: subprocess.Popen[bytes], count: int) -> list[psutil.Process]:
    """The supervisor's ``count`` worker processes, once they are running their documents."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert supervisor.poll() is None, "the batch ended before it was stopped"
        workers = psutil.Process(supervisor.pid).children()
        if len(workers) == count:
            # loading one plugin takes well under this; then each worker has its document
            time.sleep(3)
            return workers
        time.sleep(0.1)
    pytest.fail(f"the batch did not start {count} workers within 60 s")


def assert_gone(workers: list[psutil.Process]) -> None:
    try:
        _, alive = psutil.wait_procs(workers, timeout=WORKERS_GONE_WITHIN)
        assert not alive, f"workers still running after their supervisor stopped: {alive}"
    finally:
        for worker in workers:
            if worker.is_running():
                worker.kill()


def test_workers_end_soon_after_their_supervisor_is_killed(tmp_path: Path) -> None:
    folder = hung_batch(tmp_path / "lote")
    supervisor = subprocess.Popen([sys.executable, "-c", BATCH_SCRIPT, str(folder)],
                                  env=fixtures_env(), stdout=subprocess.DEVNULL)
    try:
        workers = busy_workers(supervisor, 2)
    except BaseException:
        supervisor.kill()
        raise
    # SIGKILL: no finally runs in the supervisor, no stop message reaches a worker
    supervisor.kill()
    supervisor.wait(30)
    assert_gone(workers)


def test_sigterm_stops_a_cli_batch_and_keeps_what_it_wrote(tmp_path: Path) -> None:
    folder = hung_batch(tmp_path / "lote")
    output = tmp_path / "out"
    batch = subprocess.Popen([goblin_script(), "extract", str(folder), "-o", str(output),
                              "--jobs", "2"], env=fixtures_env(), stderr=subprocess.PIPE)
    try:
        workers = busy_workers(batch, 2)
        deadline = time.monotonic() + 60
        while not (output / "a.txt.txt").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        batch.send_signal(signal.SIGTERM)
        _, stderr = batch.communicate(timeout=60)
    finally:
        if batch.poll() is None:
            batch.kill()
    assert batch.returncode == 128 + signal.SIGTERM, stderr
    assert "stopped by SIGTERM; documents finished before it were written" in stderr.decode()
    assert (output / "a.txt.txt").read_text(encoding="utf-8") == (
        'file_path_pwd:"a.txt"\nlido antes da parada\n')
    rows = [json.loads(line) for line in
            (output / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [row["path"] for row in rows] == ["a.txt"]
    assert_gone(workers)


def test_only_signals_left_at_their_default_are_taken_over() -> None:
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is None:
        pytest.skip("no SIGHUP on this platform")
    before = signal.signal(hangup, signal.SIG_IGN)  # as nohup leaves it
    try:
        with app._stop_cleanly_on_termination():
            assert signal.getsignal(hangup) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is app._raise_terminated
            with pytest.raises(app.Terminated) as stopped:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(1)
            assert stopped.value.exit_code == 128 + signal.SIGTERM
            assert stopped.value.signal_name == "SIGTERM"
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        assert signal.getsignal(hangup) is signal.SIG_IGN
    finally:
        signal.signal(hangup, before)


HELPER_BATCH_SCRIPT = """
import sys
from goblin_core import extract_many
for document in extract_many([sys.argv[1]], jobs=1, timeout=float(sys.argv[2])):
    print(document.status, document.error, flush=True)
"""


def started_helper(pid_file: Path) -> psutil.Process:
    """The hanging helper a GOBLIN-HELPER document started, once it runs."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if pid_file.exists() and pid_file.read_text(encoding="ascii"):
            return psutil.Process(int(pid_file.read_text(encoding="ascii")))
        time.sleep(0.1)
    pytest.fail("the helper process did not start within 60 s")


def helper_document(tmp_path: Path) -> tuple[Path, Path]:
    pid_file = tmp_path / "helper.pid"
    document = tmp_path / "stuck.helper"
    document.write_bytes(b"GOBLIN-HELPER " + str(pid_file).encode() + b"\n")
    return document, pid_file


def test_a_worker_killed_over_its_time_limit_takes_its_helper_processes_with_it(
    tmp_path: Path,
) -> None:
    # the helper runs in its own session, as Tesseract does: killing the
    # worker alone, or its process group, would leave it running
    document, pid_file = helper_document(tmp_path)
    batch = subprocess.run([sys.executable, "-c", HELPER_BATCH_SCRIPT, str(document), "1"],
                           env=fixtures_env(), capture_output=True, text=True, timeout=120)
    helper = started_helper(pid_file)
    assert batch.returncode == 0, batch.stderr
    assert batch.stdout.startswith("failed"), batch.stdout
    assert "killed" in batch.stdout, batch.stdout
    assert_gone([helper])


def test_a_worker_whose_supervisor_is_killed_takes_its_helper_processes_with_it(
    tmp_path: Path,
) -> None:
    document, pid_file = helper_document(tmp_path)
    supervisor = subprocess.Popen([sys.executable, "-c", HELPER_BATCH_SCRIPT, str(document),
                                   "3600"], env=fixtures_env(), stdout=subprocess.DEVNULL)
    try:
        workers = busy_workers(supervisor, 1)
        helper = started_helper(pid_file)
    except BaseException:
        supervisor.kill()
        raise
    supervisor.kill()
    supervisor.wait(30)
    assert_gone([*workers, helper])
