"""Objects embedded in OpenDocument packages, as children.

An ODF package embeds another ODF document as a folder (``Object 1/`` with its
own content.xml) and foreign objects as files (an OLE object, a PDF). The
manifest gives each one's media type; sub-documents are re-packed into a
standalone package so they go through the pipeline like any file.
"""

from __future__ import annotations

import io
import posixpath
import zipfile

from goblin_core.config import Config
from goblin_core.source import Source
from goblin_office.containers import open_container, read_member
from goblin_office.embedded import unwrap
from goblin_office.safexml import attr, descendants, parse_xml

_ODF_EXTENSIONS = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
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
        manifest = "META-INF/manifest.xml"
        if manifest not in names:
            return []
        root = parse_xml(read_member(archive, manifest, name), name=name, max_depth=depth)
        for entry in descendants(root, "file-entry"):
            path, kind = attr(entry, "full-path"), attr(entry, "media-type")
            child = _child(archive, names, path, kind, images, name)
            if child is not None:
                children.append(plain.child(*child))
    return children


def _child(
    archive: zipfile.ZipFile, names: list[str], path: str, kind: str, images: bool, name: str
) -> tuple[str, bytes] | None:
    if path.endswith("/") and kind in _ODF_EXTENSIONS and path != "/":
        return _repack(archive, names, path, kind, name)
    if path.endswith("/") or path not in names:
        return None
    if kind in _FOREIGN or (path.startswith("Object") and "/" not in path):
        return unwrap(path, read_member(archive, path, name))
    if images and kind.startswith("image/"):
        return posixpath.basename(path), read_member(archive, path, name)
    return None


def _repack(
    archive: zipfile.ZipFile, names: list[str], folder: str, kind: str, name: str
) -> tuple[str, bytes] | None:
    members = [n for n in names if n.startswith(folder) and not n.endswith("/")]
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
