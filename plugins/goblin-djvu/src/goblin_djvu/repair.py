"""A copy of a DjVu file DjVuLibre refuses whole, with what it stumbles on mended.

A DjVu file is one IFF ``FORM`` whose header gives its size. DjVuLibre trusts that
size: a one-page file (``DJVU``) cut short by a single byte, or whose size is off
either way, is refused whole ("Failed to open document"), though its page's image
and text layer may all be there; a multi-page one (``DJVM``) is refused when its size
is too small for its directory, or past 2 GB (DjVuLibre reads it as a negative
number), which a flipped bit makes of any size. The copy gives the size the file
can hold: a one-page file keeps the chunks that are whole, up to the first one cut
short or damaged; a multi-page one keeps every byte, as its directory places its
pages by their offsets (pages past the end are found apart, see ``components``).
A multi-page document DjVuLibre still refuses may have a damaged outline, which it
reads with the directory: a second copy puts the outline out of its sight.
"""

from __future__ import annotations

import os
import re
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from goblin_core.source import Source
from goblin_djvu.components import directory_offsets

# "AT&T", "FORM", the form's size, its kind: the form's content starts at byte 12,
# its first chunk at byte 16
_CONTENT_AT = 12
_FIRST_CHUNK_AT = 16
# a chunk's name: four letters, digits or spaces ("INFO", "Sjbz", "BG44", "TXTz")
_CHUNK_NAME = re.compile(rb"[A-Za-z0-9 ]{4}")
# where a multi-page document's directory keeps its flags, and the one that says its
# files are inside it
_FLAGS_AT, _BUNDLED = 24, 0x80
# what the outline chunk is renamed to: a name DjVuLibre does not know, and passes over
_IGNORED_CHUNK = b"JUNK"
#: Chunks a one-page file is walked through at most: a page has a few (INFO, its image's
#: layers, text, annotations), and 8-byte empty ones could fill a file by the million.
_MOST_CHUNKS = 10_000
#: Bytes copied at a time: a multi-page book can be hundreds of MB.
_COPY_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Repaired:
    """The copy's path and the warnings (kind, message) that say what was changed."""

    path: Path
    warnings: list[tuple[str, str]]


def repaired_copy(source: Source, *, without_outline: bool = False) -> Repaired | None:
    """A copy of ``source`` whose outer size is what the file holds, and, when asked, a
    multi-page document's outline (its NAVM chunk) renamed out of DjVuLibre's sight, in
    a temporary file the caller removes; None when there is nothing to change, or
    nothing whole is left to read.

    DjVuLibre opens a multi-page document's outline with its directory, and refuses
    the whole document when the outline is damaged: every page was lost to a damaged
    bookmark. The chunk keeps its place and size, as the directory places the pages by
    their offsets.
    """
    head = source.head(_FIRST_CHUNK_AT)
    if len(head) < _FIRST_CHUNK_AT:
        return None
    declared = int.from_bytes(head[8:12], "big")
    size = source.size
    said: list[tuple[str, str]] = []
    outline_at = None
    flags = source.read(1, _FLAGS_AT)
    unflagged = head[12:16] == b"DJVM" and flags and not flags[0] & _BUNDLED
    if unflagged:
        said.append(("CorruptDocument", "its directory says its pages are files beside it, "
                     "yet it holds them: read as the bundled document it is"))
    if head[12:16] == b"DJVM":
        kept = size
        if without_outline:
            outline_at = _outline_at(source)
            if outline_at is None:
                return None
            said.append(("CorruptDocument", "its outline (bookmarks) is damaged: DjVuLibre "
                         "cannot open the document with it; read without it"))
    elif head[12:16] == b"DJVU" and not without_outline:
        kept, dropped = whole_chunks_end(source)
        if kept <= _FIRST_CHUNK_AT:
            return None
        if dropped is not None:
            said.append(_cut_warning(dropped, kept, size))
    else:
        return None
    if kept - _CONTENT_AT != declared and not any(kind == "Truncated" for kind, _ in said):
        said.append(_size_warning(declared, size))
    if not said:
        return None
    patches = {8: struct.pack(">I", kept - _CONTENT_AT)}
    if outline_at is not None:
        patches[outline_at] = _IGNORED_CHUNK
    if unflagged:
        patches[_FLAGS_AT] = bytes([flags[0] | _BUNDLED])
    return Repaired(patched_copy(source, kept, patches), said)


