"""Resource caps for the command-line tools plugins run on untrusted files.

A converter fed a looping or lying file can take every byte of memory, or write
without end; outside a worker process nothing else would stop it. The caps are
set in the child between fork and exec, so they bind the tool and not goblin.
"""

from __future__ import annotations

import resource
from collections.abc import Callable


def capped_child(max_memory: int, max_file_size: int = 0) -> Callable[[], None] | None:
    """A ``preexec_fn`` capping the child's address space at ``max_memory`` bytes and
    each file it writes at ``max_file_size`` bytes (0: that cap is off; both off: None).

    A cap never rises above the hard limit the process already has.
    """
    caps = [(kind, value) for kind, value in ((resource.RLIMIT_AS, max_memory),
                                              (resource.RLIMIT_FSIZE, max_file_size))
            if value > 0]
    if not caps:
        return None

    def cap() -> None:  # runs in the child between fork and exec
        for kind, value in caps:
            hard = resource.getrlimit(kind)[1]
            limit = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (limit, hard))

    return cap
