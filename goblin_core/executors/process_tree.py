"""Ending a worker together with every process it started.

Engines run helper binaries (Tesseract, the archive tools, the Office
converters), and some put them in a session of their own so a timeout can
end whatever the helper started in turn. Killing a worker, or its process
group, leaves such helpers running with nobody waiting for their output:
a batch of stuck documents would pile up stray converters holding cores and
memory until their own limits, if any, ran out.
"""

from __future__ import annotations

import contextlib


def kill_process_tree(pid: int, *, include_root: bool = True) -> None:
    """SIGKILL every descendant of ``pid``, and ``pid`` itself unless ``include_root`` is False.

    The processes are stopped before they are killed, the root first, so none
    of them starts another process between the listing and the kill; the tree
    is listed again until no new process turns up. A process can only be
    found while its parent lives, hence the freezing rather than killing
    top-down. Processes already gone are skipped.
    """
    import psutil  # only a pool ending a worker needs it: not loaded with goblin_core

    try:
        root = psutil.Process(pid)
    except psutil.Error:
        return
    if include_root:
        with contextlib.suppress(psutil.Error):
            root.suspend()
    found: dict[int, psutil.Process] = {}
    while True:
        try:
            descendants = root.children(recursive=True)
        except psutil.Error:
            break
        fresh = [process for process in descendants if process.pid not in found]
        if not fresh:
            break
        for process in fresh:
            found[process.pid] = process
            with contextlib.suppress(psutil.Error):
                process.suspend()
    for process in found.values():
        with contextlib.suppress(psutil.Error):
            process.kill()
    if include_root:
        with contextlib.suppress(psutil.Error):
            root.kill()