def patched_copy(source: Source, length: int, patches: dict[int, bytes]) -> Path:
    """A temporary file (the caller removes it) of the first ``length`` bytes of
    ``source``, with the bytes at each offset of ``patches`` replaced by its value."""
    handle, name = tempfile.mkstemp(prefix="goblin-djvu-", suffix=".djvu")
    try:
        with os.fdopen(handle, "wb") as copy, source.open() as original:
            _copy_bytes(original, copy, length)
            for offset, replacement in patches.items():
                copy.seek(offset)
                copy.write(replacement)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def _outline_at(source: Source) -> int | None:
    """Where a multi-page document's outline chunk (NAVM, right after its directory)
    begins; None when it has none."""
    at = _after_chunk(source, _FIRST_CHUNK_AT, b"DIRM")
    return at if at is not None and source.read(4, at) == b"NAVM" else None


def holds_its_files(source: Source) -> bool:
    """Whether a multi-page document holds its files (a FORM after its directory and
    outline), whatever its directory's flag says: an indirect one's index holds none."""
    at = _after_chunk(source, _FIRST_CHUNK_AT, b"DIRM")
    if at is None:
        return False
    at = _after_chunk(source, at, b"NAVM") or at
    return source.read(4, at) == b"FORM"


def _after_chunk(source: Source, at: int, name: bytes) -> int | None:
    """Where the chunk after the chunk ``name`` at ``at`` begins; None when there is no
    such chunk there."""
    header = source.read(8, at)
    if len(header) < 8 or header[:4] != name:
        return None
    end = at + 8 + int.from_bytes(header[4:8], "big")
    return end + (end & 1)


def whole_chunks_end(source: Source) -> tuple[int, str | None]:
    """Where the last whole chunk of a one-page file ends, read from byte 16 on, and the
    name of the chunk it stops at (cut short, or not a chunk: damaged), None when it
    stops at the end of the file.

    >>> whole_chunks_end(Source.from_bytes(b"AT&TFORM\\0\\0\\0\\xffDJVUINFO\\0\\0\\0\\x03abc\\0"
    ...                                    b"Sjbz\\0\\0\\0\\x09abcd", "p.djvu"))
    (27, 'Sjbz')
    """
    size = source.size
    position = end = _FIRST_CHUNK_AT
    with source.open() as stream:
        for _ in range(_MOST_CHUNKS):
            if position + 8 > size:
                break
            stream.seek(position)
            header = stream.read(8)
            name = header[:4]
            if not _CHUNK_NAME.fullmatch(name):
                return end, "damaged"
            chunk_end = position + 8 + int.from_bytes(header[4:8], "big")
            if chunk_end > size:
                return end, name.decode("ascii")
            end = chunk_end
            position = end + (end & 1)  # chunks start at even offsets
        else:
            return end, "damaged"  # more chunks than a page has: not a page's
    # a few bytes after the last whole chunk are the start of a header cut short
    return end, (None if position >= size else "cut")


def _copy_bytes(source: BinaryIO, target: BinaryIO, count: int) -> None:
    """``count`` bytes from ``source`` to ``target``, a block at a time."""
    left = count
    while left > 0:
        block = source.read(min(left, _COPY_BYTES))
        if not block:
            break
        target.write(block)
        left -= len(block)


