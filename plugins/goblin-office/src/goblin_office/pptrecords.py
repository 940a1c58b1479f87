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
from collections import Counter
from collections.abc import Iterator
from itertools import islice
from typing import Any, NamedTuple

import olefile

from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.embedded import storage_children
from goblin_office.encryption import decrypted
from goblin_office.olesalvage import stream_starts, surviving_sectors
from goblin_office.olesummary import summary_metadata

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
        """The text runs of each slide, a slide without text an empty list, so each
        slide keeps its number; a drawing past the slides the slide list names (none
        listed, or an older copy an edit left in the stream) counts only with text."""
        count = max(len(self.listed), len(self.drawn))
        pages = []
        for index in range(count):
            runs = list(self.listed[index]) if index < len(self.listed) else []
            # a set, not the list: a slide of many thousand text atoms is asked of each
            present = set(runs)
            for text in self.drawn[index] if index < len(self.drawn) else []:
                if text not in present:
                    present.add(text)
                    runs.append(text)
            pages.append(runs)
        if not self.listed:
            return pages
        listed = len(self.listed)
        return pages[:listed] + [runs for runs in pages[listed:] if runs]


def slide_texts(stream: bytes) -> list[list[str]]:
    """Text runs grouped by slide, an empty list for a slide without text."""
    deck = _Deck()
    for kind, container, enclosing, start, length in _records(stream, _SKIPPED):
        if container:
            if kind == _SLIDE:
                deck.drawn.append([])
            continue
        _atom(deck, enclosing, kind, stream[start : start + length])
    return deck.pages()


_DOCUMENT = 0x03E8
_NOTES = 0x03F0
_NOTES_ATOM = 0x03F1
#: SlideShowSlideInfoAtom: how the show moves past a slide; fHidden is bit 2 of the
#: byte after its time, sound and effect fields
_SLIDE_SHOW_INFO = 0x03F9
_SHOW_FLAGS_AT, _HIDDEN_FLAG = 10, 0x04
#: SlideListWithText instances: the slides', and the notes pages'
_SLIDES_LIST, _NOTES_LIST = 0, 2


class LiveSlide(NamedTuple):
    runs: list[str]
    notes: list[str]
    #: hidden from the slide show (the deck keeps it; PowerPoint's "Hide Slide")
    hidden: bool


def live_slides(stream: bytes, current_user: bytes) -> list[LiveSlide] | None:
    """(text runs, notes, hidden) of each slide of the presentation as its last save left it, in
    the order its slide list gives: each slide's drawing is the record the persist
    directory names for it now, so slides moved, and the older copies of the document
    and slides an incremental save leaves in the stream, read as PowerPoint shows them.
    None when the stream has no readable chain of edits (the records are then read in
    stream order: ``slide_texts``)."""
    offsets, document = _live_edit(stream, current_user)
    at = offsets.get(document) if document is not None else None
    if at is None or at + 8 > len(stream):
        return None
    _, kind, length = _HEADER.unpack_from(stream, at)
    if kind != _DOCUMENT:
        return None
    slides: list[tuple[int, int, list[str]]] = []  # persist id, slide id, listed text
    notes_pages: list[int] = []  # persist ids
    for kind, container, enclosing, start, size in _records(stream, _SKIPPED, at + 8,
                                                            at + 8 + length):
        if container:
            continue
        if kind == _SLIDE_PERSIST and size >= 16:
            persist, _flags, _texts, slide_id = struct.unpack_from("<IIiI", stream, start)
            if enclosing.within(_SLIDE_LIST, _SLIDES_LIST):
                slides.append((persist, slide_id, []))
            elif enclosing.within(_SLIDE_LIST, _NOTES_LIST):
                notes_pages.append(persist)
        elif kind in (_TEXT_CHARS, _TEXT_BYTES) and slides \
                and enclosing.within(_SLIDE_LIST, _SLIDES_LIST):
            text = _text(kind, stream[start : start + size])
            if text:
                slides[-1][2].append(text)
    # each record is read once: an honest file names a slide's or notes page's record
    # for it alone, and a hostile one naming one large record for each of thousands of
    # slides would have it read again for each
    seen: set[int] = set()
    notes = _notes_by_slide(stream, [_once(offsets.get(n), seen) for n in notes_pages])
    read: list[LiveSlide] = []
    for persist, slide_id, listed in slides:
        runs = list(listed)
        present = set(runs)
        at = _once(offsets.get(persist), seen)
        for text in _drawn(stream, at, _SLIDE):
            if text not in present:
                present.add(text)
                runs.append(text)
        read.append(LiveSlide(runs, notes.get(slide_id, []), _hidden(stream, at)))
    return read


