"""The files a multi-page DjVu document is made of, and the pages whose file is not there.

A multi-page document (``DJVM``) lists its component files in a directory: bundled,
each file's offset inside the document; indirect, each file's name beside the index.
DjVuLibre says little when a page's file is missing: djvutxt gives it no text, as it
gives a page without a text layer, and every later tool run on that page (sizing,
drawing it for OCR) fails only after reading the whole directory again, some 0.2 s
in a long book. A file cut at a tenth of a 1,500-page book had 1,420 pages sent to OCR
that way, over four minutes. Knowing from the directory which pages are missing makes
each of them one clear page error, found in one run.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from goblin_core.source import Source

# one line of ``djvused -e ls``: page number (pages only), kind, size in bytes, id, title
_LISTED = re.compile(rb"^[ \t]*(\d*)[ \t]+([A-Z])[ \t]+(\d+)[ \t]+(.+?)(?: T=(.*?))?[ \t]*$", re.M)
# a DJVM document's directory chunk begins at byte 16; its flags, file count and (bundled)
# offsets follow the chunk's header
_DIRM_AT = 16
_OFFSETS_AT = _DIRM_AT + 11


@dataclass(frozen=True)
class Component:
    """One file of a multi-page document, as ``djvused -e ls`` lists it."""

    page: int | None
    size: int
    name: str
    #: the page's title, '' for none: a link may name the page by it (``#Chapter Two``)
    title: str = ""


def listed_components(listing: bytes) -> list[Component]:
    """The components of ``djvused -e ls``'s output, in the directory's order.

    >>> listed_components(b"   1 P      146  p1.djvu\\n     A  49  shared.iff\\n"
    ...                   b"   2 P      148  p2.djvu T=Chapter Two\\n")[2]
    Component(page=2, size=148, name='p2.djvu', title='Chapter Two')
    """
    return [Component(int(number) if number else None, int(size),
                      name.decode("utf-8", "replace"), title.decode("utf-8", "replace"))
            for number, _, size, name, title in _LISTED.findall(listing)]


def pages_past_the_end(source: Source, components: list[Component]) -> dict[int, str]:
    """Pages of a bundled document whose file ends past the end of the document (a file
    cut short, or a directory that lies), each with why. Nothing when the directory
    cannot be matched to the listing (see ``placed``)."""
    size = source.size
    missing: dict[int, str] = {}
    for component, offset in placed(source, components) or []:
        end = offset + component.size
        if component.page is not None and end > size:
            missing[component.page] = (
                f"the page's data (bytes {offset:,} to {end:,}) lies past the end of "
                f"the file ({size:,} bytes): the file is cut short, or its directory "
                "is wrong")
    return missing


def wrong_form_sizes(source: Source, components: list[Component]) -> dict[int, int]:
    """Files of a bundled document whose own header (``FORM`` and its size) gives a size
    other than the directory's, by where the size is written, with the directory's: a
    flipped bit there costs DjVuLibre the page. Only files that lie within the document."""
    size = source.size
    wrong: dict[int, int] = {}
    with source.open() as stream:
        for component, offset in placed(source, components) or []:
            if offset + component.size > size:
                continue
            stream.seek(offset)
            header = stream.read(8)
            if header[:4] == b"FORM" and int.from_bytes(header[4:8], "big") != component.size - 8:
                wrong[offset + 4] = component.size - 8
    return wrong


def placed(source: Source, components: list[Component]) -> list[tuple[Component, int]] | None:
    """Each listed file of a bundled document with its offset; None when the directory
    cannot be matched to the listing.

    The directory's offsets are matched to the listed files in order. Thumbnails are
    files of the directory that ``ls`` does not list one by one (one ``<thumbnails>``
    line for them all): those whose ``FORM:THUM`` header is in the file are passed over.
    """
    offsets = directory_offsets(source)
    if offsets is None or len(offsets) < len(components):
        return None
    listed = iter(components)
    found: list[tuple[Component, int]] = []
    with source.open() as stream:
        for offset in offsets:
            if _thumbnails_at(stream, offset):
                continue
            component = next(listed, None)
            if component is None:
                return None  # more files than listed: the two cannot be matched
            found.append((component, offset))
    return found if next(listed, None) is None else None


def directory_offsets(source: Source) -> list[int] | None:
    """The offset of each file of a bundled document, in its directory's order (stored
    plain, before the directory's compressed part); None when the directory is cut."""
    head = source.read(_OFFSETS_AT, 0)
    if len(head) < _OFFSETS_AT or head[_DIRM_AT:_DIRM_AT + 4] != b"DIRM":
        return None
    count = int.from_bytes(head[_OFFSETS_AT - 2:_OFFSETS_AT], "big")
    table = source.read(4 * count, _OFFSETS_AT)
    if len(table) != 4 * count:
        return None
    return list(struct.unpack(f">{count}I", table))


def _thumbnails_at(stream: BinaryIO, offset: int) -> bool:
    """Whether the file at ``offset`` of a bundled document is its pages' thumbnails."""
    stream.seek(offset)
    header = stream.read(12)
    return header[:4] == b"FORM" and header[8:12] == b"THUM"


def page_files_missing(index: Path, components: list[Component]) -> dict[int, str]:
    """Pages of an indirect document whose file is not in the index's folder, each with
    why. A name that leads out of the folder is left to DjVuLibre, which refuses it."""
    folder = index.parent.resolve()
    missing: dict[int, str] = {}
    for component in components:
        if component.page is None:
            continue
        target = (folder / component.name).resolve()
        if target.is_relative_to(folder) and not target.is_file():
            missing[component.page] = (f"the page's file {component.name!r} is missing from "
                                       "the document's folder")
    return missing
