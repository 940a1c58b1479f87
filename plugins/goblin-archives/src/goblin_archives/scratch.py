"""A private temporary folder for readers that must write to disk, limits enforced while writing.

Some formats cannot be streamed member by member (solid 7z blocks, formats
only a system tool reads). Their members are written into a folder only
goblin can see, under a meter that stops the writer as soon as a member
or the whole archive expands past the limits, and the folder is removed
afterwards, whatever happened.
"""

from __future__ import annotations

import contextlib
import logging
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from goblin_core.child_environment import child_environment
from goblin_core.engines import ArchiveLimits
from goblin_core.errors import ExtractionTimeout, FileTooLarge, UnsafeArchive

log = logging.getLogger(__name__)

_POLL_SECONDS = 0.05


@dataclass
class ByteMeter:
    """Counts bytes written for one archive; raises the moment a limit is passed."""

    limits: ArchiveLimits
    packed_size: int
    display: str
    total: int = 0
    files: int = 0

    @property
    def total_ceiling(self) -> int:
        """Most bytes the whole archive may expand to: the total limit, and the ratio."""
        by_ratio = int(self.packed_size * self.limits.max_ratio) + self.limits.ratio_grace_bytes
        return min(self.limits.max_total_bytes, by_ratio)

    def add(self, amount: int, member_bytes: int, member: str) -> None:
        self.total += amount
        if member_bytes > self.limits.max_member_size:
            raise FileTooLarge(
                f"member expands past limits.max_member_size ({self.limits.max_member_size:,} "
                "bytes); stopped writing it",
                file=f"{self.display}/{member}",
            )
        self.check_total()

    def read(self, amount: int) -> None:
        """Count ``amount`` bytes a streamed member gave (its size the core checks itself)."""
        self.total += amount
        self.check_total()

    def check_total(self) -> None:
        if self.total > self.total_ceiling:
            raise UnsafeArchive(
                f"expanded {self.total:,} bytes from {self.packed_size:,}: over "
                f"limits.max_ratio ({self.limits.max_ratio:g}:1) for the archive as a whole "
                "or limits.max_total_bytes; stopped (a bomb of many small members, or raise "
                "the limit)",
                file=self.display,
            )

    def count_file(self) -> None:
        self.files += 1
        if self.files > self.limits.max_members:
            raise UnsafeArchive(
                f"more than limits.max_members ({self.limits.max_members:,}) members; stopped",
                file=self.display,
            )


@dataclass
class Scratch:
    """A private temporary folder, removed by ``close()`` (or the ``with`` block)."""

    prefix: str = "goblin-archive-"
    path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix=self.prefix))
        os.chmod(self.path, 0o700)

    def close(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_watched(argv: Sequence[str], folder: Path, meter: ByteMeter, timeout: float,
                stdin_path: Path | None = None,
                output_bytes: int = 1 << 20,
                password: str | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run a tool that writes into ``folder``, killing it when it writes too much or too long.

    The tool runs in its own process group with a per-file size limit
    (RLIMIT_FSIZE) as a second line of defence; the folder is measured every
    few milliseconds while it runs. At most ``output_bytes`` of its standard
    output and error are kept.

    ``password`` is written to the tool's standard input, one line, for a tool
    that asks for it there (7-Zip, bsdtar): a command line is readable by every
    user of the machine (``ps``), a pipe only by the tool. The tool has no
    terminal (its own session), so it reads the answer from standard input.
    """
    file_limit = meter.limits.max_member_size + 1

    def limit_child() -> None:  # runs in the child between fork and exec
        os.setsid()
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)

    if password is not None and stdin_path is not None:
        raise ValueError("a tool reads either a file or a password on its standard input")
    stdin: Any = subprocess.DEVNULL
    if stdin_path:
        stdin = open(stdin_path, "rb")  # noqa: SIM115
    elif password is not None:
        stdin = subprocess.PIPE
    # Output goes to files, not pipes: a chatty tool must never block on a full pipe.
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            list(argv), cwd=folder, stdin=stdin, stdout=out, stderr=err,
            preexec_fn=limit_child, env=child_environment(),
        )
        if password is not None:
            _answer(process, password)
        deadline = time.monotonic() + timeout
        try:
            while process.poll() is None:
                _measure(folder, meter)
                if time.monotonic() > deadline:
                    raise ExtractionTimeout(
                        f"{argv[0]} ran over archives.tool_timeout ({timeout:g}s)",
                        file=meter.display)
                time.sleep(_POLL_SECONDS)
            _measure(folder, meter)
        finally:
            _stop(process)
            if stdin_path:
                stdin.close()
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(list(argv), process.returncode,
                                           out.read(output_bytes), err.read(1 << 20))


def _answer(process: subprocess.Popen[bytes], password: str) -> None:
    """Write ``password`` and a newline to the tool's standard input, then close it.

    The pipe is never waited on: a pipe buffer holds 64 KiB, far more than a
    password, and a tool that exits without reading it must not stop goblin.
    """
    assert process.stdin is not None
    pipe = process.stdin
    os.set_blocking(pipe.fileno(), False)
    try:
        os.write(pipe.fileno(), password.encode("utf-8") + b"\n")
    except (BrokenPipeError, BlockingIOError):
        log.debug("the tool did not take the password from its standard input")
    finally:
        pipe.close()


def _measure(folder: Path, meter: ByteMeter) -> None:
    total = 0
    files = 0
    for root, _dirs, names in os.walk(folder):
        for name in names:
            files += 1
            try:
                size = os.lstat(os.path.join(root, name)).st_size
            except FileNotFoundError:  # the tool renamed or removed it meanwhile
                continue
            total += size
            if size > meter.limits.max_member_size:
                meter.add(0, size, name)
    meter.total = total
    meter.files = files - 1
    meter.count_file()
    meter.check_total()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
