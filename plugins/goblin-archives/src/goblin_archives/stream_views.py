"""Views of an archive's stream that show readers part of it as a file of its own."""

from __future__ import annotations

import io
from typing import BinaryIO


class StreamView(io.RawIOBase):
    """A readable, seekable view of ``stream``, closed with it. Subclasses say where a
    read lands (``read``, ``seek``, ``tell``); ``readinto`` goes through ``read``."""

    def __init__(self, stream: BinaryIO) -> None:
        super().__init__()
        self._stream = stream

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._stream.close()
        super().close()
