"""Compressed streams laid end to end, and what comes after the last one.

``xz``, ``bzip2``, ``lz4`` and ``zstd`` files may hold several streams one after the
other (``cat a.xz b.xz``), may end in zero bytes (xz's stream padding, a tape's
blocking) and may carry bytes that are no stream at all after the last one (a
download's tail, a copy tool's padding). Python's own readers only guess at the
end: lzma and bz2 drop trailing bytes in silence when they are long enough to read
as a bad header and fail on the stream before them when they are shorter (four bytes
of legal xz padding lost the whole text), lz4 fails on any, and zstandard's stream
reader gives a frame cut short as a clean end.

Here a stream's end is known from its decoder (or, for zstd, from its frames' own
block headers), zero bytes after it are padding, and anything else is a
:class:`TrailingGarbage` raised after every byte of the streams before it was given
out, for the handler to report while the text stays.
"""

from __future__ import annotations

import bz2
import lzma
from collections.abc import Callable
from typing import BinaryIO, Protocol

import lz4.block
import lz4.frame
import zstandard

#: How many compressed bytes are fed to a decoder at a time.
CHUNK = 64 * 1024

#: zstd and lz4 frames that carry no data: 0x184D2A50 to 0x184D2A5F, little-endian.
_SKIPPABLE_TAIL = b"\x2a\x4d\x18"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: How many zstd frames are walked to find where they end (a fraction of a second; pzstd
#: writes one frame per few MB).
_MOST_FRAMES_WALKED = 1 << 16


class TrailingGarbage(ValueError):
    """Bytes after the last whole stream that start no new one; the streams before are whole."""


class Decoder(Protocol):
    """A one-stream decompressor object (lzma's, bz2's, lz4's)."""

    @property
    def eof(self) -> bool: ...
    @property
    def needs_input(self) -> bool: ...
    @property
    def unused_data(self) -> bytes | None: ...
    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


class ConcatenatedStreams:
    """The streams of one compressor in ``raw``, decoded a bounded step at a time.

    ``starts`` tells whether bytes met after a stream's end begin a new stream (an
    empty answer list: the format holds one stream only, as ``.lzma`` does).
    """

    def __init__(self, raw: BinaryIO, new_decoder: Callable[[], Decoder],
                 starts: Callable[[bytes], bool], codec: str, head_size: int) -> None:
        self._raw = raw
        self._new_decoder = new_decoder
        self._starts = starts
        self._codec = codec
        self._head_size = head_size
        self._decoder = new_decoder()
        self._pending = b""
        self._done = False

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            chunks = []
            while chunk := self.read(CHUNK * 16):
                chunks.append(chunk)
            return b"".join(chunks)
        while size and not self._done:
            if self._decoder.eof:
                # lz4 says None, not b"", when the stream ended at the end of its input
                self._pending = (self._decoder.unused_data or b"") + self._pending
                if not self._next_stream():
                    self._done = True
                    break
                continue
            feed = b""
            if self._decoder.needs_input:
                feed, self._pending = self._pending or self._raw.read(CHUNK), b""
                if not feed:
                    raise EOFError("Compressed file ended before the end-of-stream marker "
                                   "was reached")
            data = self._decoder.decompress(feed, size)
            if data:
                return data
        return b""

    read1 = read

    def _next_stream(self) -> bool:
        """Start the stream that follows, or tell there is none (raising on garbage)."""
        while len(self._pending) < self._head_size:
            more = self._raw.read(CHUNK)
            if not more:
                break
            self._pending += more
        if not self._pending:
            return False
        if self._starts(self._pending):
            self._decoder = self._new_decoder()
            return True
        garbage = _count_after_padding(self._pending, self._raw)
        if not garbage:
            return False
        raise TrailingGarbage(f"{garbage:,} bytes after the last {self._codec} stream are no "
                              f"{self._codec} data")

    def close(self) -> None:
        self._raw.close()


def _count_after_padding(pending: bytes, raw: BinaryIO) -> int:
    """How many bytes from ``pending`` on (the rest of ``raw`` included) are not zero
    padding: 0 when all of them are zeros."""
    total = 0
    nonzero = False
    chunk = pending
    while chunk:
        total += len(chunk)
        nonzero = nonzero or bool(chunk.strip(b"\0"))
        chunk = raw.read(CHUNK)
    return total if nonzero else 0


def _starts_xz(head: bytes) -> bool:
    return head.startswith(b"\xfd7zXZ\x00")


def _starts_bzip2(head: bytes) -> bool:
    return head.startswith(b"BZh")


def _starts_lz4(head: bytes) -> bool:
    return head.startswith(b"\x04\x22\x4d\x18") or _skippable(head)


def _skippable(head: bytes) -> bool:
    return len(head) >= 4 and head[0] & 0xF0 == 0x50 and head[1:4] == _SKIPPABLE_TAIL


def xz_streams(raw: BinaryIO) -> ConcatenatedStreams:
    return ConcatenatedStreams(raw, lambda: lzma.LZMADecompressor(format=lzma.FORMAT_XZ),
                               _starts_xz, "xz", 6)


def lzma_stream(raw: BinaryIO) -> ConcatenatedStreams:
    # A .lzma file holds one stream: whatever follows it is padding or garbage.
    return ConcatenatedStreams(raw, lambda: lzma.LZMADecompressor(format=lzma.FORMAT_ALONE),
                               lambda head: False, "lzma", 1)


def bzip2_streams(raw: BinaryIO) -> ConcatenatedStreams:
    return ConcatenatedStreams(raw, bz2.BZ2Decompressor, _starts_bzip2, "bzip2", 3)


def lz4_streams(raw: BinaryIO) -> ConcatenatedStreams | Lz4LegacyBlocks:
    head = raw.read(len(LZ4_LEGACY))
    raw.seek(0)
    if head == LZ4_LEGACY:
        return Lz4LegacyBlocks(raw)
    return ConcatenatedStreams(raw, lz4.frame.LZ4FrameDecompressor, _starts_lz4, "lz4", 4)


#: The signature of lz4's legacy format (``lz4 -l``, what Linux kernels and initramfs
#: images are packed with): blocks of up to 8 MiB, each its packed size then its bytes.
LZ4_LEGACY = b"\x02\x21\x4c\x18"
_LEGACY_BLOCK = 8 << 20
_LEGACY_BOUND = _LEGACY_BLOCK + _LEGACY_BLOCK // 255 + 16  # LZ4_compressBound of a block


class Lz4LegacyBlocks:
    """lz4's legacy format, read a block (at most 8 MiB) at a time.

    The lz4 frame reader knows only the current format and failed on it. The format has
    no end mark: the file ends, a new legacy stream starts, or what follows is no block
    (a size past what a block can pack to) and is trailing garbage unless it is zeros.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._buffer = b""
        self._done = False

    def read(self, size: int = -1) -> bytes:
        while not self._buffer and not self._done:
            self._buffer = self._next_block()
        if size < 0:
            chunks = [self._buffer]
            self._buffer = b""
            while not self._done:
                chunks.append(self._next_block())
            return b"".join(chunks)
        data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data

    read1 = read

    def _next_block(self) -> bytes:
        head = self._raw.read(4)
        if head == LZ4_LEGACY:
            return b""
        size = int.from_bytes(head, "little") if len(head) == 4 else _LEGACY_BOUND + 1
        if not head or size > _LEGACY_BOUND:
            self._done = True
            garbage = _count_after_padding(head, self._raw)
            if garbage:
                raise TrailingGarbage(f"{garbage:,} bytes after the last lz4 block are no "
                                      "lz4 data")
            return b""
        block = self._raw.read(size)
        if len(block) < size:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        try:
            return lz4.block.decompress(block, uncompressed_size=_LEGACY_BLOCK)
        except lz4.block.LZ4BlockError as exc:
            raise ValueError(f"an lz4 block is damaged ({exc})") from exc

    def close(self) -> None:
        self._raw.close()


class ZstdFrames:
    """zstd frames read through zstandard's bounded stream reader, their end known from
    their own block headers.

    zstandard's reader ends quietly where its input does, inside a frame too: the frames
    are walked first (headers only, no decoding), the reader is given the bytes up to
    the end of the last whole frame (to the end of the file when one is cut), and once it
    is done a cut frame raises EOFError
    and bytes after the frames that are no frame raise :class:`TrailingGarbage`.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        end, self._problem = _walk_zstd(raw)
        raw.seek(0)
        self._reader = zstandard.ZstdDecompressor().stream_reader(
            _Prefix(raw, end),  # type: ignore[arg-type]  # read() is all it calls
            read_across_frames=True, closefd=False)

    def read(self, size: int = -1) -> bytes:
        data = self._reader.read(size)
        if not data and size != 0 and self._problem is not None:
            raise self._problem
        return data

    read1 = read

    def close(self) -> None:
        self._reader.close()
        self._raw.close()


class _Prefix:
    """The first ``end`` bytes of a stream."""

    def __init__(self, raw: BinaryIO, end: int) -> None:
        self._raw = raw
        self._left = end

    def read(self, size: int = -1) -> bytes:
        if size < 0 or size > self._left:
            size = self._left
        data = self._raw.read(size)
        self._left -= len(data)
        return data


def _walk_zstd(raw: BinaryIO) -> tuple[int, Exception | None]:
    """Where the whole zstd frames of ``raw`` end, and what is wrong after them (None:
    nothing)."""
    offset = 0
    for _frame in range(_MOST_FRAMES_WALKED):
        raw.seek(offset)
        head = raw.read(4)
        if not head:
            return offset, None
        if head == _ZSTD_MAGIC:
            end = _zstd_frame_end(raw, offset)
        elif _skippable(head):
            size = raw.read(4)
            end = offset + 8 + int.from_bytes(size, "little") if len(size) == 4 else None
            if end is not None and _length(raw) < end:
                end = None
        else:
            if offset == 0:
                # no zstd frame here (a legacy format?): the decoder says what it is
                return _length(raw), None
            raw.seek(offset)
            garbage = _count_after_padding(raw.read(CHUNK), raw)
            if not garbage:
                return offset, None
            return offset, TrailingGarbage(f"{garbage:,} bytes after the last zstd frame are "
                                           "no zstd data")
        if end is None:
            # the cut frame is decoded as far as it goes: what came before the cut is kept
            return _length(raw), EOFError("Compressed file ended before the end of its last zstd "
                                    "frame was reached")
        offset = end
    # A file of countless empty frames: the decoder walks the rest (in C, quickly), the end
    # of the file taken as theirs.
    return _length(raw), None


def _length(raw: BinaryIO) -> int:
    here = raw.tell()
    size = raw.seek(0, 2)
    raw.seek(here)
    return size


def _zstd_frame_end(raw: BinaryIO, start: int) -> int | None:
    """The offset just past the zstd frame at ``start`` (its magic read), None when the
    file ends inside it."""
    total = _length(raw)
    descriptor = raw.read(1)
    if not descriptor:
        return None
    flags = descriptor[0]
    single_segment = bool(flags & 0x20)
    content_size_bytes = (1 if single_segment else 0, 2, 4, 8)[flags >> 6]
    header = 1 + (0 if single_segment else 1) + (0, 1, 2, 4)[flags & 0x03] + content_size_bytes
    position = start + 4 + header
    while True:
        raw.seek(position)
        block = raw.read(3)
        if len(block) < 3:
            return None
        value = int.from_bytes(block, "little")
        block_type = (value >> 1) & 0x03
        block_size = value >> 3
        position += 3 + (1 if block_type == 1 else block_size)
        if value & 0x01:  # the last block
            break
    position += 4 if flags & 0x04 else 0  # the content checksum
    return position if position <= total else None
