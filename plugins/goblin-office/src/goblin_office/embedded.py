"""Embedded objects of Office documents, unwrapped into the files they hold.

An object Word or PowerPoint embeds is often an OLE2 wrapper: ``Ole10Native``
holds a packaged file (name and bytes), ``CONTENTS`` a PDF, ``Package`` an
OOXML file. The unwrapped bytes go back through the pipeline as a child.
"""

from __future__ import annotations

import io
import logging
import posixpath
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field

import olefile

from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits
from goblin_core.source import Source

log = logging.getLogger(__name__)

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_OOXML_FOLDERS = {"word/": "docx", "xl/": "xlsx", "ppt/": "pptx"}


@dataclass
class ObjectBudget:
    """How many embedded objects, and how many bytes, one document may still hand out.

    Objects carried inside a document's own text (base64 in flat ODF, hex in RTF)
    are held to the limits archives and containers are read under; what is over
    them is skipped and named in ``skipped``, and the document's text is kept.
    """

    members: int
    member_size: int
    total_bytes: int
    skipped: list[str] = field(default_factory=list)

    @classmethod
    def from_config(cls, config: Config) -> ObjectBudget:
        limits = ArchiveLimits.from_config(config)
        return cls(limits.max_members, limits.max_member_size, limits.max_total_bytes)

    def allows(self, name: str, size: int) -> bool:
        """Take ``size`` bytes for object ``name`` from the budget, or record why not."""
        if self.members <= 0:
            self.skipped.append(f"{name}: over limits.max_members")
        elif size > self.member_size:
            self.skipped.append(f"{name}: {size:,} bytes, over limits.max_member_size")
        elif size > self.total_bytes:
            self.skipped.append(f"{name}: over limits.max_total_bytes")
        else:
            self.members -= 1
            self.total_bytes -= size
            return True
        log.warning("embedded object skipped: %s", self.skipped[-1])
        return False


def unwrap(name: str, data: bytes) -> tuple[str, bytes]:
    """(file name, bytes) of what an embedded object holds; the object itself otherwise."""
    if not data.startswith(_OLE_MAGIC):
        return posixpath.basename(name), data
    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            return _from_ole(ole, name, data)
    # RecursionError: olefile walks a directory chained entry after entry one call a level
    except (OSError, ValueError, IndexError, TypeError, RecursionError) as exc:
        log.debug("embedded %s is not a readable OLE object: %s", name, exc)
        return posixpath.basename(name), data


def _from_ole(ole: olefile.OleFileIO, name: str, data: bytes) -> tuple[str, bytes]:
    held = _held(ole, (), posixpath.splitext(posixpath.basename(name))[0], len(data))
    return held if held is not None else (posixpath.basename(name), data)


def _held(
    ole: olefile.OleFileIO, storage: tuple[str, ...], base: str, room: int
) -> tuple[str, bytes] | None:
    """The file the object in ``storage`` (the root when empty) holds, named after ``base``.

    ``room`` is how many bytes of the compound file ``ole`` reads are not yet handed
    out: a stream claiming more is left out. Its streams are the file's own bytes, so
    an honest object fits; olefile follows a sector chain for as many sectors as the
    stream claims, and a chain looping back on itself would repeat one sector up to the
    4 GB a size field can say.
    """
    native = _stream(ole, [*storage, "\x01Ole10Native"], room)
    if native is not None:
        packaged = _ole10_native(native)
        if packaged is not None:
            return packaged
    contents = _stream(ole, [*storage, "CONTENTS"], room)
    if contents is not None and contents.startswith(b"%PDF"):
        return f"{base}.pdf", contents
    package = _stream(ole, [*storage, "Package"], room)
    if package is not None:
        return f"{base}.{_package_extension(package)}", package
    return None


def _stream(ole: olefile.OleFileIO, path: list[str], room: int) -> bytes | None:
    """The stream at ``path``; None when there is none or it claims more than ``room``."""
    if not ole.exists(path):
        return None
    size = ole.get_size(path)
    if size > room:
        log.warning("embedded stream %r left out: it claims %d bytes, more than the %d "
                    "left of its compound file", "/".join(path), size, room)
        return None
    data: bytes = ole.openstream(path).read()
    return data


def _object_storage(path: Sequence[str]) -> bool:
    """Whether ``path`` is where Word (``ObjectPool/_123``) or Excel (``MBD0009CF7B`` at
    the root) keeps one embedded object of a 97-2003 file."""
    if len(path) == 2:
        return path[0] == "ObjectPool"
    return len(path) == 1 and path[0].startswith("MBD")