def _hidden(stream: bytes, at: int | None) -> bool:
    """Whether the slide container at ``at`` is hidden from the show: its own
    SlideShowSlideInfoAtom (a child of the container, not of a drawing in it) says so."""
    if at is None or at + 8 > len(stream):
        return False
    _, kind, length = _HEADER.unpack_from(stream, at)
    if kind != _SLIDE:
        return False
    pos, end = at + 8, min(at + 8 + length, len(stream))
    while pos + 8 <= end:
        _, kind, length = _HEADER.unpack_from(stream, pos)
        if kind == _SLIDE_SHOW_INFO:
            flags = pos + 8 + _SHOW_FLAGS_AT
            return flags < end and bool(stream[flags] & _HIDDEN_FLAG)
        pos += 8 + length
    return False


def _once(at: int | None, seen: set[int]) -> int | None:
    """``at``, or None when it was given before."""
    if at is None or at in seen:
        return None
    seen.add(at)
    return at


def _drawn(stream: bytes, at: int | None, wanted: int) -> list[str]:
    """The text runs of the container of type ``wanted`` at offset ``at`` (a slide's or a
    notes page's drawing); none when it is no such container."""
    if at is None or at + 8 > len(stream):
        return []
    ver_inst, kind, length = _HEADER.unpack_from(stream, at)
    if kind != wanted or ver_inst & 0x000F != 0x000F:
        return []
    runs = []
    for kind, container, _, start, size in _records(stream, _SKIPPED - {wanted}, at + 8,
                                                    at + 8 + length):
        if not container and kind in (_TEXT_CHARS, _TEXT_BYTES):
            text = _text(kind, stream[start : start + size])
            if text:
                runs.append(text)
    return runs


def _notes_by_slide(stream: bytes, pages: list[int | None]) -> dict[int, list[str]]:
    """Slide id -> the text of its notes page (the notes pages the notes list names, each
    saying in its NotesAtom which slide it is for)."""
    found: dict[int, list[str]] = {}
    for at in pages:
        if at is None or at + 16 > len(stream):
            continue
        _, kind, length = _HEADER.unpack_from(stream, at)
        if kind != _NOTES:
            continue
        slide_id = None
        for kind, container, _, start, size in _records(stream, frozenset(), at + 8,
                                                        at + 8 + length):
            if kind == _NOTES_ATOM and not container and size >= 4:
                slide_id = struct.unpack_from("<I", stream, start)[0]
                break
        if slide_id:
            # "*" is the character a slide number or date placeholder stands in with
            found[slide_id] = [t for t in _drawn(stream, at, _NOTES) if t != "*"]
    return found


def _text(kind: int, body: bytes) -> str:
    text = body.decode("utf-16-le" if kind == _TEXT_CHARS else "cp1252", "replace")
    return text.replace("\r", "\n").replace("\x0b", "\n").strip()


def _atom(deck: _Deck, enclosing: _Enclosing, kind: int, body: bytes) -> None:
    in_list = enclosing.within(_SLIDE_LIST, 0)
    if kind == _SLIDE_PERSIST and in_list:
        deck.listed.append([])
        return
    if kind not in (_TEXT_CHARS, _TEXT_BYTES):
        return
    text = _text(kind, body)
    if not text:
        return
    if in_list and deck.listed:
        deck.listed[-1].append(text)
    elif enclosing.within(_SLIDE) and deck.drawn:
        deck.drawn[-1].append(text)


