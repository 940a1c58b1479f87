"""Reading what is left of a truncated Office package, from its zip's local headers.

A docx cut short has lost its central directory, so ``zipfile`` cannot open
it, but every member before the cut is still there behind its local header.
This engine walks those headers, inflates ``word/document.xml`` (as much of it
as survived, never more than ``limits.max_member_size``) and reads it with the
hardened parser in recovery mode: text already in the file is not lost.

A presentation, an OpenDocument text, presentation or drawing, a Visio drawing or an
XPS document cut short is read the same way by ``office.package_salvage``: the members
before the cut are packed again, the last one as far as it inflates, and the package is
read by the format's own engine, which reads a damaged or missing part (a slide,
content.xml cut midway, a page) as it reads one in a whole package.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from lxml import etree

from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, ParsedDocument, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.containers import MEMBER_ERRORS, open_container
from goblin_office.layout import PageBuilder
from goblin_office.odf import ODFPresentationParser, ODFTextParser
from goblin_office.presentation import PptxParser
from goblin_office.safexml import refuse_declared_entities
from goblin_office.visio import VisioParser
from goblin_office.word import Styles, Walker
from goblin_office.xps import XPSParser

_LOCAL = b"PK\x03\x04"
_BODY = "word/document.xml"
_HEADER = struct.Struct("<IHHHHHIIIHH")
_STORED, _DEFLATED = 0, 8


def local_members(data: bytes, limit: int) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of each member reachable from local headers, inflated up to ``limit``.

    A member written with a data descriptor has no size in its local header; its end is
    where its deflate stream ends.
    """
    pos = data.find(_LOCAL)
    while pos >= 0 and pos + _HEADER.size <= len(data):
        fields = _HEADER.unpack_from(data, pos)
        method, compressed, name_len, extra_len = fields[3], fields[7], fields[9], fields[10]
        start = pos + _HEADER.size + name_len + extra_len
        name = data[pos + _HEADER.size : pos + _HEADER.size + name_len].decode("utf-8", "replace")
        if name.endswith("/"):  # a directory entry holds no data
            pos = data.find(_LOCAL, start)
            continue
        body = data[start : start + compressed] if compressed else data[start:]
        content, consumed = _inflate(body, limit) if method == _DEFLATED else (body[:limit], 0)
        if method in (_STORED, _DEFLATED):
            yield name, content
        following = start + (compressed or consumed)
        pos = data.find(_LOCAL, max(following, pos + 1))


#: A deflate stream is fed to the inflater this much at a time
_PIECE = 1 << 12


def _inflate(body: bytes, limit: int) -> tuple[bytes, int]:
    """As much of a raw deflate stream as survives (at most ``limit`` bytes), and its
    length (0 when it is damaged: where it ends is not known)."""
    inflater = zlib.decompressobj(-15)
    content = bytearray()
    fed = 0
    while fed < len(body) and len(content) < limit and not inflater.eof:
        piece = body[fed : fed + _PIECE]
        before = inflater.copy()
        try:
            content += inflater.decompress(piece, limit - len(content))
        except zlib.error:
            # one call stopped by the damage gives nothing of what it inflated before
            # it: the piece is fed again a byte at a time, up to the damage
            content += _up_to_damage(before, piece, limit - len(content))
            return bytes(content), 0
        fed += len(piece) - len(inflater.unconsumed_tail)
    consumed = fed - len(inflater.unused_data)
    return bytes(content), consumed


def _up_to_damage(inflater: Any, piece: bytes, limit: int) -> bytes:
    """What ``piece`` inflates to, a byte at a time, before the damage in it stops it."""
    found = bytearray()
    for at in range(len(piece)):
        try:
            found += inflater.decompress(piece[at : at + 1])
        except zlib.error:
            break
        if len(found) >= limit:
            break
    return bytes(found[:limit])


