"""Zip containers (OOXML, ODF, EPUB) read under size and ratio limits.

A zip bomb dressed as a .docx is refused from its central directory, before a
byte is inflated: ``zipfile`` never returns more than a member's declared
size (it stops there and checks the CRC), so declared sizes are a safe bound.
"""

from __future__ import annotations

import logging
import lzma
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, cast

from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits
from goblin_core.errors import CorruptDocument, UnsafeArchive
from goblin_core.source import Source

log = logging.getLogger(__name__)

#: What reading a damaged member raises: zipfile's own errors, and the decompressors'
#: which are no OSError (a deflate stream's zlib.error, an LZMA member's LZMAError).
MEMBER_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, ValueError,
                 NotImplementedError)

_XML_SUFFIXES = (".xml", ".rels", ".opf", ".xhtml", ".html", ".htm", ".ncx")
_PROLOG_BYTES = 4096


@dataclass(frozen=True)
class ContainerLimits:
    """The limits a zip container is read under (from the ``limits`` namespace)."""

    max_member_size: int
    max_total_bytes: int
    max_ratio: float
    ratio_grace_bytes: int
    max_xml_depth: int = 256

    @classmethod
    def from_config(cls, config: Config) -> ContainerLimits:
        limits = ArchiveLimits.from_config(config)
        return cls(
            max_member_size=limits.max_member_size,
            max_total_bytes=limits.max_total_bytes,
            max_ratio=limits.max_ratio,
            ratio_grace_bytes=limits.ratio_grace_bytes,
            max_xml_depth=int(config.get("limits", "max_xml_depth", 256)),
        )


def open_container(source: Source, config: Config, *, scan_xml: bool = True) -> zipfile.ZipFile:
    """Open ``source`` as a zip and check every member against the limits.

    Raises CorruptDocument for a truncated or damaged zip and UnsafeArchive for
    a member over a size or ratio limit or an XML part declaring entities.
    ``scan_xml=False`` leaves the XML prologs to ``parse_xml``, for a caller
    that reads every XML part through it (it refuses entities itself).
    """
    limits = ContainerLimits.from_config(config)
    try:
        archive = zipfile.ZipFile(source.open())
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
        raise CorruptDocument(
            f"not a readable zip container ({exc}); the file is truncated or damaged: "
            "re-save or re-download it",
            file=source.display_name,
        ) from exc
    try:
        check_container(archive, source.display_name, limits, scan_xml=scan_xml)
    except BaseException:  # close the file whatever went wrong, then let it propagate
        archive.close()
        raise
    return archive


def check_container(
    archive: zipfile.ZipFile, name: str, limits: ContainerLimits, *, scan_xml: bool = True
) -> None:
    """Refuse members over the size, total or ratio limits, and XML parts declaring entities."""
    total = 0
    for info in archive.infolist():
        if info.file_size > limits.max_member_size:
            raise UnsafeArchive(
                f"member {info.filename!r} expands to {info.file_size:,} bytes, over "
                f"limits.max_member_size ({limits.max_member_size:,}); refused",
                file=name,
            )
        total += info.file_size
        if total > limits.max_total_bytes:
            raise UnsafeArchive(
                f"members expand to more than limits.max_total_bytes ({limits.max_total_bytes:,}); "
                "refused as a likely zip bomb",
                file=name,
            )
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > limits.ratio_grace_bytes and ratio > limits.max_ratio:
            raise UnsafeArchive(
                f"member {info.filename!r} has compression ratio {ratio:,.0f}, over "
                f"limits.max_ratio ({limits.max_ratio:g}); refused as a likely zip bomb",
                file=name,
            )
    if not scan_xml:
        return
    for info in archive.infolist():
        if info.filename.lower().endswith(_XML_SUFFIXES) and info.file_size:
            _refuse_dtd(archive, info, name)


def _refuse_dtd(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> None:
    try:
        with archive.open(info) as stream:
            prolog = stream.read(_PROLOG_BYTES)
    except MEMBER_ERRORS as exc:
        # A member that cannot be opened cannot be parsed either: a part the text needs
        # fails where it is read, and a damaged optional part (metadata, settings) must
        # not cost the document its readable text.
        log.warning("%s: member %r cannot be read (%s); it is left out", name, info.filename, exc)
        return
    if b"<!ENTITY" in prolog or b"<!entity" in prolog:
        raise UnsafeArchive(
            f"XML part {info.filename!r} declares entities (XXE or billion laughs); refused",
            file=name,
        )


def damaged_member(member: str, exc: BaseException, name: str | None) -> CorruptDocument:
    """The error for a member that does not read: what failed, and that the file is damaged."""
    return CorruptDocument(f"member {member!r} cannot be read ({exc}); the file is damaged",
                           file=name)


def read_member(archive: zipfile.ZipFile, member: str, name: str) -> bytes:
    """A member's bytes (already checked by ``check_container``)."""
    try:
        return archive.read(member)
    except KeyError as exc:
        raise CorruptDocument(
            f"member {member!r} is missing from the container", file=name
        ) from exc
    except MEMBER_ERRORS as exc:
        raise damaged_member(member, exc, name) from exc


class _MemberStream:
    """A zip member's stream whose damage, found wherever it is read, names the member."""

    def __init__(self, stream: IO[bytes], member: str, name: str | None) -> None:
        self._stream = stream
        self._member = member
        self._name = name

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size)
        except MEMBER_ERRORS as exc:
            raise damaged_member(self._member, exc, self._name) from exc


@contextmanager
def open_member(
    archive: zipfile.ZipFile, member: str, name: str | None = None
) -> Iterator[IO[bytes]]:
    """Member ``member`` opened to be read a chunk at a time; a member that is missing,
    or does not inflate (deflate damage surfaces as zlib.error, no OSError), is a
    CorruptDocument naming it, as ``read_member`` gives."""
    try:
        stream = archive.open(member)
    except KeyError as exc:
        raise CorruptDocument(
            f"member {member!r} is missing from the container", file=name
        ) from exc
    except MEMBER_ERRORS as exc:
        raise damaged_member(member, exc, name) from exc
    with stream:
        # only read() is ever asked of it: the streaming readers take chunks
        yield cast(IO[bytes], _MemberStream(stream, member, name))
