"""Which end-of-central-directory record of a zip is its own.

A zip ends with a 22-byte record, then a comment of up to 64 KB that may hold any
bytes, another such record among them. zipfile takes the last 22 bytes when they
read as a record with no comment, else the last record signature it finds: a
comment ending in a made-up record (an empty directory) hid every member, and the
zip read as clean and empty, where 7-Zip reads the members.

The record a zip's writer made is the one whose comment runs exactly to the end of
the file and whose central directory is where it says; when several do, the first
is the writer's (the others lie inside its comment). When that is not the record
zipfile would take, the zip is read through :class:`CommentCut`, a view ending at
that record with its comment dropped.
"""

from __future__ import annotations

import io
import struct
from typing import BinaryIO

from goblin_archives.stream_views import SizedView

_EOCD = b"PK\x05\x06"
_CENTRAL = b"PK\x01\x02"
_RECORD = 22
_LONGEST_COMMENT = 0xFFFF


def hidden_end_record(stream: BinaryIO) -> int | None:
    """The offset of ``stream``'s own end record when zipfile would take another, else None.

    >>> import io, zipfile
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as archive:
    ...     archive.writestr("a.txt", b"a")
    ...     archive.comment = b"PK\\x05\\x06" + bytes(18)
    >>> hidden_end_record(buffer) == len(buffer.getvalue()) - 44
    True
    """
    size = stream.seek(0, io.SEEK_END)
    start = max(0, size - _RECORD - _LONGEST_COMMENT)
    stream.seek(start)
    tail = stream.read()
    stream.seek(0)
    chosen = zipfile_choice(tail)
    if chosen is None:
        return None
    at = tail.find(_EOCD)
    while 0 <= at < chosen:
        if _ends_the_file(tail, at) and _directory_is_there(stream, start + at,
                                                            tail[at:at + _RECORD]):
            return start + at
        at = tail.find(_EOCD, at + 1)
    return None


def zipfile_choice(tail: bytes) -> int | None:
    """Where in ``tail`` zipfile finds the end record (its ``_EndRecData``)."""
    last = tail[-_RECORD:]
    if len(last) == _RECORD and last.startswith(_EOCD) and last[-2:] == b"\0\0":
        return len(tail) - _RECORD
    found = tail.rfind(_EOCD)
    return found if found >= 0 else None


def _ends_the_file(tail: bytes, at: int) -> bool:
    """Whether the record at ``at`` and the comment it declares end where the file does."""
    if len(tail) < at + _RECORD:
        return False
    comment = struct.unpack_from("<H", tail, at + 20)[0]
    return at + _RECORD + comment == len(tail)


def _directory_is_there(stream: BinaryIO, at: int, record: bytes) -> bool:
    """Whether the central directory ``record`` (at file offset ``at``) declares starts
    with a directory entry right before it (records of zip64 sizes are taken as they are)."""
    entries, directory_size, directory_offset = struct.unpack_from("<10xHII", record)
    if entries == 0xFFFF or directory_size == 0xFFFFFFFF or directory_offset == 0xFFFFFFFF:
        return True
    if entries == 0 or directory_size == 0 or directory_size > at:
        return False
    stream.seek(at - directory_size)
    found = stream.read(4) == _CENTRAL
    stream.seek(0)
    return found


class CommentCut(SizedView):
    """``stream`` up to the end of the record at ``record``, its comment dropped (the
    comment length read as zero), so zipfile takes that record."""

    def __init__(self, stream: BinaryIO, record: int) -> None:
        super().__init__(stream, record + _RECORD)
        self._comment_length = record + 20

    def read(self, size: int | None = -1) -> bytes:
        end = self._length if size is None or size < 0 else min(self._length,
                                                                  self._position + size)
        if end <= self._position:
            return b""
        self._stream.seek(self._position)
        data = self._stream.read(end - self._position)
        first = self._comment_length - self._position
        if first < len(data) and first + 2 > 0:
            patched = bytearray(data)
            for index in range(max(first, 0), min(first + 2, len(data))):
                patched[index] = 0
            data = bytes(patched)
        self._position += len(data)
        return data
