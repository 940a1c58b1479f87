"""Streams whose low-level failures become goblin errors naming the member.

Decompressors fail in many dialects (EOFError, zlib.error, LZMAError,
ZstdError, BadZipFile, a tool's broken pipe). Handlers wrap every stream
they give the core in a GuardedStream so a truncated or corrupt member is a
CorruptDocument the report can show, never a crash.
"""

from __future__ import annotations

import io
import lzma
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from goblin_core.errors import CorruptDocument, GoblinError

if TYPE_CHECKING:
    from goblin_archives.scratch import ByteMeter

try:  # zstandard's error type, when the library is importable
    from zstandard import ZstdError
except ImportError:  # pragma: no cover - zstandard is a dependency
    ZstdError = OSError  # type: ignore[misc,assignment]

#: What decoders raise on damaged input.
DECODE_ERRORS: tuple[type[BaseException], ...] = (
    OSError, EOFError, ValueError, RuntimeError, zlib.error, lzma.LZMAError, ZstdError,
    zipfile.BadZipFile, tarfile.TarError, NotImplementedError, KeyError, IndexError,
)


@contextmanager
def translated(name: str, what: str) -> Iterator[None]:
    """Turn a decoder failure into CorruptDocument naming ``name``; let GoblinErrors through."""
    try:
        yield
    except GoblinError:
        raise
    except DECODE_ERRORS as exc:
        raise CorruptDocument(
            f"{what} failed: {type(exc).__name__}: {exc}; the archive is damaged or truncated",
            file=name,
        ) from exc


class Readable(Protocol):
    """Anything with ``read`` and ``close``: a file, a decompressor, a pipe."""

    def read(self, size: int = -1, /) -> bytes: ...
    def close(self) -> None: ...


class GuardedStream(io.RawIOBase):
    """A read-only stream that reports decoder failures as CorruptDocument.

    ``on_close`` runs once when the stream closes (ending a helper process,
    closing the archive it came from). ``meter`` counts what every member of
    one archive expands to: members under the ratio grace each, or sparse
    holes, must not add up to a bomb.
    """

    def __init__(self, inner: Readable, name: str,
                 on_close: Callable[[], None] | None = None,
                 meter: ByteMeter | None = None) -> None:
        super().__init__()
        self._inner = inner
        self._name = name
        self._on_close = on_close
        self._meter = meter

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        with translated(self._name, "reading the member"):
            data = self._inner.read(size)
        if self._meter is not None:
            self._meter.read(len(data))
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if self.closed:
            return
        try:
            with translated(self._name, "closing the member"):
                self._inner.close()
        finally:
            if self._on_close is not None:
                self._on_close()
            super().close()
