"""goblin's unpack: one archive into a fresh folder, members checked while read.

``BENCH_FLATTEN=0`` keeps the archive's folders (as the native tools do) instead
of flattening every path into one file name.
"""

import itertools
import logging
import os
from importlib.metadata import version

from peer_protocol import job, run_peer

from goblin_core.unpack import unpack

logging.disable(logging.WARNING)
scratch = job()["scratch"]
counter = itertools.count()
FLATTEN = os.environ.get("BENCH_FLATTEN", "1") != "0"


def extract(path: str) -> tuple[int, str, dict[str, float]]:
    dest = os.path.join(scratch, f"goblin-{next(counter)}")
    result = unpack(path, dest, flatten=FLATTEN)
    if result.errors:
        raise RuntimeError(result.errors[0].message)
    return len(result.written), "", {"bytes": sum(p.stat().st_size for p in result.written)}


run_peer("goblin unpack" if FLATTEN else "goblin unpack, folders kept", version("goblin-core"),
         extract)
