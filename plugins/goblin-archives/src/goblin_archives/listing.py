"""Checks on an archive's listing, made before a single member is read."""

from __future__ import annotations

from goblin_core.engines import ArchiveLimits
from goblin_core.errors import UnsafeArchive


def refuse_oversized_listing(count: int, limits: ArchiveLimits, display: str) -> None:
    """Refuse an archive whose directory already lists more members than allowed.

    Formats with a central directory (zip, 7z, rar) say up front how many
    members they hold: 200,000 empty entries are refused at once instead of
    after the first ten thousand have gone through the pipeline.
    """
    if count > limits.max_members:
        raise UnsafeArchive(
            f"lists {count:,} members, more than limits.max_members ({limits.max_members:,}); "
            "not read (raise the limit to read it)",
            file=display,
        )


_EOCD = b"PK\x05\x06"
_EOCD64 = b"PK\x06\x06"
ZIP_TAIL = 65_557  # the end-of-central-directory record plus the longest comment


def zip_declared_count(tail: bytes) -> int | None:
    """The member count a zip's end-of-central-directory record declares, read from its tail.

    Reading it costs one small read, where parsing the central directory of a
    200,000-member zip costs seconds. None when the record is not found.

    >>> zip_declared_count(b"PK\\x05\\x06" + bytes(6) + (3).to_bytes(2, "little") + bytes(10))
    3
    """
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) < at + 22:
        return None
    count = int.from_bytes(tail[at + 10:at + 12], "little")
    if count != 0xFFFF:
        return count
    at64 = tail.rfind(_EOCD64, 0, at)
    if at64 < 0 or len(tail) < at64 + 40:
        return count
    return int.from_bytes(tail[at64 + 32:at64 + 40], "little")