class DocxSalvageParser(BaseEngine):
    """Text of a truncated docx whose body survived, when the package cannot be opened."""

    name = "office.docx_salvage"
    formats = (fmt.DOCX,)
    priority = 10

    def open(self, source: Source, config: Config) -> TextDocument:
        if _has_directory(source) and not _body_damaged(source, config):
            # a zip whose directory reads was refused for a reason (a bomb, a bad part):
            # salvaging it would undo that refusal
            raise CorruptDocument(
                "the package's zip directory is readable, so there is nothing to salvage",
                file=source.display_name,
            )
        limits = ArchiveLimits.from_config(config)
        data = source.bytes()
        # at most what the ratio limit allows for the whole file, as for any archive member
        limit = min(
            limits.max_member_size, int(len(data) * limits.max_ratio) + limits.ratio_grace_bytes
        )
        body = next((d for n, d in local_members(data, limit) if n == _BODY), b"")
        if not body.strip():
            raise CorruptDocument(
                "no readable word/document.xml survives in the damaged file",
                file=source.display_name,
            )
        refuse_declared_entities(body, source.display_name)
        parser = etree.XMLParser(
            resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=True
        )
        root = etree.fromstring(body, parser)
        if root is None:
            raise CorruptDocument("word/document.xml is unreadable", file=source.display_name)
        page = PageBuilder(engine=self.name)
        walker = Walker(page, Styles(None))
        for element in root.iter("{*}body"):
            walker.blocks(element)
        if not page.text.strip():
            raise CorruptDocument("no text survives in the damaged file", file=source.display_name)
        document = TextDocument([page.build()], metadata={"salvaged": True})
        # Truncated, not CorruptDocument: text is known lost, so the document was read
        # in part (report.truncated, a loss for the CLI's exit status)
        document.warnings = [("Truncated", f"read from what survives of {_BODY}: any "
                              "text after the damage is lost")]
        return document


class PackageSalvageParser(BaseEngine):
    """The parts of a presentation, OpenDocument, Visio or XPS package cut short that
    survive before the cut, read by the format's own engine."""

    name = "office.package_salvage"
    formats = (fmt.PPTX, fmt.ODT, fmt.ODP, fmt.ODG, fmt.VSDX, fmt.XPS)
    priority = 10

    def open(self, source: Source, config: Config) -> ParsedDocument:
        if _has_directory(source):
            raise CorruptDocument(
                "the package's zip directory is readable, so there is nothing to salvage",
                file=source.display_name,
            )
        limits = ArchiveLimits.from_config(config)
        data = source.bytes()
        # all members together at most what the ratio limit allows the whole file, as an
        # archive's members are held
        room = min(limits.max_total_bytes,
                   int(len(data) * limits.max_ratio) + limits.ratio_grace_bytes)
        buffer = io.BytesIO()
        members: dict[str, bytes] = {}
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
            for name, content in local_members(data, min(limits.max_member_size, room)):
                if name in members or len(members) >= limits.max_members or len(content) > room:
                    break
                room -= len(content)
                members[name] = content
                archive.writestr(name, content)
        engine = _SALVAGED_BY.get(_package_format(members))
        if engine is None:
            raise CorruptDocument("no presentation, OpenDocument text or drawing, Visio drawing "
                                  "or XPS document survives in the damaged file",
                                  file=source.display_name)
        names = list(members)
        rebuilt = Source.from_bytes(buffer.getvalue(), source.display_name, depth=source.depth,
                                    parent=source.parent)
        parser = engine()
        # the format engine's reading, with the warnings list of the base engine
        document: Any = parser.open(rebuilt, config)
        lost = (f"the package is cut short (its zip directory lost): read from the "
                f"{len(names):,} parts before the cut, the last one ({names[-1]}) as far as it "
                "survives; the parts after it are lost")
        document.warnings = [("Truncated", lost), *document.warnings]
        return document


#: the engines reading what survives of a package of each format
_SALVAGED_BY: dict[str, Callable[[], Any]] = {
    fmt.PPTX: PptxParser, fmt.ODT: ODFTextParser, fmt.ODP: ODFPresentationParser,
    fmt.ODG: ODFPresentationParser, fmt.VSDX: VisioParser, fmt.XPS: XPSParser,
}


def _package_format(members: dict[str, bytes]) -> str:
    """The format of a package by the members that survive: an ODF package's ``mimetype``,
    an OOXML package's content types or main part, an XPS document's sequence."""
    if "mimetype" in members:
        found = fmt.odf_format(members["mimetype"])
    else:
        found = fmt.ooxml_format(members, members.get("[Content_Types].xml", b""))
    if found is not None:
        return found[0]
    if any(name.lower().endswith(".fdseq") for name in members):
        return fmt.XPS
    return ""


def _body_damaged(source: Source, config: Config) -> bool:
    """Whether a package within the limits holds a body part that does not inflate (a
    damaged deflate stream): what inflates before the damage is still text to read. The
    limits are checked first, so a bomb stays refused."""
    with open_container(source, config) as archive:
        try:
            archive.read(_BODY)
        except KeyError:
            return False
        except MEMBER_ERRORS:
            return True
    return False


def _has_directory(source: Source) -> bool:
    try:
        with zipfile.ZipFile(source.open()):
            return True
    except (zipfile.BadZipFile, EOFError, OSError, ValueError):
        return False
