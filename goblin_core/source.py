"""Source: one input document, whether a path on disk, bytes or a stream.

Engines read a Source through ``open()`` (a fresh binary stream each call) or
``path()`` (a real file, spooled to a temporary file when the Source holds
bytes, because many native libraries and command-line tools need a path).
"""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from goblin_core.errors import FileTooLarge, GoblinError
from goblin_core.file_names import readable_name

HEAD_BYTES = 8192
SNIFF_BYTES = 1024 * 1024
#: Bytes read from a stream per call while bounding it by the size limit.
STREAM_CHUNK = 1024 * 1024


@dataclass
class Source:
    """A document to extract.

    ``display_name`` is what reports and tags show: the path relative to the
    input root, or ``outer.zip/inner/file.pdf`` for an archive member.
    ``depth`` counts the archives and attachments it sits inside.
    ``location`` is the path as the caller wrote it when they gave a path and
    no name: errors about the whole file name it there (see ``located``).

    >>> src = Source.from_bytes(b"hello", "hello.txt")
    >>> src.size, src.extension
    (5, 'txt')
    """

    display_name: str
    _path: Path | None = None
    _data: bytes | None = None
    depth: int = 0
    parent: str = ""
    _sha256: str | None = field(default=None, repr=False)
    _spooled: Path | None = field(default=None, repr=False)
    # Caller buffers (bytearray, memoryview) and streams are held as given and
    # copied or read only by ``check_size``, so an oversized input costs nothing.
    _buffer: memoryview | None = field(default=None, repr=False)
    _stream: Any = field(default=None, repr=False)
    location: str = ""
    #: the content of a single-file compressor that held it (``Member.decompressed``)
    decompressed: bool = False

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], display_name: str | None = None) -> Source:
        p = Path(path)
        if display_name:
            return cls(display_name=display_name, _path=p)
        return cls(display_name=readable_name(p.name), _path=p,
                   location=readable_name(os.fspath(path)))

    def located(self, error: GoblinError) -> GoblinError:
        """``error`` naming the file by the path the caller gave (``/in/x.pdf``, not
        ``x.pdf``) when it names this Source by its display name; else ``error`` itself.
        """
        if not self.location or self.location == self.display_name:
            return error
        if error.file != self.display_name:
            return error
        clone = type(error).__new__(type(error))
        clone.__dict__.update(error.__dict__)
        clone.file = None
        return clone.with_file(self.location)

    @classmethod
    def from_bytes(
        cls,
        data: bytes | bytearray | memoryview,
        display_name: str = "<bytes>",
        *,
        depth: int = 0,
        parent: str = "",
    ) -> Source:
        """A Source over bytes; a bytearray or memoryview is copied once its size is checked."""
        if isinstance(data, bytes):
            return cls(display_name=display_name, _data=data, depth=depth, parent=parent)
        view = memoryview(data)
        view = view.cast("B") if view.c_contiguous else memoryview(view.tobytes())
        return cls(display_name=display_name, _buffer=view, depth=depth, parent=parent)

    @classmethod
    def from_stream(cls, stream: BinaryIO, display_name: str | None = None) -> Source:
        """A Source over a binary stream, read (from where it stands) on first use.

        A text-mode stream is a TypeError at once: its characters are not the
        file's bytes. ``check_size`` reads a stream no further than the limit.
        """
        name = display_name or _stream_name(stream)
        if getattr(stream, "closed", False):
            raise ValueError(f"{name}: the stream is closed; pass it open, or pass its "
                             "path or bytes")
        # read(0) shows what the stream gives without consuming any of it.
        if isinstance(stream, io.TextIOBase) or isinstance(stream.read(0), str):
            raise _text_stream(name)
        return cls(display_name=name, _stream=stream)

    def check_size(self, limit: int) -> int:
        """The size in bytes; FileTooLarge when a limit is set and the content is over it.

        A stream is read in chunks and stops at ``limit + 1`` bytes; a caller's
        buffer is copied only when it is within the limit.
        """
        if self._stream is not None:
            self._data = read_bounded(self._stream, limit, self.display_name)
            self._stream = None
        self.refuse_special_file()
        size = self.size
        if limit and size > limit:
            raise FileTooLarge(
                f"{size:,} bytes is over limits.max_file_size ({limit:,}); "
                "raise the limit to read it",
                file=self.display_name,
            )
        self._settle()
        return size

    def _settle(self) -> None:
        """Hold the content as bytes: a pending stream read whole, a buffer copied."""
        if self._stream is not None:
            self._data = read_bounded(self._stream, 0, self.display_name)
            self._stream = None
        if self._buffer is not None:
            self._data = self._buffer.tobytes()
            self._buffer = None

    @property
    def name(self) -> str:
        """The last component of the display name."""
        return self.display_name.rstrip("/").rsplit("/", 1)[-1]

    @property
    def extension(self) -> str:
        """Lower-case extension without the dot, '' when there is none."""
        name = self.name
        if "." not in name.strip("."):
            return ""
        return name.rsplit(".", 1)[-1].lower()

    @property
    def size(self) -> int:
        if self._buffer is not None:
            return self._buffer.nbytes
        self._settle()
        if self._data is not None:
            return len(self._data)
        assert self._path is not None
        return self._path.stat().st_size

    @property
    def known_size(self) -> int | None:
        """The size when it is known without reading anything: a buffer's, or a regular
        file's; None for a stream not read yet and for a FIFO, socket or device."""
        if self._buffer is not None:
            return self._buffer.nbytes
        if self._data is not None:
            return len(self._data)
        if self._path is None:
            return None
        import stat

        try:
            status = self._path.stat()
        except OSError:
            return None
        return status.st_size if stat.S_ISREG(status.st_mode) else None

    @property
    def sha256(self) -> str:
        if self._sha256 is None:
            digest = hashlib.sha256()
            with self.open() as stream:
                for chunk in iter(lambda: stream.read(1 << 20), b""):
                    digest.update(chunk)
            self._sha256 = digest.hexdigest()
        return self._sha256

    @property
    def is_file(self) -> bool:
        """True when the Source is backed by a file the caller gave."""
        return self._path is not None

    def open(self) -> BinaryIO:
        """A new binary stream positioned at the start."""
        self._settle()
        if self._data is not None:
            return io.BytesIO(self._data)
        assert self._path is not None
        return open(self._path, "rb")

    def read(self, size: int = -1, offset: int = 0) -> bytes:
        """Read ``size`` bytes from ``offset`` (everything when size is -1)."""
        self._settle()
        if self._data is not None:
            end = None if size < 0 else offset + size
            return self._data[offset:end]
        with self.open() as stream:
            stream.seek(offset)
            return stream.read(size)

    def refuse_special_file(self) -> None:
        """OSError when this is the path of a FIFO, socket or device: reading one waits
        for a writer, for ever when none comes."""
        if self._path is not None:
            _refuse_special_file(self._path)

    def head(self, size: int = HEAD_BYTES) -> bytes:
        return self.read(size)

    def tail(self, size: int) -> bytes:
        """The last ``size`` bytes (a zip's central directory lives there)."""
        total = self.size
        return self.read(size, max(0, total - size))

    def path(self) -> Path:
        """A real file holding the content; spooled once for in-memory sources."""
        if self._path is not None:
            return self._path
        self._settle()
        if self._spooled is None:
            suffix = f".{self.extension}" if self.extension else ""
            fd, tmp = tempfile.mkstemp(prefix="goblin-", suffix=suffix)
            with os.fdopen(fd, "wb") as out:
                out.write(self._data or b"")
            self._spooled = Path(tmp)
        return self._spooled

    def bytes(self) -> bytes:
        """The whole content in memory."""
        self._settle()
        if self._data is not None:
            return self._data
        return self.read()

    def cleanup(self) -> None:
        """Remove a spooled temporary file, if one was made."""
        if self._spooled is not None:
            with contextlib.suppress(FileNotFoundError):
                self._spooled.unlink()
            self._spooled = None

    def child(self, name: str, data: builtins.bytes) -> Source:
        """A Source for a member or attachment of this one."""
        return Source.from_bytes(
            data,
            f"{self.display_name}/{name}",
            depth=self.depth + 1,
            parent=self.display_name,
        )

    def __del__(self) -> None:
        self.cleanup()