def ole_children(source: Source, plain: Source, config: Config) -> list[Source]:
    """Children for the objects a Word or Excel 97-2003 file (``plain``, decrypted) embeds.

    Each object is a storage of the file: a packaged file, a PDF or an OOXML
    document comes out as the file it is. An object that is itself a 97-2003
    document (a sheet in a .doc) is a storage, not a file, and is left out.
    """
    if not config.get("office", "embedded", True) or plain.head(8) != _OLE_MAGIC:
        return []
    budget = ObjectBudget.from_config(config)
    children: list[Source] = []
    seen: set[str] = set()
    # each object is stored bytes of the file, in sectors of its own when the file is
    # honest: together they cannot be more than the file. Directory entries sharing one
    # stream would hand it out again for each (900 copies of 3 MB from a 7 MB .doc).
    room = plain.size
    try:
        with olefile.OleFileIO(plain.open()) as ole:
            for path in ole.listdir(streams=False, storages=True):
                if not _object_storage(path):
                    continue
                held = _held(ole, tuple(path), path[-1], room)
                if held is None:
                    log.debug("%s: object %s holds no file", source.display_name, "/".join(path))
                elif budget.allows(held[0], len(held[1])):
                    room -= len(held[1])
                    children.append(source.child(unique_name(held[0], seen), held[1]))
    except (OSError, ValueError, IndexError, TypeError, RecursionError) as exc:
        # the text is what the engine was asked for: an unreadable object table costs only it
        log.warning("%s: embedded objects not read: %s", source.display_name, exc)
    return children


_OLE_DOCUMENTS = (("WordDocument", "doc"), ("Workbook", "xls"), ("Book", "xls"),
                  ("PowerPoint Document", "ppt"))


def storage_children(source: Source, storages: Sequence[bytes], config: Config) -> list[Source]:
    """Children for objects kept as whole compound files (a .ppt's ExOleObjStg records):
    the file each one wraps, else the 97-2003 document it is (``object1.xls``)."""
    budget = ObjectBudget.from_config(config)
    children: list[Source] = []
    seen: set[str] = set()
    for number, data in enumerate(storages, start=1):
        base = f"object{number}"
        try:
            with olefile.OleFileIO(io.BytesIO(data)) as ole:
                held = _held(ole, (), base, len(data))
                if held is None:
                    kind = next((e for s, e in _OLE_DOCUMENTS if ole.exists(s)), "bin")
                    held = f"{base}.{kind}", data
        except (OSError, ValueError, IndexError, TypeError, RecursionError) as exc:
            log.warning("%s: embedded %s not read: %s", source.display_name, base, exc)
            continue
        if budget.allows(held[0], len(held[1])):
            children.append(source.child(unique_name(held[0], seen), held[1]))
    return children


def _package_extension(package: bytes) -> str:
    """docx, xlsx or pptx for an OOXML package by its part folders; bin otherwise."""
    try:
        with zipfile.ZipFile(io.BytesIO(package)) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return "bin"
    for folder, extension in _OOXML_FOLDERS.items():
        if any(n.startswith(folder) for n in names):
            return extension
    return "bin"


def packaged_file(native: bytes) -> tuple[str, bytes] | None:
    """The file an OLE Packager object holds (RTF's OLE1 ``Package`` native data)."""
    return _ole10_native(len(native).to_bytes(4, "little") + native)


def _ole10_native(stream: bytes) -> tuple[str, bytes] | None:
    """The packaged file of an Ole10Native stream: size, flags, label, path, data."""
    try:
        pos = 6  # total size (4) and flags (2)
        label_end = stream.index(b"\x00", pos)
        label = stream[pos:label_end].decode("latin-1")
        pos = stream.index(b"\x00", label_end + 1) + 1  # original path
        pos += 8  # reserved
        pos = stream.index(b"\x00", pos) + 1  # temporary path
        size = int.from_bytes(stream[pos : pos + 4], "little")
        payload = stream[pos + 4 : pos + 4 + size]
    except ValueError:
        return None
    if not payload or len(payload) != size:
        return None
    label = _wide_label(stream, pos + 4 + size) or label
    name = posixpath.basename(label.replace("\\", "/")) or "embedded.bin"
    return name, payload


def _wide_label(stream: bytes, pos: int) -> str | None:
    """The UTF-16 label Packager writes after the data (temporary path, label, source
    path, each a character count and UTF-16LE), or None: the label before the data is
    in the writer's ANSI code page, with ``?`` for every letter outside it."""
    found = []
    for _ in range(3):
        if pos + 4 > len(stream):
            return None
        count = int.from_bytes(stream[pos : pos + 4], "little")
        text = stream[pos + 4 : pos + 4 + 2 * count]
        if len(text) != 2 * count:
            return None
        found.append(text.decode("utf-16-le", "replace"))
        pos += 4 + 2 * count
    return found[1] or None


def unique_name(name: str, seen: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``... when a sibling already has it."""
    if name not in seen:
        seen.add(name)
        return name
    stem, dot, ext = name.rpartition(".")
    for n in range(2, 10_000):
        candidate = f"{stem}-{n}.{ext}" if dot else f"{name}-{n}"
        if candidate not in seen:
            seen.add(candidate)
            return candidate
    return name
