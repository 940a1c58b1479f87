"""Safe expansion of archive members: names, links, sizes and ratios checked while reading.

Handlers only list members; this module decides what may come out. A bomb is
stopped mid-stream (the byte and ratio checks run on every chunk read), never
after it has been written somewhere.
"""

from __future__ import annotations

import os
import posixpath
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, Protocol

from goblin_core.engines import ArchiveLimits, Member
from goblin_core.errors import (
    CorruptDocument,
    FileTooLarge,
    GoblinError,
    PasswordRequired,
    UnsafeArchive,
    UnsupportedFormat,
)
from goblin_core.model import MemberEntry
from goblin_core.source import Source

if TYPE_CHECKING:
    from goblin_core.config import Config
    from goblin_core.registry import EngineEntry

CHUNK = 1 << 18
IN_MEMORY_LIMIT = 64 * 1024 * 1024
_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x01-\x1f\x7f-\x9f]")
_SETUID_BITS = 0o6000


class MemberLog(Protocol):
    members: list[MemberEntry]

    def error(self, kind: str, message: str, engine: str = "", page: int | None = None) -> None: ...
    def warn(self, kind: str, message: str, engine: str = "", page: int | None = None) -> None: ...


@dataclass
class ArchiveBudget:
    """Bytes expanded so far across one top-level extraction (nested archives included)."""

    limits: ArchiveLimits
    total_bytes: int = 0

    def spend(self, amount: int, name: str) -> None:
        self.total_bytes += amount
        if self.total_bytes > self.limits.max_total_bytes:
            raise UnsafeArchive(
                f"expanded more than limits.max_total_bytes "
                f"({self.limits.max_total_bytes:,} bytes) in total; stopped reading "
                "(a zip bomb, or raise the limit)",
                file=name,
            )


#: The reasons a member name is refused for landing outside the destination.
DRIVE_PATH = "absolute path (drive letter) refused"
ABSOLUTE_PATH = "absolute path refused"
PATH_TRAVERSAL = "path traversal (..) refused"
ESCAPING_NAMES = frozenset({DRIVE_PATH, ABSOLUTE_PATH, PATH_TRAVERSAL})