def _size_warning(declared: int, size: int) -> tuple[str, str]:
    return ("CorruptDocument", f"its header gives its size as {declared + _CONTENT_AT:,} "
            f"bytes where the file holds {size:,}; read as the size it holds")


def _cut_warning(chunk: str, kept: int, size: int) -> tuple[str, str]:
    where = ("data that is not a DjVu chunk" if chunk == "damaged"
             else "a chunk header cut short" if chunk == "cut" else f"its {chunk} chunk cut short")
    return ("Truncated", f"the file is cut short or damaged: it ends in {where} (bytes "
            f"{kept:,} to {size:,}); the page is read from the whole chunks before it")


def size_note(source: Source) -> str:
    """What the file's outer size says of a file DjVuLibre cannot open: that it is cut
    short, when its header gives more bytes than it holds; else ''."""
    declared = int.from_bytes(source.head(12)[8:12], "big")
    size = source.size
    if declared + _CONTENT_AT <= size:
        return ""
    return (f" (the file is cut short or damaged: its header gives its size as "
            f"{declared + _CONTENT_AT:,} bytes, it holds {size:,})")


#: A page file's name in a rebuilt document's folder (its number, from 1)
_PAGE_FILE = "goblin-page-{:06}.djvu"


def unpacked_by_offsets(source: Source, folder: Path) -> list[Path] | None:
    """The page files of a bundled document whose directory is damaged, written to
    ``folder`` as one-page files in the directory's order, with the file their pages
    include beside them: what ``djvm -c`` makes a document of again. None when the
    offsets do not all lead to whole files, or the pages include more than one file
    (their names are in the damaged part of the directory: which is which is unknown).

    The directory begins with each file's offset, stored plain; the names, sizes and
    kinds follow, compressed, where one damaged byte loses them all.
    """
    offsets = directory_offsets(source)
    if offsets is None:
        return None
    size = source.size
    pages: list[tuple[int, int]] = []  # offset and length of each page's file
    shared: list[tuple[int, int]] = []
    included: set[bytes] = set()
    with source.open() as stream:
        for offset in offsets:
            stream.seek(offset)
            header = stream.read(12)
            length = 8 + int.from_bytes(header[4:8], "big")
            if header[:4] != b"FORM" or offset + length > size:
                return None
            if header[8:12] == b"DJVU":
                pages.append((offset, length))
                included.update(_included(stream, offset, length))
            elif header[8:12] == b"DJVI":
                shared.append((offset, length))
            elif header[8:12] != b"THUM":
                return None
        if not pages or len(shared) != len(included) or len(included) > 1:
            return None
        names = [_PAGE_FILE.format(number) for number in range(1, len(pages) + 1)]
        shared_names = [name.decode("ascii") for name in included
                        if _CHUNK_ID_FILE.fullmatch(name)]
        if len(shared_names) != len(included) or set(shared_names) & set(names):
            return None
        for file_name, (offset, length) in zip([*shared_names, *names], [*shared, *pages],
                                               strict=True):
            with (folder / file_name).open("wb") as page_file:
                page_file.write(b"AT&T")
                stream.seek(offset)
                _copy_bytes(stream, page_file, length)
    return [folder / name for name in names]


# an included file's name that is a plain file name in the folder
_CHUNK_ID_FILE = re.compile(rb"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,200}")


def _included(stream: BinaryIO, offset: int, length: int) -> list[bytes]:
    """The names of the files the page (``FORM:DJVU``) at ``offset`` includes (its INCL
    chunks); of its first chunks only, as many as a page has."""
    names: list[bytes] = []
    position, end = offset + 12, offset + length
    for _ in range(_MOST_CHUNKS):
        if position + 8 > end:
            break
        stream.seek(position)
        header = stream.read(8)
        size = int.from_bytes(header[4:8], "big")
        if header[:4] == b"INCL":
            names.append(stream.read(min(size, 256)).strip(b"\0 \n"))
        position += 8 + size + (size & 1)
    return names
