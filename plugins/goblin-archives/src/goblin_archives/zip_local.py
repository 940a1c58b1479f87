"""A zip whose own end is missing, read through the local headers before each member.

A zip keeps its directory at its end. Cut short, it has none; and when one of the
members it stores uncompressed is itself a zip (or an OOXML or OpenDocument file, zips
too), that member's end record is the last one in the file. zipfile takes it, and reads
the inner zip as the whole file: the cut zip's other members are lost without a word,
and the inner zip's members listed in their place. The inner zip's offsets count from
where it starts inside the outer one, so zipfile takes the bytes before it for a
self-extractor's stub; but those bytes start with the outer zip's first local header,
whose data runs past the directory found.

Such a zip is read as ``zip -FF`` reads it: each local header gives its member's name,
method, sizes and CRC, and a directory made of them is put after the last whole member,
for zipfile to read the members as it reads any zip's.
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass
from typing import BinaryIO

from goblin_archives.stream_views import SizedView
from goblin_archives.zip_end import zipfile_choice

_LOCAL = b"PK\x03\x04"
_LOCAL_SIZE = 30
_RECORD_SIZE = 22
_LONGEST_COMMENT = 0xFFFF
_DATA_DESCRIPTOR = 0x8
_DESCRIPTOR = b"PK\x07\x08"
_STORED, _DEFLATED = 0, 8
_STEP = 1 << 16
#: a local header's fields after its signature, up to the name
_LOCAL_FIELDS = struct.Struct("<HHHHHIIIHH")
_ZIP64_MARK = 0xFFFFFFFF


def end_inside_first_member(stream: BinaryIO) -> str:
    """The name of the member at the start of ``stream`` when the end record zipfile would
    take is not the zip's own (the zip's end is missing), else ''. That record's offsets
    count from inside the file, past the member's start, and lie inside the member's data,
    or the member keeps its size after its data, where it may run anywhere."""
    size = stream.seek(0, io.SEEK_END)
    start = max(0, size - _RECORD_SIZE - _LONGEST_COMMENT)
    stream.seek(start)
    tail = stream.read()
    stream.seek(0)
    head = stream.read(_LOCAL_SIZE)
    stream.seek(0)
    at = zipfile_choice(tail)
    if at is None or len(tail) < at + _RECORD_SIZE or not head.startswith(_LOCAL):
        return ""
    directory_size, directory_offset = struct.unpack_from("<II", tail, at + 12)
    if _ZIP64_MARK in (directory_size, directory_offset):
        return ""
    record = start + at
    directory = record - directory_size
    if directory_offset >= directory:
        return ""  # offsets count from the file's start: the zip's own directory
    flags, packed, name_length, extra_length = _first_fields(head)
    # A member whose size follows its data may run anywhere: a file that starts with a
    # member is no self-extractor either way.
    sized = not (flags & _DATA_DESCRIPTOR and packed == 0)
    if sized and _LOCAL_SIZE + name_length + extra_length + packed <= directory:
        return ""
    stream.seek(_LOCAL_SIZE)
    name = stream.read(name_length)
    stream.seek(0)
    return name.decode("utf-8", "replace")


def _first_fields(head: bytes) -> tuple[int, int, int, int]:
    fields = _LOCAL_FIELDS.unpack_from(head, 4)
    return fields[1], fields[6], fields[8], fields[9]


@dataclass(frozen=True)
class RebuiltDirectory:
    """Where the whole members end, the directory made for them, and what the walk
    could not read."""

    data_end: int
    directory: bytes
    members: int
    stopped: str


def rebuilt_directory(stream: BinaryIO, most_members: int) -> RebuiltDirectory:
    """A central directory and end record for the whole members ``stream``'s local headers
    give, from the start, up to the first that is cut short or cannot be walked past."""
    size = stream.seek(0, io.SEEK_END)
    offset = 0
    entries: list[bytes] = []
    stopped = ""
    while len(entries) < most_members:
        stream.seek(offset)
        head = stream.read(_LOCAL_SIZE)
        if len(head) < _LOCAL_SIZE or not head.startswith(_LOCAL):
            stopped = ("nothing, the file ends after the last whole member" if offset >= size
                       else f"what follows byte {offset:,}, where no member header starts")
            break
        (needed, flags, method, time, date, crc, packed, unpacked, name_length,
         extra_length) = _LOCAL_FIELDS.unpack_from(head, 4)
        name = stream.read(name_length)
        shown = name.decode("utf-8", "replace")
        data = offset + _LOCAL_SIZE + name_length + extra_length
        trailer = 0
        if flags & _DATA_DESCRIPTOR:
            described = _described_sizes(stream, data, method, size)
            if described is None:
                stopped = (f"{shown!r}, whose sizes follow its data and were not found there "
                           "(cut short, or a method a walk cannot measure), and any member "
                           "after it")
                break
            crc, packed, unpacked, trailer = described
        if _ZIP64_MARK in (packed, unpacked) or offset >= _ZIP64_MARK:
            stopped = f"{shown!r} and the members after it (zip64 sizes)"
            break
        end = data + packed + trailer
        if end > size:
            stopped = f"{shown!r}, cut short, and any member after it"
            break
        entries.append(struct.pack(
            "<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", needed, needed, flags, method, time, date,
            crc, packed, unpacked, name_length, 0, 0, 0, 0, 0, offset) + name)
        offset = end
    else:
        stopped = f"the members past the first {most_members:,}"
    directory = b"".join(entries)
    record = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries),
                         len(directory), offset, 0)
    return RebuiltDirectory(offset, directory + record, len(entries), stopped)


def _described_sizes(stream: BinaryIO, data: int, method: int,
                     size: int) -> tuple[int, int, int, int] | None:
    """The CRC, packed and unpacked sizes of a member whose data descriptor follows its data
    at ``data``, and the descriptor's length; None when its end cannot be found.

    Deflate data says where it ends: it is inflated (and the output dropped) to find the
    descriptor. Stored data does not: the first descriptor whose packed size is the
    distance to it is taken, as ``zip -FF`` takes it.
    """
    if method == _DEFLATED:
        stream.seek(data)
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        fed = 0
        while not inflater.eof:
            chunk = stream.read(_STEP)
            if not chunk:
                return None
            fed += len(chunk)
            try:
                while chunk:
                    inflater.decompress(chunk, _STEP)
                    chunk = inflater.unconsumed_tail
            except zlib.error:
                return None
        packed = fed - len(inflater.unused_data)
        return _descriptor_at(stream, data + packed, packed)
    if method == _STORED:
        stream.seek(data)
        window = data
        carried = b""
        while window < size:
            block = carried + stream.read(_STEP)
            at = block.find(_DESCRIPTOR)
            while at >= 0:
                found = _descriptor_at(stream, window - len(carried) + at,
                                       window - len(carried) + at - data)
                if found is not None:
                    return found
                at = block.find(_DESCRIPTOR, at + 1)
            window += len(block) - len(carried)
            carried = block[-3:]
            stream.seek(window)
    return None


def _descriptor_at(stream: BinaryIO, at: int, packed: int) -> tuple[int, int, int, int] | None:
    """The descriptor at ``at`` of a member whose data is ``packed`` bytes long, with or
    without its signature; None when none there says that size."""
    stream.seek(at)
    head = stream.read(16)
    if head.startswith(_DESCRIPTOR) and len(head) == 16:
        crc, stored_packed, unpacked = struct.unpack_from("<III", head, 4)
        if stored_packed == packed:
            return crc, packed, unpacked, 16
    if len(head) >= 12:
        crc, stored_packed, unpacked = struct.unpack_from("<III", head)
        if stored_packed == packed:
            return crc, packed, unpacked, 12
    return None


class RebuiltZip(SizedView):
    """``stream``'s whole members followed by a directory made for them."""

    def __init__(self, stream: BinaryIO, rebuilt: RebuiltDirectory) -> None:
        super().__init__(stream, rebuilt.data_end + len(rebuilt.directory))
        self._data_end = rebuilt.data_end
        self._directory = rebuilt.directory

    def read(self, size: int | None = -1) -> bytes:
        end = self._length if size is None or size < 0 else min(self._length,
                                                                  self._position + size)
        parts: list[bytes] = []
        if self._position < min(end, self._data_end):
            self._stream.seek(self._position)
            parts.append(self._stream.read(min(end, self._data_end) - self._position))
        if end > self._data_end:
            start = max(self._position, self._data_end) - self._data_end
            parts.append(self._directory[start:end - self._data_end])
        data = b"".join(parts)
        self._position += len(data)
        return data
