"""Objects embedded in OpenDocument documents, packaged or flat, as children.

An ODF package embeds another ODF document as a folder (``Object 1/`` with its
own content.xml) and foreign objects as files (an OLE object, a PDF). The
manifest gives each one's media type; sub-documents are re-packed into a
standalone package so they go through the pipeline like any file. A flat
document (.fodt .fods .fodp) holds the same objects inside its XML.
"""

from __future__ import annotations

import base64
import binascii
import io
import logging
import posixpath
import zipfile
from collections.abc import Iterator
from typing import Any

from lxml import etree

from goblin_core.config import Config
from goblin_core.errors import CorruptDocument, UnsafeArchive
from goblin_core.source import Source
from goblin_office.containers import open_container, read_member
from goblin_office.embedded import ObjectBudget, unique_name, unwrap
from goblin_office.safexml import attr, children, descendants, local_name, parse_xml

log = logging.getLogger(__name__)

_ODF_EXTENSIONS = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.graphics": "odg",
}
_FOREIGN = ("application/vnd.sun.star.oleobject", "application/pdf", "application/octet-stream")


def odf_children(plain: Source, config: Config) -> list[Source]:
    """Children for the embedded documents and objects (and pictures, when asked)."""
    if not config.get("office", "embedded", True):
        return []
    images = bool(config.get("office", "images", False))
    name = plain.display_name
    depth = int(config.get("limits", "max_xml_depth", 256))
    children: list[Source] = []
    with open_container(plain, config) as archive:
        names = archive.namelist()
        try:
            entries = manifest_entries(archive, name, depth)
        except UnsafeArchive:
            raise
        except CorruptDocument as exc:  # the objects it lists are lost, not the text
            log.warning("%s; embedded objects are left out", exc)
            return []
        owned = _subdocument_members(
            names, [path for path, kind in entries.items() if subdocument(path, kind)]
        )
        present = set(names)
        for path, kind in entries.items():
            child = _child(archive, present, owned, path, kind, images, name)
            if child is not None:
                children.append(plain.child(*child))
    return children


def manifest_entries(archive: zipfile.ZipFile, name: str, depth: int) -> dict[str, str]:
    """Path -> media type of each entry of the package's manifest ({} with no manifest).

    Raises CorruptDocument for a manifest that does not parse.
    """
    manifest = "META-INF/manifest.xml"
    if manifest not in archive.namelist():
        return {}
    root = parse_xml(read_member(archive, manifest, name), name=name, max_depth=depth)
    # An entry the manifest repeats is read once: a few bytes of entries would
    # otherwise hand out one large object thousands of times.
    entries: dict[str, str] = {}
    for entry in descendants(root, "file-entry"):
        entries.setdefault(attr(entry, "full-path"), attr(entry, "media-type"))
    return entries


def subdocument(path: str, kind: str) -> bool:
    """Whether a manifest entry is a text, spreadsheet, presentation or drawing document
    embedded as a folder: read as a child of its own."""
    return path.endswith("/") and kind in _ODF_EXTENSIONS and path != "/"


def _subdocument_members(names: list[str], folders: list[str]) -> dict[str, list[str]]:
    """The members of each sub-document folder, less those of a sub-document inside it.

    A sub-document inside another is a child of its own; packed into the outer one
    as well, objects nested a thousand deep would hand out the innermost a thousand
    times. Names sorted put a folder's members right after it, so one pass does.
    """
    owned: dict[str, list[str]] = {folder: [] for folder in folders}
    ordered = sorted(owned)
    holding: list[str] = []  # the folders around the current name, outermost first
    index = 0
    for member in sorted(n for n in names if not n.endswith("/")):
        while index < len(ordered) and ordered[index] <= member:
            folder = ordered[index]
            index += 1
            while holding and not folder.startswith(holding[-1]):
                holding.pop()
            holding.append(folder)
        while holding and not member.startswith(holding[-1]):
            holding.pop()
        if holding:
            owned[holding[-1]].append(member)
    return owned


