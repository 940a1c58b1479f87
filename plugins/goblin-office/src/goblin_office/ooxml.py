"""OOXML packages: opening them safely, their parts and relationships, their properties,
their embedded parts."""

from __future__ import annotations

import logging
import posixpath
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any
from urllib.parse import unquote

from goblin_core.config import Config
from goblin_core.engines import TextDocument
from goblin_core.errors import CorruptDocument, GoblinError, UnsafeArchive
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office.containers import open_container, read_member
from goblin_office.embedded import unique_name, unwrap
from goblin_office.encryption import decrypted
from goblin_office.safexml import (
    DeclaredEntities,
    attr,
    container_blocks,
    local_name,
    parse_xml,
)

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


def open_package(source: Source, config: Config) -> tuple[Source, zipfile.ZipFile]:
    """The package decrypted when needed and its zip, opened and checked once.

    For a reader that parses every XML part it reads with ``PackageXml.xml``: the
    hardened parser refuses entities there, so the prologs are not read twice.
    """
    plain = decrypted(source, config)
    return plain, open_container(plain, config, scan_xml=False)


class PackageXml:
    """The XML parts of an OOXML package read straight from its zip, relationships followed.

    The zip is opened and checked against the container limits by the caller, once;
    each part is parsed with the hardened parser.
    """

    def __init__(self, archive: zipfile.ZipFile, name: str, config: Config) -> None:
        self.archive = archive
        self.name = name
        self.config = config
        self.depth = int(config.get("limits", "max_xml_depth", 256))
        self.names = set(archive.namelist())
        # OPC part names are case-insensitive; writers do not always agree on the case
        self._folded = {n.lower(): n for n in self.names}
        self._rels: dict[str, dict[str, tuple[str, str]]] = {}

    def member(self, path: str) -> str | None:
        """The zip member holding part ``path`` (any case, percent-encoded or not)."""
        for candidate in (path, unquote(path)):
            found = candidate if candidate in self.names else self._folded.get(candidate.lower())
            if found is not None:
                return found
        return None

    def xml(self, path: str) -> Any:
        """Part ``path`` parsed with the hardened parser (entities refuse the package)."""
        member = self.member(path) or path
        with self._entities_refused(member):
            return parse_xml(
                read_member(self.archive, member, self.name),
                name=f"{self.name}:{member}",
                max_depth=self.depth,
            )

    def blocks(self, path: str, container: str) -> Iterator[Any]:
        """The child elements of the root's ``container`` elements in part ``path`` (a
        document's ``body``), in order, each complete when yielded; a large part is read
        as it parses (``container_blocks``)."""
        member = self.member(path) or path
        data = read_member(self.archive, member, self.name)
        with self._entities_refused(member):
            yield from container_blocks(data, (container,), name=f"{self.name}:{member}",
                                        max_depth=self.depth)

    @contextmanager
    def _entities_refused(self, member: str) -> Iterator[None]:
        """A part declaring entities refuses the whole package (UnsafeArchive), as the
        container check does: no other engine should be handed it."""
        try:
            yield
        except DeclaredEntities as exc:
            raise UnsafeArchive(
                f"XML part {member!r} declares entities (XXE or billion laughs); refused",
                file=self.name,
            ) from exc

    def rels(self, path: str) -> dict[str, tuple[str, str]]:
        """Relationship id -> (type, target part) of part ``path`` ('' for the package)."""
        if path not in self._rels:
            self._rels[path] = self._read_rels(path)
        return self._rels[path]

    def _read_rels(self, path: str) -> dict[str, tuple[str, str]]:
        folder, base = posixpath.split(path)
        rels_path = self.member(posixpath.join(folder, "_rels", base + ".rels"))
        if rels_path is None:
            return {}
        found = {}
        for rel in self.xml(rels_path):
            target = attr(rel, "Target")
            if attr(rel, "TargetMode") == "External" or not target:
                continue
            full = (
                target.lstrip("/")
                if target.startswith("/")
                else posixpath.normpath(posixpath.join(folder, target))
            )
            found[attr(rel, "Id")] = (attr(rel, "Type"), full)
        return found

    def related(self, path: str, suffix: str) -> list[str]:
        """Parts ``path`` links to with a relationship type ending in ``suffix``, once each.

        A part the package names but does not hold is left out with a warning, so the
        rest of the document is still read.
        """
        found: list[str] = []
        for kind, target in self.rels(path).values():
            if not kind.endswith(suffix) or target in found:
                continue
            if self.member(target) is None:
                log.warning("%s: part %s is missing; left out", self.name, target)
                continue
            found.append(target)
        return found

    def main_part(self) -> str:
        """The officeDocument part, transitional or Strict."""
        for kind, target in self.rels("").values():
            if kind.endswith("/officeDocument") and self.member(target) is not None:
                return target
        raise CorruptDocument("the package has no main document part", file=self.name)


def package_document(
    pages: Sequence[PageContent], package: PackageXml, plain: Source, config: Config
) -> TextDocument:
    """The pages of a package read from its zip, with its core properties and embedded objects."""
    return TextDocument(
        list(pages),
        metadata=core_properties(package),
        attachments=package_children(plain, config, package.archive),
    )


def core_properties(package: PackageXml) -> dict[str, str]:
    """title, author, created, modified... from docProps/core.xml."""
    for part in package.related("", "/core-properties"):
        try:
            root = package.xml(part)
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