def read_bounded(stream: Any, limit: int, name: str) -> bytes:
    """Read a binary stream to its end, in chunks; FileTooLarge past ``limit`` bytes.

    At most ``limit + 1`` bytes are read (0: no limit), so an oversized
    stream (stdin, a socket) is refused without being read whole.
    """
    chunks: list[bytes] = []
    copy_bounded(stream, limit, name, chunks.append)
    return b"".join(chunks)


def copy_bounded(stream: Any, limit: int, name: str, write: Callable[[bytes], object]) -> int:
    """Hand a binary stream to ``write`` a chunk at a time, to its end; return the bytes
    copied. FileTooLarge past ``limit`` bytes (0: no limit), read no further."""
    total = 0
    while True:
        want = STREAM_CHUNK if not limit else min(STREAM_CHUNK, limit + 1 - total)
        chunk = stream.read(want)
        if not chunk:
            return total
        if isinstance(chunk, str):
            raise _text_stream(name)
        write(bytes(chunk))
        total += len(chunk)
        if limit and total > limit:
            raise FileTooLarge(
                f"the stream holds more than limits.max_file_size ({limit:,} bytes); "
                "reading stopped there: raise the limit to read it",
                file=name,
            )


def _text_stream(name: str) -> TypeError:
    return TypeError(
        f"{name}: the stream gives text (str), not bytes; open the file in binary mode: "
        "open(path, 'rb')"
    )


@contextlib.contextmanager
def spooled(source: Source) -> Iterator[Path]:
    """Context manager giving a real path for the source, cleaned up after."""
    try:
        yield source.path()
    finally:
        if not source.is_file:
            source.cleanup()



def _refuse_special_file(path: Path) -> None:
    """Refuse a FIFO, socket or device given as a path: opening a FIFO blocks until a
    writer comes (for ever, if none does), and a device never ends."""
    import errno
    import stat

    mode = path.stat().st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise OSError(errno.ENODEV, "not a regular file (a FIFO, socket or device); pipe "
                      "its content to `goblin extract -` instead")


def _stream_name(stream: BinaryIO) -> str:
    """The file name a stream was opened from; ``<stream>`` for a pipe or socket, whose
    ``name`` is its descriptor number, and for buffers, which have none."""
    name = getattr(stream, "name", None)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    if not isinstance(name, str):
        return "<stream>"
    return os.path.basename(name) or "<stream>"
