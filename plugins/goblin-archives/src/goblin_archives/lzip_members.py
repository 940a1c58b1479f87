"""Whether an lzip file is lzip members end to end, or holds bytes ``lzip -d`` never read.

``lzip -d`` stops at the first bytes after a member that start no new one and says
nothing (exit 0): trailing garbage, or a member laid after such bytes, is lost in
silence. Each member ends in its own size, so the members can be walked from the
file's end to its start, as ``lzip -l`` walks them; a file whose walk does not land
on its first byte holds something else. Zero bytes after the last member are
padding (a tape's blocking), as for the other compressors.
"""

from __future__ import annotations

import os
from typing import BinaryIO

_MAGIC = b"LZIP"
#: The smallest member: a 6-byte header, the shortest LZMA stream and a 20-byte trailer
#: (CRC32, data size, member size).
_SMALLEST_MEMBER = 36
_SIZE_FIELD = 8
_ZEROS_READ = 1 << 16


def holds_unread_bytes(path: str | os.PathLike[str]) -> bool:
    """Whether the lzip file at ``path`` holds bytes in no member, zero padding aside.

    >>> import tempfile
    >>> member = b"LZIP" + bytes(24) + (36).to_bytes(8, "little")
    >>> with tempfile.NamedTemporaryFile(suffix=".lz") as f:
    ...     _ = f.write(member + member + bytes(100))
    ...     f.flush()
    ...     holds_unread_bytes(f.name)
    False
    >>> with tempfile.NamedTemporaryFile(suffix=".lz") as f:
    ...     _ = f.write(member + b"junk" + member)
    ...     f.flush()
    ...     holds_unread_bytes(f.name)
    True
    """
    with open(path, "rb") as packed:
        size = packed.seek(0, os.SEEK_END)
        last_data = _end_of_nonzero(packed, size)
        # The last member's size field may end in zero bytes of its own.
        ends = range(last_data, min(size, last_data + _SIZE_FIELD - 1) + 1)
        return not any(_members_fill(packed, end) for end in ends)


def _end_of_nonzero(packed: BinaryIO, size: int) -> int:
    """The offset just past the file's last byte that is not zero."""
    end = size
    while end > 0:
        start = max(0, end - _ZEROS_READ)
        packed.seek(start)
        chunk = packed.read(end - start).rstrip(b"\0")
        if chunk:
            return start + len(chunk)
        end = start
    return 0


def _members_fill(packed: BinaryIO, end: int) -> bool:
    """Whether members laid end to end fill the file from its start to ``end``."""
    while end > 0:
        if end < _SMALLEST_MEMBER:
            return False
        packed.seek(end - _SIZE_FIELD)
        member_size = int.from_bytes(packed.read(_SIZE_FIELD), "little")
        start = end - member_size
        if member_size < _SMALLEST_MEMBER or start < 0:
            return False
        packed.seek(start)
        if packed.read(len(_MAGIC)) != _MAGIC:
            return False
        end = start
    return True