def safe_member_name(name: str) -> tuple[str | None, str]:
    """A relative, normalised member name, or None with the reason it is refused.

    A name that climbs out with ``..``, starts at a root (``/x``, ``\\server``) or a
    drive (``C:\\x``), or holds a NUL (which ends the name for some tools and not for
    others) is refused: an extractor that only trims such a name writes the member
    somewhere its author did not intend, over another member at worst. Control
    characters (a newline, a terminal escape sequence) become ``_``: the name ends
    up on disk, in logs and on a terminal.
    """
    cleaned = name.replace("\\", "/")
    if "\x00" in cleaned:
        return None, "NUL character in the name refused"
    if _DRIVE.match(cleaned):
        return None, DRIVE_PATH
    if cleaned.startswith("/"):
        return None, ABSOLUTE_PATH
    note = ""
    if _CONTROL.search(cleaned):
        cleaned = _CONTROL.sub("_", cleaned)
        note = "control characters replaced"
    parts = [p for p in cleaned.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None, PATH_TRAVERSAL
    normalised = posixpath.join(*parts) if parts else ""
    if not normalised:
        return None, "empty member name"
    return normalised, note


def read_member(member: Member, budget: ArchiveBudget, source: Source, name: str) -> Source:
    """Read one member into a child Source, enforcing size, ratio and total-byte limits."""
    limits = budget.limits
    display = f"{source.display_name}/{name}"
    stream = member.open()
    if not callable(getattr(stream, "read", None)) or not callable(getattr(stream, "close", None)):
        raise CorruptDocument(f"the archive handler opened it as {type(stream).__name__}, "
                              "not a binary stream", file=display)
    # Chunks are kept in a list and joined once: one copy of the member, not two.
    chunks: list[bytes] = []
    disk: BinaryIO | None = None
    spilled: str | None = None
    read = 0
    try:
        while True:
            chunk = stream.read(CHUNK)
            if not chunk:
                break
            if not isinstance(chunk, (bytes, bytearray, memoryview)):
                raise CorruptDocument(f"the archive handler's stream gave "
                                      f"{type(chunk).__name__}, not bytes", file=display)
            read += len(chunk)
            _check_member(member, read, limits, display)
            budget.spend(len(chunk), source.display_name)
            if disk is None and read > IN_MEMORY_LIMIT:
                fd, spilled = tempfile.mkstemp(prefix="goblin-member-")
                disk = os.fdopen(fd, "w+b")
                disk.writelines(chunks)
                chunks = []
            if disk is None:
                chunks.append(chunk)
            else:
                disk.write(chunk)
    except BaseException:
        if disk is not None:
            disk.close()
        if spilled:
            os.unlink(spilled)
        raise
    finally:
        stream.close()
    if disk is None:
        return source.child(name, chunks[0] if len(chunks) == 1 else b"".join(chunks))
    disk.close()
    assert spilled is not None
    return _owned_file_source(spilled, display, source)


def _owned_file_source(path: str, display: str, parent: Source) -> Source:
    from pathlib import Path

    child = Source(display_name=display, depth=parent.depth + 1, parent=parent.display_name)
    child._path = Path(path)
    child._spooled = Path(path)
    return child


def _check_member(member: Member, read: int, limits: ArchiveLimits, display: str) -> None:
    if read > limits.max_member_size:
        raise FileTooLarge(
            f"member expands past limits.max_member_size ({limits.max_member_size:,} bytes); "
            "stopped reading",
            file=display,
        )
    packed = member.compressed_size
    if packed and read > limits.ratio_grace_bytes and read / packed > limits.max_ratio:
        raise UnsafeArchive(
            f"compression ratio over limits.max_ratio ({limits.max_ratio:g}:1) "
            f"after {read:,} bytes from {packed:,}; a zip bomb? stopped reading",
            file=display,
        )


def expand_members(
    entry: EngineEntry, source: Source, budget: ArchiveBudget, config: Config, log: MemberLog
) -> Iterator[Source]:
    """Yield each safe member of ``source`` as a child Source; record every decision."""
    limits = budget.limits
    if source.depth + 1 > limits.max_depth:
        raise UnsafeArchive(
            f"archive nested deeper than limits.max_depth ({limits.max_depth}); not opened "
            "(a recursive archive or a quine ends here)",
            file=source.display_name,
        )
    count = 0
    extracted = 0
    seen: set[str] = set()
    unreadable: list[GoblinError] = []
    for member in entry.engine.members(source, limits, config):
        count += 1
        if count > limits.max_members:
            raise UnsafeArchive(
                f"more than limits.max_members ({limits.max_members:,}) members; stopped listing",
                file=source.display_name,
            )
        if not isinstance(member, Member):
            # a handler's bug costs that one entry, not the members after it
            _refuse(log, f"#{count}", f"{entry.name} listed {type(member).__name__} "
                    f"{member!r:.60}, not a Member", "CorruptDocument")
            continue
        child = _admit(member, source, log, seen, limits)
        if child is None:
            continue
        try:
            read = read_member(member, budget, source, child)
            read.decompressed = member.decompressed is True
            yield read
        except UnsafeArchive as exc:
            _refuse(log, member.name, str(exc), exc.kind)
            if budget.total_bytes > limits.max_total_bytes:
                raise
        except FileTooLarge as exc:
            _refuse(log, member.name, str(exc), exc.kind)
        except _MEMBER_ERRORS as exc:
            # One encrypted or damaged member must not cost the others their text.
            _refuse(log, member.name, exc.message, exc.kind)
            unreadable.append(exc)
        else:
            extracted += 1
            log.members.append(MemberEntry(child, "extracted", "", member.size))
    if unreadable and not extracted:
        raise _first_unreadable(unreadable)


def stopped_after_refusals(error: GoblinError, members: list[MemberEntry], listed: int) -> bool:
    """Whether a hostile archive stopped after some of its members were already decided
    (a bomb refused by its declared size, then the stream expanding past the limits on its
    way to the next member): the report keeps those decisions, not only one bare error."""
    return isinstance(error, UnsafeArchive) and any(
        m.action == "refused" for m in members[listed:]
    )


#: Errors that concern one member only: it is refused and the others are still read.
_MEMBER_ERRORS = (PasswordRequired, CorruptDocument, UnsupportedFormat)


def _first_unreadable(errors: list[GoblinError]) -> GoblinError:
    """The error that explains an archive none of whose members could be read."""
    for error in errors:
        if isinstance(error, PasswordRequired):
            return error
    return errors[0]


def _admit(
    member: Member, source: Source, log: MemberLog, seen: set[str], limits: ArchiveLimits
) -> str | None:
    if member.kind == "dir":
        log.members.append(MemberEntry(member.name, "skipped", "directory"))
        return None
    if member.kind == "volume":
        log.members.append(MemberEntry(member.name, "skipped", member.note or
                                       "part of a multi-volume set; read with its first volume"))
        return None
    if member.kind in ("symlink", "hardlink"):
        reason = f"{member.kind} to {member.link_target!r} not followed"
        if _link_stays_inside(member):
            # A link to another member has no text of its own (the target is read as
            # itself): skipping it costs nothing, so it is no error.
            log.members.append(MemberEntry(member.name, "skipped", reason))
        else:
            _refuse(log, member.name, reason, "UnsafeArchive")
        return None
    if member.kind != "file":
        _refuse(log, member.name, f"{member.kind} member refused", "UnsafeArchive")
        return None
    name, note = safe_member_name(member.name)
    if name is None:
        _refuse(log, member.name, note, "UnsafeArchive")
        return None
    if note:
        log.warn("UnsafeArchive", f"{source.display_name}/{member.name}: {note}")
    if member.mode is not None and member.mode & _SETUID_BITS:
        log.warn("UnsafeArchive", f"{source.display_name}/{name}: setuid/setgid bits dropped")
    declared = _declared_problem(member, limits)
    if declared:
        _refuse(log, member.name, declared, "UnsafeArchive")
        return None
    if name in seen:
        log.warn("DuplicateMember", f"{source.display_name}/{name}: appears more than once")
    seen.add(name)
    return name


def _link_stays_inside(member: Member) -> bool:
    """Whether a link member's target is a path inside the archive.

    A symbolic link is relative to its own folder, a hard link (tar, RAR's file
    copies) to the archive's root. An unknown, absolute or drive-lettered target,
    or one that climbs above the root, is outside.
    """
    if not member.link_target:
        return False
    target = member.link_target.replace("\\", "/")
    if target.startswith("/") or _DRIVE.match(target):
        return False
    folder = posixpath.dirname(member.name.replace("\\", "/")) if member.kind == "symlink" else ""
    depth = 0
    for part in posixpath.join(folder, target).split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return False
        elif part not in ("", "."):
            depth += 1
    return True


def _declared_problem(member: Member, limits: ArchiveLimits) -> str:
    """Why the sizes the archive declares already rule the member out ('' when they don't).

    Declared sizes can lie, so reading checks again; but an honest bomb is
    refused here without decompressing a byte of it.
    """
    size, packed = member.size, member.compressed_size
    if size is None:
        return ""
    if size > limits.max_member_size:
        return (f"declares {size:,} bytes, over limits.max_member_size "
                f"({limits.max_member_size:,})")
    if packed and size > limits.ratio_grace_bytes and size / packed > limits.max_ratio:
        return (f"declares a compression ratio of {size / packed:,.0f}:1, over "
                f"limits.max_ratio ({limits.max_ratio:g}:1); a zip bomb?")
    return ""


def _refuse(log: MemberLog, name: str, reason: str, kind: str) -> None:
    log.members.append(MemberEntry(name, "refused", reason))
    log.error(kind, f"member {name!r} refused: {reason}")