def _child(
    archive: zipfile.ZipFile,
    names: set[str],
    owned: dict[str, list[str]],
    path: str,
    kind: str,
    images: bool,
    name: str,
) -> tuple[str, bytes] | None:
    if subdocument(path, kind):
        return _repack(archive, owned[path], path, kind, name)
    if path.endswith("/") or path not in names:
        return None
    if kind in _FOREIGN or (path.startswith("Object") and "/" not in path):
        return unwrap(path, read_member(archive, path, name))
    if images and kind.startswith("image/"):
        return posixpath.basename(path), read_member(archive, path, name)
    return None


def _repack(
    archive: zipfile.ZipFile, members: list[str], folder: str, kind: str, name: str
) -> tuple[str, bytes] | None:
    if f"{folder}content.xml" not in members:
        return None
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr(zipfile.ZipInfo("mimetype"), kind)
        for member in members:
            package.writestr(member[len(folder) :], read_member(archive, member, name))
        package.writestr("META-INF/manifest.xml", _manifest(kind))
    return f"{folder.rstrip('/')}.{_ODF_EXTENSIONS[kind]}", buffer.getvalue()


def _manifest(kind: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
        '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{kind}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )


_FLAT_EXTENSIONS = {
    "application/vnd.oasis.opendocument.text": "fodt",
    "application/vnd.oasis.opendocument.spreadsheet": "fods",
    "application/vnd.oasis.opendocument.presentation": "fodp",
    "application/vnd.oasis.opendocument.graphics": "fodg",
}
_IMAGE_MAGIC = {
    b"\x89PNG": "png",
    b"\xff\xd8\xff": "jpg",
    b"GIF8": "gif",
    b"BM": "bmp",
    b"II*\x00": "tif",
    b"MM\x00*": "tif",
}


def flat_odf_children(root: Any, plain: Source, config: Config) -> tuple[list[Source], list[str]]:
    """Children of a flat ODF document: objects and (when asked) pictures held in its XML.

    A flat document carries what a package keeps as members inline: another
    document as an ``office:document`` inside ``draw:object``, an OLE object or a
    picture as base64 ``office:binary-data``. Returns the children and what was
    skipped for being over the limits.
    """
    if not config.get("office", "embedded", True):
        return [], []
    images = bool(config.get("office", "images", False))
    budget = ObjectBudget.from_config(config)
    found: list[tuple[str, bytes]] = []
    for number, element in enumerate(_objects(root, images), start=1):
        child = _flat_child(element, number, budget)
        if child is not None:
            found.append(child)
    seen: set[str] = set()
    return [plain.child(unique_name(name, seen), data) for name, data in found], budget.skipped


def _objects(element: Any, images: bool) -> Iterator[Any]:
    """draw:object, draw:object-ole and (when asked) draw:image elements, in document order.

    An object's own objects travel inside it; a picture beside an object in the
    same frame is only its preview.
    """
    for child in element:
        name = local_name(child)
        if name in ("object", "object-ole"):
            yield child
        elif name == "image":
            if images and not children(element, "object") and not children(element, "object-ole"):
                yield child
        else:
            yield from _objects(child, images)


def _flat_child(element: Any, number: int, budget: ObjectBudget) -> tuple[str, bytes] | None:
    kind = local_name(element)
    inline = next(iter(children(element, "document")), None)
    if inline is not None:
        extension = _FLAT_EXTENSIONS.get(attr(inline, "mimetype"))
        if extension is None:
            return None  # charts and drawings: no text of their own worth a child
        data = etree.tostring(inline, xml_declaration=True, encoding="UTF-8")
        name = f"Object {number}.{extension}"
        return (name, data) if budget.allows(name, len(data)) else None
    binary = next(iter(children(element, "binary-data")), None)
    if binary is None or not (binary.text or "").strip():
        return None
    name = f"Object {number}" if kind != "image" else f"image{number}"
    # base64 is 4 characters for 3 bytes: the size is known before decoding
    if not budget.allows(name, len(binary.text) * 3 // 4):
        return None
    try:
        data = base64.b64decode("".join(binary.text.split()), validate=True)
    except (binascii.Error, ValueError) as exc:
        log.warning("embedded %s is not valid base64: %s", name, exc)
        return None
    if kind == "image":
        return f"{name}.{_image_extension(data)}", data
    return unwrap(f"{name}.bin", data)


def _image_extension(data: bytes) -> str:
    for magic, extension in _IMAGE_MAGIC.items():
        if data.startswith(magic):
            return extension
    return "bin"
