"""Embedded objects of Office documents, unwrapped into the files they hold.

An object Word or PowerPoint embeds is often an OLE2 wrapper: ``Ole10Native``
holds a packaged file (name and bytes), ``CONTENTS`` a PDF, ``Package`` an
OOXML file. The unwrapped bytes go back through the pipeline as a child.
"""

from __future__ import annotations

import io
import logging
import posixpath

import olefile

log = logging.getLogger(__name__)

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def unwrap(name: str, data: bytes) -> tuple[str, bytes]:
    """(file name, bytes) of what an embedded object holds; the object itself otherwise."""
    if not data.startswith(_OLE_MAGIC):
        return posixpath.basename(name), data
    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            return _from_ole(ole, name, data)
    except (OSError, ValueError, IndexError, TypeError) as exc:
        log.debug("embedded %s is not a readable OLE object: %s", name, exc)
        return posixpath.basename(name), data


def _from_ole(ole: olefile.OleFileIO, name: str, data: bytes) -> tuple[str, bytes]:
    base = posixpath.splitext(posixpath.basename(name))[0]
    if ole.exists("\x01Ole10Native"):
        packaged = _ole10_native(ole.openstream("\x01Ole10Native").read())
        if packaged is not None:
            return packaged
    if ole.exists("CONTENTS"):
        contents = ole.openstream("CONTENTS").read()
        if contents.startswith(b"%PDF"):
            return f"{base}.pdf", contents
    if ole.exists("Package"):
        return f"{base}.bin", ole.openstream("Package").read()
    return posixpath.basename(name), data


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
    name = posixpath.basename(label.replace("\\", "/")) or "embedded.bin"
    return name, payload
