"""OOXML packages: opening them safely, their parts and relationships, their properties,
their embedded parts."""

from __future__ import annotations

import io
import logging
import posixpath
import re
import zipfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from lxml import etree

from goblin_core.config import Config
from goblin_core.engines import TextDocument
from goblin_core.errors import CorruptDocument, GoblinError, UnsafeArchive
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office.containers import (
    MEMBER_ERRORS,
    damaged_member,
    open_container,
    read_member,
)
from goblin_office.embedded import unique_name, unwrap
from goblin_office.encryption import decrypted
from goblin_office.safexml import (
    DeclaredEntities,
    UnsafeXML,
    attr,
    children,
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


@dataclass
class MendedPackage:
    """An OOXML package rewritten around its damaged members (``without_damaged_parts``)."""

    data: bytes
    #: damaged member -> why it could not be read
    damaged: dict[str, str] = field(default_factory=dict)

    def warnings(self) -> list[tuple[str, str]]:
        return [("CorruptDocument", f"part {member} cannot be read ({why}); left out")
                for member, why in sorted(self.damaged.items())]


def without_damaged_parts(
    data: bytes, name: str, stand_ins: Callable[[str, str], bytes | None] | None = None,
    xml_parts: Callable[[str], bool] | None = None,
) -> MendedPackage:
    """A copy of the OOXML package ``data`` without the members that do not inflate,
    nor the relationships pointing at them, for a library that loads every part
    before reading one (python-pptx): one damaged theme or layout cost the whole
    presentation. ``stand_ins(member, content type)`` may give bytes to put in a
    damaged member's place instead (an empty slide keeps the slide list whole).
    The members ``xml_parts(member)`` picks are damaged too when they inflate but are
    not well-formed XML (cut short, empty): the library would fail on them just the same.

    The package's own relationships and content types cannot be done without: their
    damage is a CorruptDocument. The caller has checked the zip against the limits.
    """
    kept: dict[str, bytes] = {}
    damaged: dict[str, str] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        for info in infos:
            member = info.filename
            try:
                kept[member] = archive.read(info)
            except MEMBER_ERRORS as exc:
                if member in _PACKAGE_PARTS:
                    raise damaged_member(member, exc, name) from exc
                damaged[member] = str(exc)
                continue
            if xml_parts is not None and xml_parts(member):
                why = _xml_damage(kept[member], member, name)
                if why is not None:
                    damaged[member] = why
    if not damaged:
        return MendedPackage(data)
    types = _overrides(parse_xml(kept["[Content_Types].xml"],
                                 name=f"{name}:[Content_Types].xml")) \
        if "[Content_Types].xml" in kept else {}
    replaced = set()
    for member in damaged:
        stand_in = stand_ins(member, types.get(member, "")) if stand_ins else None
        if stand_in is not None:
            kept[member] = stand_in
            replaced.add(member)
    dropped = set(damaged) - replaced
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in infos:
            member = info.filename
            if member in dropped:
                continue
            body = kept[member]
            if member.endswith(".rels"):
                body = _without_targets(body, member, dropped, name)
            copy.writestr(member, body)
    return MendedPackage(buffer.getvalue(), damaged)


_PACKAGE_PARTS = ("[Content_Types].xml", "_rels/.rels")


def _xml_damage(body: bytes, member: str, name: str) -> str | None:
    """Why member ``member`` is not well-formed XML, or None when it is. The package's own
    parts cannot be left out: their damage is raised, naming them, as entities are."""
    try:
        parse_xml(body, name=f"{name}:{member}")
    except UnsafeXML:
        raise
    except CorruptDocument as exc:
        if member in _PACKAGE_PARTS:
            raise
        return exc.message
    return None


def _target_part(rel: Any, folder: str) -> str | None:
    """The package part a relationship of a part in ``folder`` points at; None for an
    external target or none."""
    target = attr(rel, "Target")
    if attr(rel, "TargetMode") == "External" or not target:
        return None
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(folder, target))


def _overrides(types: Any) -> dict[str, str]:
    """Member -> content type, from the overrides of a parsed [Content_Types].xml."""
    return {attr(o, "PartName").lstrip("/"): attr(o, "ContentType")
            for o in children(types, "Override")}


