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
            f"{what} failed: {type(exc).__name__}: {exc}; the archive is truncated or damaged",
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
    holes, must not add up to a bomb. ``on_error`` is told of each failure
    before it is raised.
    """

    def __init__(self, inner: Readable, name: str,
                 on_close: Callable[[], None] | None = None,
                 meter: ByteMeter | None = None,
                 on_error: Callable[[GoblinError], None] | None = None) -> None:
        super().__init__()
        self._inner = inner
        self._name = name
        self._on_close = on_close
        self._meter = meter
        self._on_error = on_error

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        try:
            with translated(self._name, "reading the member"):
                data = self._inner.read(size)
        except GoblinError as exc:
            if self._on_error is not None:
                self._on_error(exc)
            raise
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


class Salvaging:
    """A decompressor read in small steps that, once it fails, reads as ended.

    tarfile reads a streamed tar in records of a megabyte and drops a record
    whose read fails: a cut ``.tar.gz`` would lose every member before the cut.
    Here what decoded before the damage is given out first; ``damage`` keeps the
    error, for the handler to raise once the members before it are read.
    """

    STEP = 64 * 1024

    def __init__(self, inner: Readable,
                 salvageable: Callable[[BaseException], bool] = lambda exc: True) -> None:
        self._inner = inner
        # read1: one decoding step; a buffered read() of several drops them all on failure.
        self._step: Callable[[int], bytes] = getattr(inner, "read1", inner.read)
        self._salvageable = salvageable
        self.damage: BaseException | None = None
        #: bytes given out so far: how far the stream decoded before any damage
        self.given = 0

    def read(self, size: int = -1, /) -> bytes:
        chunks: list[bytes] = []
        wanted = size if size >= 0 else 1 << 62
        while wanted > 0 and self.damage is None:
            try:
                chunk = self._step(min(self.STEP, wanted))
            except DECODE_ERRORS as exc:
                if not self._salvageable(exc):
                    raise
                self.damage = exc
                break
            if not chunk:
                break
            chunks.append(chunk)
            wanted -= len(chunk)
            self.given += len(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        self._inner.close()

    def raise_damage(self, name: str, what: str) -> None:
        """Raise the failure met while reading, as CorruptDocument naming ``name``."""
        if self.damage is not None:
            with translated(name, what):
                raise self.damage
