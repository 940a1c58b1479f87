"""GoblinTools 0.13.4's ArchiveHandler.extract, keeping the source archive."""

import itertools
import logging
import os

import goblintools
from goblintools import ArchiveHandler
from peer_protocol import job, run_peer

logging.disable(logging.WARNING)
scratch = job()["scratch"]
counter = itertools.count()


def extract(path: str) -> tuple[int, str, dict[str, float]]:
    dest = os.path.join(scratch, f"goblintools-{next(counter)}")
    os.makedirs(dest)
    if not ArchiveHandler.extract(path, dest, remove_source=False):
        raise RuntimeError("ArchiveHandler.extract returned False")
    sizes = [os.path.getsize(os.path.join(d, f)) for d, _, names in os.walk(dest) for f in names]
    return len(sizes), "", {"bytes": sum(sizes)}


run_peer("goblintools ArchiveHandler", goblintools.__version__, extract)
