"""The member kind a Unix file mode stands for."""

from __future__ import annotations

import stat

from goblin_core.engines import MemberKind


def kind_of_mode(mode: int, otherwise: MemberKind) -> MemberKind:
    """``file``, ``dir``, ``symlink``, ``device`` or ``fifo`` for ``mode``, else ``otherwise``.

    >>> kind_of_mode(0o120777, "file")
    'symlink'
    """
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISFIFO(mode):
        return "fifo"
    return otherwise
