"""What a ``.traineddata`` file holds: the characters its LSTM can write, a legacy engine or not.

The file is Tesseract's container: a little-endian int32 count of components,
then one int64 offset per component (-1 when absent), then the components in
order. Components are numbered as in Tesseract's ``TessdataType``.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path

_UNICHARSET = 1
_INTTEMP = 3  # the legacy engine's templates: present only when --oem 0 can run
_LSTM_UNICHARSET = 21
_MAX_COMPONENTS = 64


def _offsets(data: bytes) -> tuple[int, ...]:
    if len(data) < 4:
        return ()
    (count,) = struct.unpack_from("<i", data)
    if not 0 < count <= _MAX_COMPONENTS or len(data) < 4 + 8 * count:
        return ()
    return struct.unpack_from(f"<{count}q", data, 4)


def _component(data: bytes, offsets: tuple[int, ...], index: int) -> bytes:
    if index >= len(offsets) or offsets[index] < 0:
        return b""
    start = offsets[index]
    ends = [o for o in offsets[index + 1:] if o >= 0]
    return data[start:ends[0] if ends else len(data)]


@functools.cache
def lstm_characters(path: str) -> frozenset[str]:
    """The characters the model's LSTM can write (empty when the file cannot be read)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return frozenset()
    offsets = _offsets(data)
    table = _component(data, offsets, _LSTM_UNICHARSET) or _component(data, offsets, _UNICHARSET)
    lines = table.decode("utf-8", errors="replace").splitlines()[1:]
    # Each line starts with the character, then its properties; "NULL" stands for a space.
    return frozenset(line.split(" ", 1)[0] for line in lines if line and not line.startswith(" "))


@functools.cache
def has_legacy_engine(path: str) -> bool:
    """Whether the model carries the legacy engine's templates (``--oem 0`` can read with it)."""
    try:
        with open(path, "rb") as file:
            head = file.read(4 + 8 * _MAX_COMPONENTS)
    except OSError:
        return False
    offsets = _offsets(head)
    return len(offsets) > _INTTEMP and offsets[_INTTEMP] >= 0
