"""An HTTP body with its chunked transfer coding and gzip, deflate or brotli content coding
undone a bounded step at a time.

warcio undoes them too, but reads a whole chunk at once (a chunk may declare two
gigabytes) and inflates a block in one call (eight hundred bytes of brotli make a
gigabyte): one capture of a small WARC could take gigabytes of memory before a
single byte reached the limits. Here no read returns, or holds, more than it was
asked for, so the archive limits stop a bomb while it expands.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Protocol

from goblin_archives.guarded import Readable

#: Bytes of compressed or chunked input taken per step.
STEP = 64 * 1024
#: Longest chunk-size line read (hex digits and chunk extensions); real ones are a few bytes.
_SIZE_LINE = 1024


class LineReadable(Readable, Protocol):
    """A stream that reads lines too (warcio's record stream)."""

    def readline(self, size: int = -1, /) -> bytes: ...


def _read_all(read: Callable[[int], bytes]) -> bytes:
    return b"".join(iter(lambda: read(STEP), b""))


class Dechunked:
    """The body of a message sent with ``Transfer-Encoding: chunked``, a piece of a chunk
    at a time. A body that turns out not to be chunked (servers say so wrongly) is read
    as it is from there on; one cut short ends where its data does.

    >>> import io
    >>> Dechunked(io.BytesIO(b"4\\r\\nWiki\\r\\n5;x=1\\r\\npedia\\r\\n0\\r\\n\\r\\n")).read()
    b'Wikipedia'
    >>> Dechunked(io.BytesIO(b"<html>not chunked</html>")).read()
    b'<html>not chunked</html>'
    """

    def __init__(self, inner: LineReadable) -> None:
        self._inner = inner
        self._left = 0
        self._ended = False
        self._plain = False
        self._pending = b""

    def read(self, size: int = -1, /) -> bytes:
        if size is None or size < 0:
            return _read_all(self.read)
        if self._pending:
            piece, self._pending = self._pending[:size], self._pending[size:]
            return piece
        if self._plain:
            return self._inner.read(size)
        while not self._ended and size:
            if not self._left and not self._next_chunk():
                return self.read(size) if self._plain else b""
            piece = self._inner.read(min(self._left, size))
            if not piece:
                self._ended = True  # cut short: what came is kept
                break
            self._left -= len(piece)
            if not self._left:
                self._inner.read(2)  # the CRLF that ends the chunk
            return piece
        return b""

    def _next_chunk(self) -> bool:
        """Read the next chunk's size line; False at the last chunk or when not chunked."""
        line = self._inner.readline(_SIZE_LINE)
        try:
            size = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            self._plain = bool(line)
            self._pending = line
            self._ended = not line
            return False
        if size <= 0:
            self._ended = True
            while self._inner.readline(_SIZE_LINE).strip():
                pass  # trailer fields, up to the blank line that ends the message
            return False
        self._left = size
        return True

    def close(self) -> None:
        return None


class _Decoder(Protocol):
    def decode(self, data: bytes, limit: int) -> bytes: ...

    @property
    def pending(self) -> bool: ...  # output is waiting without more input

    @property
    def done(self) -> bool: ...


class _Zlib:
    def __init__(self, wbits: int) -> None:
        self._obj = zlib.decompressobj(wbits)

    def decode(self, data: bytes, limit: int) -> bytes:
        return self._obj.decompress(self._obj.unconsumed_tail + data, limit)

    @property
    def pending(self) -> bool:
        return bool(self._obj.unconsumed_tail)

    @property
    def done(self) -> bool:
        return self._obj.eof


class _Brotli:
    def __init__(self) -> None:
        import brotli

        self._obj = brotli.Decompressor()

    def decode(self, data: bytes, limit: int) -> bytes:
        return bytes(self._obj.process(data, output_buffer_limit=limit))

    @property
    def pending(self) -> bool:
        return not self._obj.can_accept_more_data()

    @property
    def done(self) -> bool:
        return bool(self._obj.is_finished())


def _brotli_bounded() -> bool:
    """Whether the installed brotli can stop at an output size (Brotli 1.2 and later)."""
    try:
        import brotli
    except ImportError:
        return False
    return hasattr(brotli.Decompressor, "can_accept_more_data")


def _decoders() -> dict[str, Callable[[], _Decoder]]:
    found: dict[str, Callable[[], _Decoder]] = {
        "gzip": lambda: _Zlib(16 + zlib.MAX_WBITS),
        "x-gzip": lambda: _Zlib(16 + zlib.MAX_WBITS),
        "deflate": lambda: _Zlib(zlib.MAX_WBITS),
    }
    if _brotli_bounded():
        found["br"] = _Brotli
    return found


#: Content codings undone, by name; any other is given as it was sent.
DECODERS = _decoders()


def _decode_errors() -> tuple[type[BaseException], ...]:
    try:
        import brotli
    except ImportError:
        return (zlib.error,)
    return (zlib.error, brotli.error)


class Decoded:
    """A body sent with a ``Content-Encoding``, decoded at most ``size`` bytes a read.

    Data that does not decode from its first byte was never encoded (servers say so
    wrongly): it is given as it is; deflate without its zlib header is read raw.
    Damage after good data is an error of the decoder, raised.

    >>> import gzip, io
    >>> Decoded(io.BytesIO(gzip.compress(b"aviso " * 4)), "gzip").read(12)
    b'aviso aviso '
    >>> Decoded(io.BytesIO(b"plain text"), "gzip").read()
    b'plain text'
    """

    def __init__(self, inner: Readable, coding: str) -> None:
        self._inner = inner
        self._coding = coding
        self._decoder = DECODERS[coding]()
        self._produced = False
        self._plain = False
        self._ended = False

    def read(self, size: int = -1, /) -> bytes:
        if size is None or size < 0:
            return _read_all(self.read)
        if self._plain:
            return self._inner.read(size)
        while not self._ended and size:
            if self._decoder.pending:
                out = self._decoder.decode(b"", size)
            else:
                data = self._inner.read(STEP)
                if not data:
                    self._ended = True
                    break
                if self._decoder.done:
                    continue  # bytes after the end of the coded data: ignored, as browsers do
                out = self._first(data, size) if not self._produced else \
                    self._decoder.decode(data, size)
            if out:
                self._produced = True
                return out
        return b""

    def _first(self, data: bytes, size: int) -> bytes:
        """Decode the first input, falling back to raw deflate, then to no decoding."""
        try:
            return self._decoder.decode(data, size)
        except _decode_errors():
            if self._coding == "deflate":
                self._decoder = _Zlib(-zlib.MAX_WBITS)
                try:
                    return self._decoder.decode(data, size)
                except zlib.error:
                    pass
            self._plain = True
            return self._take_plain(data, size)

    def _take_plain(self, data: bytes, size: int) -> bytes:
        head, rest = data[:size], data[size:]
        if rest:
            self._inner = _Prefixed(rest, self._inner)
        return head

    def close(self) -> None:
        return None


class _Prefixed:
    """``head`` then the rest of ``inner``."""

    def __init__(self, head: bytes, inner: Readable) -> None:
        self._head = head
        self._inner = inner

    def read(self, size: int = -1, /) -> bytes:
        if not self._head:
            return self._inner.read(size)
        if size is None or size < 0:
            head, self._head = self._head, b""
            return head + self._inner.read()
        head, self._head = self._head[:size], self._head[size:]
        return head

    def close(self) -> None:
        self._inner.close()