class _Enclosing:
    """The containers open around a record: innermost last in ``stack`` as (type,
    instance, end), and how many of each type and (type, instance) are open, so that
    asking whether a record lies inside one costs the same at any depth (a stream of
    containers nested hundreds of thousands deep is a few MB)."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, int, int]] = []
        self._types: Counter[int] = Counter()
        self._instances: Counter[tuple[int, int]] = Counter()

    def parent(self) -> int | None:
        """The type of the innermost open container."""
        return self.stack[-1][0] if self.stack else None

    def within(self, kind: int, instance: int | None = None) -> bool:
        if instance is None:
            return self._types[kind] > 0
        return self._instances[kind, instance] > 0

    def open(self, kind: int, instance: int, end: int) -> None:
        self.stack.append((kind, instance, end))
        self._types[kind] += 1
        self._instances[kind, instance] += 1

    def close_before(self, pos: int) -> None:
        """Close the containers that end at or before ``pos``."""
        while self.stack and pos >= self.stack[-1][2]:
            kind, instance, _ = self.stack.pop()
            self._types[kind] -= 1
            self._instances[kind, instance] -= 1


def _records(
    stream: bytes, skipped: frozenset[int] = frozenset(), start: int = 0, end: int | None = None,
) -> Iterator[tuple[int, bool, _Enclosing, int, int]]:
    """(type, whether a container, the containers enclosing it, body start, body length)
    of every record in stream order from ``start`` to ``end``, containers opened but
    those of a ``skipped`` type. The enclosing containers are the walker's own: read
    them, do not keep them."""
    enclosing = _Enclosing()
    pos = start
    stop = len(stream) if end is None else min(end, len(stream))
    while pos + 8 <= stop:
        enclosing.close_before(pos)
        ver_inst, kind, length = _HEADER.unpack_from(stream, pos)
        pos += 8
        container = ver_inst & 0x000F == 0x000F
        if container and kind in skipped:
            pos += length
            continue
        yield kind, container, enclosing, pos, length
        if container:
            enclosing.open(kind, ver_inst >> 4, pos + length)
        else:
            pos += length


def _live_offsets(stream: bytes, current_user: bytes) -> dict[int, int]:
    """Persist id -> offset of the record it names now, through the chain of edits."""
    return _live_edit(stream, current_user)[0]


def _live_edit(stream: bytes, current_user: bytes) -> tuple[dict[int, int], int | None]:
    """Persist id -> offset of the record it names now, through the chain of edits, and
    the persist id of the document the last edit saved (None when it names none)."""
    offsets: dict[int, int] = {}
    document: int | None = None
    if len(current_user) < 20:
        return offsets, document
    (edit,) = struct.unpack_from("<I", current_user, 16)  # CurrentUserAtom.offsetToCurrentEdit
    seen: set[int] = set()
    read: set[int] = set()
    # the directories of an honest file are records of their own, apart: together they
    # hold at most a word per four bytes of the stream. Edits naming one directory again,
    # or directories laid over each other, would read it again for each.
    words_left = len(stream) // 4
    while edit > 0 and edit + 24 <= len(stream) and edit not in seen and words_left > 0:
        seen.add(edit)
        _, kind, _ = _HEADER.unpack_from(stream, edit)
        if kind != _USER_EDIT:
            break
        previous, directory, persisted = struct.unpack_from("<III", stream, edit + 16)
        if document is None:
            document = persisted  # UserEditAtom.docPersistIdRef of the last save
        if directory not in read:
            read.add(directory)
            words_left = _read_directory(stream, directory, offsets, words_left)
        edit = previous
    return offsets, document


def _read_directory(stream: bytes, at: int, offsets: dict[int, int], words_left: int) -> int:
    """Add a PersistDirectoryAtom's entries to ``offsets``, where a later edit's win,
    reading at most ``words_left`` words of it; the words still left after it."""
    if at + 8 > len(stream):
        return words_left
    _, kind, length = _HEADER.unpack_from(stream, at)
    if kind != _PERSIST_DIRECTORY:
        return words_left
    pos, end = at + 8, min(at + 8 + length, len(stream), at + 8 + 4 * words_left)
    words_left -= (end - pos) // 4
    while pos + 4 <= end:
        (entry,) = struct.unpack_from("<I", stream, pos)
        first, count = entry & 0xFFFFF, entry >> 20
        pos += 4
        for index in range(count):
            if pos + 4 > end:
                return words_left
            offsets.setdefault(first + index, struct.unpack_from("<I", stream, pos)[0])
            pos += 4
    return words_left


def embedded_storages(
    stream: bytes, current_user: bytes, limits: ArchiveLimits, name: str = ""
) -> list[bytes]:
    """The compound file of each object the presentation embeds (not its ActiveX controls
    nor its macros, kept the same way), inflated when stored compressed.

    Each ExOleObjStg record is read once, however many persist ids name it, and the
    records read together hold at most the stream's bytes (in an honest file they do
    not overlap). An inflated object is held to ``limits.max_member_size``, and all of
    them to ``limits.max_total_bytes`` and to ``limits.max_ratio`` of the bytes they
    were inflated from, as archive members are; an object over a limit is left out.
    """
    references = [
        struct.unpack_from("<I", stream, start + 16)[0]  # ExOleObjAtom.persistIdRef
        for kind, _, enclosing, start, length in _records(stream)
        if kind == _EX_OLE_OBJ_ATOM and enclosing.parent() == _EX_EMBED and length >= 20
    ]
    offsets = _live_offsets(stream, current_user) if references else {}
    records = dict.fromkeys(offsets[r] for r in references if r in offsets)
    storages = []
    stored_left = len(stream)
    packed = inflated = 0
    for at in records:
        if at + 8 > len(stream):
            continue
        ver_inst, kind, length = _HEADER.unpack_from(stream, at)
        if kind != _EX_OLE_OBJ_STG:
            continue
        length = min(length, len(stream) - at - 8)
        if length > stored_left:
            log.warning("%s: embedded object at %d left out: its record overlaps those "
                        "read before it", name, at)
            continue
        stored_left -= length
        body = stream[at + 8 : at + 8 + length]
        if ver_inst >> 4 != 1:
            if length <= limits.max_member_size:
                storages.append(body)
            continue
        packed += length
        room = min(
            limits.max_member_size,
            limits.max_total_bytes - inflated,
            int(packed * limits.max_ratio) + limits.ratio_grace_bytes - inflated,
        )
        data = _inflated(body[4:], room)
        if data is None:
            log.warning("%s: embedded object at %d left out: damaged, or it inflates past "
                        "limits.max_member_size, limits.max_total_bytes or limits.max_ratio "
                        "(%d bytes were left)", name, at, max(room, 0))
            continue
        inflated += len(data)
        storages.append(data)
    return storages


def _inflated(data: bytes, max_size: int) -> bytes | None:
    """zlib ``data`` inflated, or None when damaged or past ``max_size`` (a bomb)."""
    if max_size < 0:
        return None
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, max_size + 1)
    except zlib.error as exc:
        log.debug("embedded object not inflated: %s", exc)
        return None
    return out if len(out) <= max_size else None


def _notes_line(runs: list[str]) -> str:
    """A slide's speaker notes as the pptx reader writes them."""
    return "Notes: " + "\n".join(runs)


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
        except (OSError, ValueError, IndexError, TypeError, RecursionError) as exc:
            raise CorruptDocument(
                f"no readable PowerPoint Document stream ({exc})", file=source.display_name
            ) from exc
        live = live_slides(stream, user)
        notes = bool(config.get("office", "notes", True))
        hidden: list[int] = []
        if live is not None and any(s.runs or (notes and s.notes) for s in live):
            slides = [[*s.runs, *([_notes_line(s.notes)] if notes and s.notes else [])]
                      for s in live]
            hidden = [number for number, s in enumerate(live, start=1) if s.hidden]
        else:
            slides = slide_texts(stream)
        if not any(slides):
            raise CorruptDocument(
                "the presentation holds no text records", file=source.display_name
            )
        children = []
        if config.get("office", "embedded", True):
            storages = embedded_storages(
                stream, user, ArchiveLimits.from_config(config), source.display_name
            )
            children = storage_children(source, storages, config)
        metadata: dict[str, Any] = dict(summary_metadata(plain))
        if hidden:
            metadata["hidden_slides"] = hidden
        pages = []
        for number, runs in enumerate(slides, start=1):
            text = "\n".join(runs)
            # the deck holds it, and a slide show skips it: counted as a pptx's hidden slide
            pages.append(PageContent(number=number, text=text,
                                     hidden_chars=len(text) if number in hidden else 0))
        return TextDocument(pages, metadata=metadata, attachments=children)


