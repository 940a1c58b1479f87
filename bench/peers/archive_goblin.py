"""goblin's unpack: one archive into a fresh folder, members checked while read."""

import itertools
import logging
import os
from importlib.metadata import version

from peer_protocol import job, run_peer

from goblin_core.unpack import unpack

logging.disable(logging.WARNING)
scratch = job()["scratch"]
counter = itertools.count()


def extract(path: str) -> tuple[int, str, dict[str, float]]:
    dest = os.path.join(scratch, f"goblin-{next(counter)}")
    result = unpack(path, dest)
    if result.errors:
        raise RuntimeError(result.errors[0].message)
    return len(result.written), "", {"bytes": sum(p.stat().st_size for p in result.written)}


run_peer("goblin unpack", version("goblin-core"), extract)
