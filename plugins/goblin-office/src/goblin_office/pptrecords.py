"""PowerPoint 97-2003 text read straight from its record stream (no binary needed).

The ``PowerPoint Document`` stream is a tree of records (8-byte headers:
version/instance, type, length). Text lives in TextCharsAtom (UTF-16) and
TextBytesAtom (8-bit) records, in the slide list and inside drawings; a
SlidePersistAtom in the slide list starts the next slide. It is the first engine
for .ppt: catppt, the fallback, misses drawing text and prints master titles.
"""

from __future__ import annotations

import struct

import olefile

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.encryption import decrypted

_TEXT_CHARS = 0x0FA0
_TEXT_BYTES = 0x0FA8
_SLIDE_PERSIST = 0x03F3
_SLIDE = 0x03EE
_SLIDE_LIST = 0x0FF0
_SKIPPED = frozenset({0x03F8, 0x0FC9, 0x03F0})  # masters, handout, notes pages
_HEADER = struct.Struct("<HHI")


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
    stack: list[tuple[int, int, int]] = []  # (type, instance, end)
    pos = 0
    while pos + 8 <= len(stream):
        while stack and pos >= stack[-1][2]:
            stack.pop()
        ver_inst, kind, length = _HEADER.unpack_from(stream, pos)
        pos += 8
        if ver_inst & 0x000F == 0x000F:
            if kind in _SKIPPED:
                pos += length
                continue
            if kind == _SLIDE:
                deck.drawn.append([])
            stack.append((kind, ver_inst >> 4, pos + length))
            continue
        body = stream[pos : pos + length]
        pos += length
        _atom(deck, stack, kind, body)
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
        except (OSError, ValueError, IndexError, TypeError) as exc:
            raise CorruptDocument(
                f"no readable PowerPoint Document stream ({exc})", file=source.display_name
            ) from exc
        slides = slide_texts(stream)
        if not slides:
            raise CorruptDocument(
                "the presentation holds no text records", file=source.display_name
            )
        return TextDocument(["\n".join(runs) for runs in slides])
