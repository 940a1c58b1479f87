"""PowerPoint 97-2003 text read straight from its record stream (no binary needed).

The ``PowerPoint Document`` stream is a tree of records (8-byte headers:
version/instance, type, length). Text lives in TextCharsAtom (UTF-16) and
TextBytesAtom (8-bit) records, in the slide list and inside drawings; a
SlidePersistAtom in the slide list starts the next slide. It is the first engine
for .ppt: catppt, the fallback, misses drawing text and prints master titles.
"""

from __future__ import annotations

import logging
import struct
import zlib
from collections.abc import Iterator

import olefile

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.embedded import ObjectBudget, storage_children
from goblin_office.encryption import decrypted

log = logging.getLogger(__name__)

_TEXT_CHARS = 0x0FA0
_TEXT_BYTES = 0x0FA8
_SLIDE_PERSIST = 0x03F3
_SLIDE = 0x03EE
_SLIDE_LIST = 0x0FF0
_SKIPPED = frozenset({0x03F8, 0x0FC9, 0x03F0})  # masters, handout, notes pages
_HEADER = struct.Struct("<HHI")
# embedded objects: an ExEmbed container's ExOleObjAtom names, by persist id, the
# ExOleObjStg record holding the object's compound file; the persist directories of
# the edits (the last save's first, from the Current User stream) map ids to offsets
_EX_EMBED = 0x0FCC
_EX_OLE_OBJ_ATOM = 0x0FC3
_EX_OLE_OBJ_STG = 0x1011
_USER_EDIT = 0x0FF5
_PERSIST_DIRECTORY = 0x1772


class _Deck:
    """Text atoms gathered per slide: from the slide list, then from each slide's drawing."""

    def __init__(self) -> None:
        self.listed: list[list[str]] = []
        self.drawn: list[list[str]] = []

    def pages(self) -> list[list[str]]:
        count = max(len(self.listed), len(self.drawn))
        pages = []
        for index in range(count):
            runs = list(self.listed[index]) if index < len(self.listed) else []
            for text in self.drawn[index] if index < len(self.drawn) else []:
                if text not in runs:
                    runs.append(text)
            pages.append(runs)
        return [p for p in pages if p]


def slide_texts(stream: bytes) -> list[list[str]]:
    """Text runs grouped by slide."""
    deck = _Deck()
    for kind, container, stack, start, length in _records(stream, _SKIPPED):
        if container:
            if kind == _SLIDE:
                deck.drawn.append([])
            continue
        _atom(deck, stack, kind, stream[start : start + length])
    return deck.pages()


def _atom(deck: _Deck, stack: list[tuple[int, int, int]], kind: int, body: bytes) -> None:
    in_list = any(t == _SLIDE_LIST and inst == 0 for t, inst, _ in stack)
    if kind == _SLIDE_PERSIST and in_list:
        deck.listed.append([])
        return
    if kind not in (_TEXT_CHARS, _TEXT_BYTES):
        return
    text = body.decode("utf-16-le" if kind == _TEXT_CHARS else "cp1252", "replace")
    text = text.replace("\r", "\n").replace("\x0b", "\n").strip()
    if not text:
        return
    if in_list and deck.listed:
        deck.listed[-1].append(text)
    elif any(t == _SLIDE for t, _, _ in stack) and deck.drawn:
        deck.drawn[-1].append(text)


def _records(
    stream: bytes, skipped: frozenset[int] = frozenset()
) -> Iterator[tuple[int, bool, list[tuple[int, int, int]], int, int]]:
    """(type, whether a container, enclosing containers as (type, instance, end), body
    start, body length) of every record in stream order, containers opened but those of a
    ``skipped`` type. The list of containers is the walker's own: read it, do not keep it."""
    stack: list[tuple[int, int, int]] = []
    pos = 0
    while pos + 8 <= len(stream):
        while stack and pos >= stack[-1][2]:
            stack.pop()
        ver_inst, kind, length = _HEADER.unpack_from(stream, pos)
        pos += 8
        container = ver_inst & 0x000F == 0x000F
        if container and kind in skipped:
            pos += length
            continue
        yield kind, container, stack, pos, length
        if container:
            stack.append((kind, ver_inst >> 4, pos + length))
        else:
            pos += length


