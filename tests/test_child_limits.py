"""capped_child: the caps a command-line tool runs under bind the tool, not goblin."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path

from goblin_core.child_limits import capped_child

GROW = "b = bytearray(600 * 1024 * 1024); print(len(b))"


def test_no_cap_asked_means_no_setup() -> None:
    assert capped_child(0, 0) is None


def test_the_memory_cap_stops_a_child_that_grows_past_it() -> None:
    capped = subprocess.run([sys.executable, "-c", GROW], capture_output=True, check=False,
                            preexec_fn=capped_child(400 * 1024 * 1024))
    assert capped.returncode != 0 and b"MemoryError" in capped.stderr
    free = subprocess.run([sys.executable, "-c", GROW], capture_output=True, check=False)
    assert free.returncode == 0


def test_the_file_size_cap_stops_a_child_writing_past_it(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    write = f"open({str(target)!r}, 'wb').write(bytes(5_000_000))"
    done = subprocess.run([sys.executable, "-c", write], capture_output=True, check=False,
                          preexec_fn=capped_child(0, 1_000_000))
    assert done.returncode in (-signal.SIGXFSZ, 1)
    assert target.stat().st_size <= 1_000_000


def test_goblin_s_own_limits_are_left_as_they_were() -> None:
    before = resource.getrlimit(resource.RLIMIT_AS), resource.getrlimit(resource.RLIMIT_FSIZE)
    subprocess.run([sys.executable, "-c", "pass"], check=True,
                   preexec_fn=capped_child(400 * 1024 * 1024, 1_000_000))
    assert (resource.getrlimit(resource.RLIMIT_AS),
            resource.getrlimit(resource.RLIMIT_FSIZE)) == before