#: the record a PowerPoint Document stream opens with: the DocumentContainer's header
#: (version 0xF, a container; instance 0; its type)
_DOCUMENT_HEADER = b"\x0f\x00\xe8\x03"
#: CryptSession10Container: the records after it are encrypted
_ENCRYPTION_HEADER = b"\x0f\x00\x14\x2f"
#: places where a DocumentContainer begins tried, each a read of the stream it opens
_MAX_STARTS = 4


def ppt_document_starts(data: bytes) -> Iterator[int]:
    """Where a PowerPoint Document stream begins in the compound file ``data``, at a
    sector or mini sector."""
    return stream_starts(data, lambda held, at: held.startswith(_DOCUMENT_HEADER, at))


class PptSalvageParser(BaseEngine):
    """The slides of a PowerPoint 97-2003 file cut short, which no reader of compound files
    opens (see ``olesalvage``): the PowerPoint Document stream is found by the record it
    opens with and its records read in stream order, as far as the file holds them."""

    name = "office.ppt_salvage"
    formats = (fmt.PPT,)
    priority = 10

    def open(self, source: Source, config: Config) -> TextDocument:
        sectors = surviving_sectors(source)
        data = sectors.data
        slides: list[list[str]] = []
        for at in islice(ppt_document_starts(data), _MAX_STARTS):
            stream = sectors.stream(at, len(data))
            if _ENCRYPTION_HEADER in stream:
                continue  # its text atoms are encrypted: no text without the password
            slides = slide_texts(stream)
            if any(slides):
                break
        if not any(slides):
            raise CorruptDocument("no PowerPoint Document stream with text survives in the "
                                  "damaged file", file=source.display_name)
        pages = [PageContent(number=number, text="\n".join(runs))
                 for number, runs in enumerate(slides, start=1)]
        document = TextDocument(pages, metadata={"salvaged": True})
        document.left_out = (
            "the compound file is cut short: its slides were read in stream order from what "
            "survives of its PowerPoint Document stream; the slides after the cut, the notes, "
            "the document's properties and its embedded objects are lost")
        return document
