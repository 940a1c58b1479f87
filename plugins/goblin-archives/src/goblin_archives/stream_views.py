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


class SizedView(StreamView):
    """A view ``length`` bytes long that keeps its own position; ``read`` serves it."""

    def __init__(self, stream: BinaryIO, length: int) -> None:
        super().__init__(stream)
        self._length = length
        self._position = 0

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._length}[whence]
        if base + offset < 0:
            raise OSError("seek before the start of the zip")
        self._position = base + offset
        return self._position