def _without_targets(data: bytes, rels_member: str, dropped: set[str], name: str) -> bytes:
    """A relationships part without the relationships whose target is in ``dropped``."""
    try:
        root = parse_xml(data, name=f"{name}:{rels_member}")
    except (UnsafeArchive, UnsafeXML):
        raise
    except CorruptDocument:
        return data  # the library reading the copy says what is wrong with it
    source_folder = posixpath.dirname(posixpath.dirname(rels_member))
    for rel in list(root):
        full = _target_part(rel, source_folder)
        if full is not None and (full in dropped or unquote(full) in dropped):
            root.remove(rel)
    return bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                standalone=True))


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
        #: (kind, message) of each damaged part ``optional_xml`` left out
        self.left_out: list[tuple[str, str]] = []
        #: the damaged parts left out whose text the document loses (a header, the notes)
        self.text_lost: list[str] = []
        #: the main part, once ``main_part`` found it
        self._main: str | None = None
        #: the parts whose relationships part is damaged
        self._unlinked: set[str] = set()

    def member(self, path: str) -> str | None:
        """The zip member holding part ``path`` (any case, percent-encoded or not)."""
        for candidate in (path, unquote(path)):
            found = candidate if candidate in self.names else self._folded.get(candidate.lower())
            if found is not None:
                return found
        return None

    def page_xml(self, path: str, number: int, label: str = "") -> Any:
        """Page ``number``'s part parsed, or a failed PageContent saying why it is not
        (missing from the package, or damaged): such a page costs itself only, and the
        pages after it keep their numbers. A part that refuses the package still raises."""
        if self.member(path) is None:
            return PageContent(number, label=label, error=f"page {number} is missing: its "
                               f"part {path} is not in the package")
        try:
            return self.xml(path)
        except UnsafeArchive:
            raise
        except CorruptDocument as exc:
            return PageContent(number, label=label,
                               error=f"page {number} is damaged: {exc.message}")

    def xml(self, path: str) -> Any:
        """Part ``path`` parsed with the hardened parser (entities refuse the package)."""
        member = self.member(path) or path
        with self._entities_refused(member):
            return parse_xml(
                read_member(self.archive, member, self.name),
                name=f"{self.name}:{member}",
                max_depth=self.depth,
            )

    def optional_xml(self, path: str, holds_text: bool = False) -> Any | None:
        """Part ``path`` parsed, or None when it is damaged (a member that does not
        inflate, XML cut short): a part the main text does not stand on (the styles, a
        header, the notes, a chart) is left out with a warning kept in ``left_out``
        rather than costing the document its body. Entities still refuse the package.

        ``holds_text``: the part is read for its text (a header, the notes, a chart's
        titles), so leaving it out loses text: it is named in ``text_lost``."""
        member = self.member(path) or path
        try:
            return self.xml(path)
        except UnsafeArchive:
            raise
        except CorruptDocument as exc:
            log.warning("%s; left out", exc)
            self.left_out.append((exc.kind, f"part {member} left out: {exc.message}"))
            if holds_text and member not in self.text_lost:
                self.text_lost.append(member)
            return None

    def missing(self, path: str, linked_from: str, what: str = "") -> None:
        """Note part ``path``, which part ``linked_from`` links for its text (a chart, a
        SmartArt graphic), as missing from the package: its text is lost. ``what`` names
        it instead when the link itself is lost (a relationship id nothing resolves)."""
        named = what or f"part {path}"
        log.warning("%s: %s, linked from %s, is missing; left out", self.name, named,
                    linked_from)
        self.left_out.append(("CorruptDocument", f"{named}, linked from {linked_from}, "
                              "is not in the package; left out"))
        if path not in self.text_lost:
            self.text_lost.append(path)

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
        # damaged relationships lose what they link (the pictures, a header), not the part
        root = None if rels_path is None else self.optional_xml(rels_path)
        if root is None:
            if rels_path is not None:
                self._unlinked.add(path)
            return {}
        found = {}
        for rel in root:
            full = _target_part(rel, folder)
            if full is not None:
                found[attr(rel, "Id")] = (attr(rel, "Type"), full)
        return found

    def related(self, path: str, suffix: str, holds_text: bool = False) -> list[str]:
        """Parts ``path`` links to with a relationship type ending in ``suffix``, once each.

        A part the package names but does not hold is left out with a warning, so the
        rest of the document is still read; ``holds_text``: the parts are read for their
        text (headers, notes), so one missing is text lost (``missing``).
        """
        found: list[str] = []
        for kind, target in self.rels(path).values():
            if not kind.endswith(suffix) or target in found:
                continue
            if self.member(target) is None:
                if holds_text:
                    self.missing(target, path)
                else:
                    log.warning("%s: part %s is missing; left out", self.name, target)
                continue
            found.append(target)
        if not found and path in self._unlinked and path == self._main:
            found = self._declared(suffix)
        return found

    def relationships_damaged(self, path: str) -> bool:
        """True when part ``path``'s relationships part is in the package but cannot be
        read (``rels`` then gave none)."""
        self.rels(path)
        return path in self._unlinked

    def declared(self, suffix: str) -> list[str]:
        """The parts [Content_Types].xml declares of the type a relationship ``suffix``
        links, in their names' order (``_declared``)."""
        return self._declared(suffix)

    def linked_elsewhere(self, path: str) -> set[str]:
        """The parts the package's relationships parts other than ``path``'s link to,
        each relationships part read quietly (a damaged one is left to whoever reads its
        part): what a part whose own relationships are damaged cannot have linked."""
        found: set[str] = set()
        for member in sorted(self.names):
            folder, base = posixpath.split(member)
            if posixpath.basename(folder) != "_rels" or not base.endswith(".rels"):
                continue
            source = posixpath.join(posixpath.dirname(folder), base[: -len(".rels")])
            if source == path:
                continue
            try:
                root = self.xml(member)
            except UnsafeArchive:
                raise
            except CorruptDocument:
                continue
            for rel in root:
                target = _target_part(rel, posixpath.dirname(source))
                if target is not None:
                    found.add(self.member(target) or target)
        return found

    def _declared(self, suffix: str) -> list[str]:
        """The parts [Content_Types].xml declares of the type a relationship ``suffix``
        links (``/header``: ``...wordprocessingml.header+xml``), in their names' order:
        the main part's own relationships damaged, its headers, footers, notes, comments
        and styles are still there to read (each kind is linked only from it)."""
        declared = self.member("[Content_Types].xml")
        types = None if declared is None else self.optional_xml(declared)
        ending = f".{suffix.rsplit('/', 1)[-1]}+xml"
        parts = [self.member(part) or part
                 for part, content_type in (_overrides(types) if types is not None else {}).items()
                 if content_type.endswith(ending) and self.member(part) is not None]
        if parts:
            log.warning("%s: the relationships of %s are damaged; read %s, which the content "
                        "types declare", self.name, self._main, ", ".join(parts))
        return sorted(parts, key=_natural)

    def main_part(self) -> str:
        """The officeDocument part, transitional or Strict; without a relationship to it
        (the package's relationships damaged or lost), the part [Content_Types].xml
        declares a main document."""
        self._main = self._find_main_part()
        return self._main

    def _find_main_part(self) -> str:
        for kind, target in self.rels("").values():
            if kind.endswith("/officeDocument") and self.member(target) is not None:
                return target
        declared = self.member("[Content_Types].xml")
        types = None if declared is None else self.optional_xml(declared)
        for part, content_type in (_overrides(types) if types is not None else {}).items():
            if content_type.endswith(".main+xml") and self.member(part):
                log.warning("%s: the package does not link its main part; read %s, which "
                            "its content types declare", self.name, part)
                return self.member(part) or part
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


def _natural(name: str) -> tuple[str | int, ...]:
    """A sort key putting header2.xml before header10.xml."""
    return tuple(int(piece) if piece.isdigit() else piece
                 for piece in re.split(r"(\d+)", name))


def lost_parts_message(parts: Sequence[str]) -> str:
    """What ``ParsedDocument.left_out`` says of the damaged ``parts`` whose text is lost;
    '' for none."""
    if not parts:
        return ""
    return (f"{len(parts)} damaged or missing part(s) holding text could not be read, their text "
            f"left out: {', '.join(parts)}")


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
            try:
                data = read_member(archive, info.filename, source.display_name)
            except CorruptDocument as exc:  # one damaged object, not the document's text
                log.warning("%s; the embedded object is left out", exc)
                continue
            name, data = unwrap(info.filename, data)
            children.append(source.child(unique_name(name, seen), data))
    return children
