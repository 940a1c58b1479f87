"""One Tesseract process, bounded in time and in what it may print.

pytesseract waits with ``communicate()``: everything the binary prints is held
in memory (100 MB of warnings took 800 MB), and on a timeout only the direct
child is killed. Here stderr is drained keeping its last lines, the process
runs in its own session so a timeout kills whatever it started, and the time
allowed is what is left of the page's budget.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Sequence

#: Bytes of stderr kept for the error message: Tesseract's last lines say what failed.
_KEPT = 4096


class TesseractTimeout(RuntimeError):
    """Tesseract ran past the time it was given (and was killed)."""


class TesseractFailed(RuntimeError):
    """Tesseract ended with an error status or a signal."""


def single_threaded_environment() -> dict[str, str]:
    """This process's environment, with Tesseract held to one OpenMP thread.

    Tesseract's OpenMP threads make a page several times slower when the
    executor already runs one worker per core. The limit goes to the child
    alone: the process that embeds goblin keeps its own environment.
    """
    return {**os.environ, "OMP_THREAD_LIMIT": "1"}


def run(args: Sequence[str], timeout: float) -> None:
    """Run ``args``; TesseractTimeout after ``timeout`` seconds, TesseractFailed on a bad exit.

    OSError when the binary cannot start.
    """
    if timeout <= 0:
        raise TesseractTimeout("no time left for another Tesseract run on this page")
    process = subprocess.Popen(list(args), stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True, env=single_threaded_environment())
    tail = bytearray()
    reader = threading.Thread(target=_drain, args=(process, tail), daemon=True)
    reader.start()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        raise TesseractTimeout(f"Tesseract ran past {timeout:.1f} s and was stopped") from None
    except BaseException:
        # Ctrl-C or a stop signal while waiting: in its own session, Tesseract
        # would not hear it and would go on reading for nobody
        _kill(process)
        raise
    finally:
        # the pipe ends with the process group; a child that left it is not waited for
        reader.join(timeout=2)
    if process.returncode:
        message = bytes(tail).decode("utf-8", errors="replace").strip()
        raise TesseractFailed(f"Tesseract ended with status {process.returncode}: "
                              f"{' '.join(message.split())[-1000:]}")


def _drain(process: subprocess.Popen[bytes], tail: bytearray) -> None:
    stream = process.stderr
    if stream is None:
        return
    with stream:
        for chunk in iter(lambda: stream.read(65536), b""):
            tail.extend(chunk)
            del tail[:-_KEPT]


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