def _live_offsets(stream: bytes, current_user: bytes) -> dict[int, int]:
    """Persist id -> offset of the record it names now, through the chain of edits."""
    offsets: dict[int, int] = {}
    if len(current_user) < 20:
        return offsets
    (edit,) = struct.unpack_from("<I", current_user, 16)  # CurrentUserAtom.offsetToCurrentEdit
    seen: set[int] = set()
    while edit > 0 and edit + 24 <= len(stream) and edit not in seen:
        seen.add(edit)
        _, kind, _ = _HEADER.unpack_from(stream, edit)
        if kind != _USER_EDIT:
            break
        previous, directory = struct.unpack_from("<II", stream, edit + 16)
        _read_directory(stream, directory, offsets)
        edit = previous
    return offsets


def _read_directory(stream: bytes, at: int, offsets: dict[int, int]) -> None:
    """Add a PersistDirectoryAtom's entries to ``offsets``, where a later edit's win."""
    if at + 8 > len(stream):
        return
    _, kind, length = _HEADER.unpack_from(stream, at)
    if kind != _PERSIST_DIRECTORY:
        return
    pos, end = at + 8, min(at + 8 + length, len(stream))
    while pos + 4 <= end:
        (entry,) = struct.unpack_from("<I", stream, pos)
        first, count = entry & 0xFFFFF, entry >> 20
        pos += 4
        for index in range(count):
            if pos + 4 > end:
                return
            offsets.setdefault(first + index, struct.unpack_from("<I", stream, pos)[0])
            pos += 4


def embedded_storages(stream: bytes, current_user: bytes, max_size: int) -> list[bytes]:
    """The compound file of each object the presentation embeds (not its ActiveX controls
    nor its macros, kept the same way), inflated when stored compressed; one larger than
    ``max_size`` is left out."""
    references = [
        struct.unpack_from("<I", stream, start + 16)[0]  # ExOleObjAtom.persistIdRef
        for kind, _, stack, start, length in _records(stream)
        if kind == _EX_OLE_OBJ_ATOM and stack and stack[-1][0] == _EX_EMBED and length >= 20
    ]
    offsets = _live_offsets(stream, current_user) if references else {}
    storages = []
    for reference in dict.fromkeys(references):
        at = offsets.get(reference)
        if at is None or at + 8 > len(stream):
            continue
        ver_inst, kind, length = _HEADER.unpack_from(stream, at)
        if kind != _EX_OLE_OBJ_STG:
            continue
        body = stream[at + 8 : at + 8 + length]
        data = _inflated(body[4:], max_size) if ver_inst >> 4 == 1 else body
        if data is not None and len(data) <= max_size:
            storages.append(data)
    return storages


def _inflated(data: bytes, max_size: int) -> bytes | None:
    """zlib ``data`` inflated, or None when damaged or past ``max_size`` (a bomb)."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, max_size + 1)
    except zlib.error as exc:
        log.debug("embedded object not inflated: %s", exc)
        return None
    return out if len(out) <= max_size else None


class PptRecordsParser(BaseEngine):
    """PowerPoint 97-2003 text from the record stream: slide lists and slide drawings."""

    name = "office.ppt_records"
    formats = (fmt.PPT,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        plain = decrypted(source, config)
        try:
            with olefile.OleFileIO(plain.open()) as ole:
                stream = ole.openstream("PowerPoint Document").read()
                user = ole.openstream("Current User").read() if ole.exists("Current User") else b""
        except (OSError, ValueError, IndexError, TypeError) as exc:
            raise CorruptDocument(
                f"no readable PowerPoint Document stream ({exc})", file=source.display_name
            ) from exc
        slides = slide_texts(stream)
        if not slides:
            raise CorruptDocument(
                "the presentation holds no text records", file=source.display_name
            )
        children = []
        if config.get("office", "embedded", True):
            size = ObjectBudget.from_config(config).member_size
            children = storage_children(source, embedded_storages(stream, user, size), config)
        return TextDocument(["\n".join(runs) for runs in slides], attachments=children)
