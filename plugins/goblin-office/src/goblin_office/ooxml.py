"""OOXML packages: opening them safely, their properties, their embedded parts."""

from __future__ import annotations

import io
import logging
import posixpath
import zipfile
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from goblin_core.config import Config
from goblin_core.errors import CorruptDocument, GoblinError
from goblin_core.source import Source
from goblin_office.containers import open_container
from goblin_office.embedded import unique_name, unwrap
from goblin_office.encryption import decrypted
from goblin_office.safexml import local_name, parse_xml

if TYPE_CHECKING:
    from docx.opc.package import OpcPackage
    from docx.opc.part import Part

log = logging.getLogger(__name__)

_CORE_KEYS = {
    "title": "title",
    "creator": "author",
    "created": "created",
    "modified": "modified",
    "language": "language",
    "subject": "subject",
    "keywords": "keywords",
    "lastModifiedBy": "last_modified_by",
    "description": "description",
}


def plain_package(source: Source, config: Config) -> Source:
    """The package decrypted when needed, its zip checked against the limits."""
    plain = decrypted(source, config)
    open_container(plain, config).close()
    return plain


def open_opc(plain: Source) -> OpcPackage:
    """The OPC package of a plain (decrypted, checked) source; python-docx reads any family."""
    # python-docx loads on first use, not with the plugin: every worker and
    # goblin command would pay for it otherwise.
    from docx.opc.package import OpcPackage

    try:
        return OpcPackage.open(io.BytesIO(plain.bytes()))
    except GoblinError:
        raise
    except Exception as exc:  # python-docx raises KeyError, ValueError, lxml errors...
        raise CorruptDocument(
            f"the OOXML package cannot be read ({type(exc).__name__}: {exc})",
            file=plain.display_name,
        ) from exc


def main_part(package: OpcPackage, name: str) -> Part:
    """The officeDocument part, transitional or Strict."""
    for rel in package.rels.values():
        if rel.reltype.endswith("/officeDocument") and not rel.is_external:
            return rel.target_part
    raise CorruptDocument("the package has no main document part", file=name)


def related(part: Part, suffix: str) -> list[Part]:
    """Parts ``part`` links to with a relationship type ending in ``suffix``."""
    found: list[Part] = []
    for rel in part.rels.values():
        if rel.is_external or not rel.reltype.endswith(suffix):
            continue
        if rel.target_part not in found:
            found.append(rel.target_part)
    return found


def part_xml(part: Part, name: str, config: Config) -> Any:
    """A part parsed with the hardened XML parser."""
    return parse_xml(
        part.blob,
        name=f"{name}:{part.partname}",
        max_depth=int(config.get("limits", "max_xml_depth", 256)),
    )


def core_properties(package: OpcPackage, name: str, config: Config) -> dict[str, str]:
    """title, author, created, modified... from docProps/core.xml."""
    for rel in package.rels.values():
        if rel.reltype.endswith("/core-properties") and not rel.is_external:
            try:
                root = part_xml(rel.target_part, name, config)
            except GoblinError as exc:
                log.warning("%s", exc)
                return {}
            return {
                _CORE_KEYS[local_name(el)]: (el.text or "").strip()
                for el in root
                if local_name(el) in _CORE_KEYS and (el.text or "").strip()
            }
    return {}


def package_children(
    source: Source, config: Config, archive: zipfile.ZipFile | None = None
) -> list[Source]:
    """Children for the embedded objects (and media, when asked) of an OOXML package.

    Objects live under ``word/embeddings``, ``xl/embeddings`` and ``ppt/embeddings``
    whichever part links them (body, header, slide, chart); OLE wrappers are unwrapped
    into the file they hold. ``archive`` is the package already open (and checked).
    """
    if not config.get("office", "embedded", True):
        return []
    images = bool(config.get("office", "images", False))
    children: list[Source] = []
    seen: set[str] = set()
    opened = nullcontext(archive) if archive is not None else open_container(source, config)
    with opened as archive:
        for info in archive.infolist():
            folder = posixpath.dirname(info.filename).rsplit("/", 1)[-1]
            if info.is_dir() or not (folder == "embeddings" or (images and folder == "media")):
                continue
            name, data = unwrap(info.filename, archive.read(info))
            children.append(source.child(unique_name(name, seen), data))
    return children
