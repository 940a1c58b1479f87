"""A PDF's streams found in its bytes, before any reader parses it.

The bomb checks look at a file's bytes rather than through a reader because a reader
would do the very work they guard against. Stream dictionaries are never compressed
(PDF 32000-1, 7.5.7), so each stream's keys are there in the clear, just before its
``stream`` keyword.
"""

from __future__ import annotations

import contextlib
import mmap
import re
from array import array
from collections.abc import Iterator
from typing import Any, BinaryIO

LINE_END = re.compile(rb"\r\n|\n|\r")
OBJECT = re.compile(rb"(\d{1,10})\s+\d{1,5}\s+obj\b")
# Where an object's value starts, its number and generation kept: possessive, so the
# digits and spaces of a cross-reference table are passed over without backtracking.
OBJECT_START = re.compile(rb"(?<![0-9])([0-9]++)\s++([0-9]++)\s++obj\b\s*")
ZLIB_HEADER = re.compile(rb"\x78[\x01\x5e\x9c\xda]")
HEADER_WINDOW = 1 << 16  # bytes searched back from "stream" for the object's header


@contextlib.contextmanager
def mapped(stream: BinaryIO) -> Iterator[Any]:
    """The whole file behind ``stream``, mapped into memory, or its bytes when it is no
    real file (bytes in memory, an empty file): both search alike."""
    try:
        view = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except (AttributeError, OSError, ValueError):
        stream.seek(0)
        yield stream.read()
        return
    try:
        yield view
    finally:
        view.close()


def streams(data: Any) -> Iterator[tuple[int, int]]:
    """Where each ``stream`` keyword is and where the data after it starts."""
    at = data.find(b"stream")
    while at >= 0:
        # a plain search runs in C; "endstream" and names holding the word are passed over
        line_end = LINE_END.match(data, at + 6)
        if line_end is not None and not (at and data[at - 1:at].isalpha()):
            yield at, line_end.end()
        at = data.find(b"stream", at + 6)


def stream_end(data: Any, start: int) -> int:
    """Where the data of the stream starting at ``start`` ends, found without /Length
    (which may be an indirect reference): at its ``endstream`` keyword."""
    end = data.find(b"endstream", start)
    return len(data) if end < 0 else end


def stream_dictionary(data: Any, stream_at: int, after: int = 0) -> bytes:
    """The object header and dictionary before the ``stream`` keyword at ``stream_at``,
    strings and comments taken out (so neither can pass for a key); none of it before
    ``after`` (where the ``stream`` keyword before it ends)."""
    floor = max(after, stream_at - HEADER_WINDOW)
    # the previous object ends before this one starts: its stream data is no dictionary
    begin = max(data.rfind(b"endobj", floor, stream_at),
                data.rfind(b"endstream", floor, stream_at), floor)
    window = bytes(data[begin:stream_at])
    if b"(" in window or b"%" in window:
        window = without_strings(window)
    headers = list(OBJECT.finditer(window))
    return window[headers[-1].start():] if headers else window


class StreamTable:
    """Each stream in a PDF's bytes, found in one pass for every check that reads them:
    where its ``stream`` keyword is, where its data starts and ends, and its dictionary
    (``stream_dictionary``), in the order ``streams`` finds them.

    A dictionary is read back to the ``stream`` keyword before it at most, which in any
    PDF lies before the previous object's end anyway: the dictionaries together are never
    more than the file, and reading them is linear in it, where the word ``stream`` a
    hundred thousand times over (in a stream's data, or a hostile file) would otherwise
    have each read and kept the same 64 kB. Each stream's end is its next ``endstream``,
    found once for all the keywords before it.

    ``inflated`` holds, by where a stream's data starts, what inflating its plain Flate
    data to the end showed: how many bytes it makes and how often they say ``Do`` (None
    when not counted), up to damage, where a reader stops. A check that inflates a
    stream records it there, so the next one to need those counts reads them instead of
    inflating it again."""

    def __init__(self, data: Any) -> None:
        self.size = len(data)
        # offsets in arrays: a few megabytes can hold a million "stream" keywords
        self._keywords, self._starts, self._ends = array("q"), array("q"), array("q")
        self._dictionaries: list[bytes] = []
        previous = 0  # where the last ``stream`` keyword ends
        end_marker = -2  # the next "endstream" after the last data start; -1: none, -2: unknown
        for keyword, start in streams(data):
            if end_marker == -2 or 0 <= end_marker < start:
                end_marker = data.find(b"endstream", start)
            self._keywords.append(keyword)
            self._starts.append(start)
            self._ends.append(len(data) if end_marker < 0 else end_marker)
            self._dictionaries.append(stream_dictionary(data, keyword, previous))
            previous = keyword + len(b"stream")
        self.inflated: dict[int, tuple[int, int | None]] = {}

    def streams(self, data: Any) -> Iterator[tuple[int, int, int, bytes]]:
        """Each stream of ``data`` (the bytes the table was read from): where its
        ``stream`` keyword is, where its data starts and ends, and its dictionary."""
        yield from zip(self._keywords, self._starts, self._ends, self._dictionaries,
                       strict=True)

    def fits(self, data: Any) -> bool:
        """Whether this table can stand for ``data`` (the same source, mapped again):
        read from as many bytes."""
        return len(data) == self.size


def without_strings(text: bytes) -> bytes:
    """``text`` with its literal strings (nested parentheses, escapes) and comments blanked,
    in one pass: a regular expression would backtrack on unbalanced parentheses."""
    out = bytearray(text)
    depth = 0
    index = 0
    while index < len(out):
        byte = out[index]
        if depth and byte == 0x5C:  # a backslash escapes the byte after it
            out[index:index + 2] = b"  "[:len(out[index:index + 2])]
            index += 2
            continue
        if byte == 0x25 and not depth:  # a comment runs to the end of its line
            while index < len(out) and out[index] not in (0x0A, 0x0D):
                out[index] = 0x20
                index += 1
            continue
        if byte == 0x28:
            depth += 1
        elif byte == 0x29 and depth:
            depth -= 1
        elif not depth:
            index += 1
            continue
        out[index] = 0x20
        index += 1
    return bytes(out)


def chunks(data: Any, start: int, end: int, size: int = 1 << 20) -> Iterator[bytes]:
    """``data[start:end]`` as bytes, ``size`` at a time (a mapped file is not read whole)."""
    for at in range(start, end, size):
        yield bytes(data[at:min(at + size, end)])
