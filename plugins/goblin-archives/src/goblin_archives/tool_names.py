"""Member names a system tool only trims, refused as the archive spells them.

7-Zip, bsdtar, GNU tar and unar each rewrite a name that climbs out
(``../../x``), starts at a root (``/x``) or a drive (``C:\\x``): one writes
``x``, one ``__Parent__/__Parent__/x``, one skips it with a message, one keeps
the backslash as part of the file name. Nothing leaves their private folder,
but what they wrote no longer says which member it came from: ``x`` may be
the archive's ``x`` or its ``../../x`` written over it. So the archive is also
listed by name (``lsar``, from the unar package, reads every format these
tools do but a few), and the names the core refuses are refused here too,
whichever tool extracted them: each listed under its own name, what the tool
made of it dropped, and a member it may have been written over refused.
"""

from __future__ import annotations

import contextlib
import json
import os
import posixpath
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from goblin_archives.scratch import ByteMeter, run_watched
from goblin_archives.tool_output import Written, folder_members, written_members
from goblin_core.archive_safety import safe_member_name
from goblin_core.engines import Member
from goblin_core.errors import (
    CorruptDocument,
    GoblinError,
    PasswordRequired,
    UnsafeArchive,
    UnsupportedFormat,
)

#: Bytes of ``lsar -j`` kept (about 500 a member): a listing longer than this is refused.
LISTING_BYTES = 64 << 20


@dataclass
class Listing:
    """The regular files an archive lists: names the core accepts (with the size listed,
    when known), and the others."""

    clean: dict[str, int | None] = field(default_factory=dict)
    hostile: list[str] = field(default_factory=list)
    #: The code page lsar read names stored without one in ("" when it said none).
    encoding: str = ""
    #: The sizes of every copy of a name listed more than once, in listing order.
    repeated: dict[str, list[int | None]] = field(default_factory=dict)
    #: Members whose path runs through a symbolic link the archive also holds (``link``
    #: to a folder outside, then ``link/x``), each with that link's name.
    through_links: dict[str, str] = field(default_factory=dict)
    #: False when lsar stopped with an error: members past where it stopped are not here.
    complete: bool = True


def list_names(archive: Path, folder: Path, meter: ByteMeter, timeout: float) -> Listing | None:
    """The names ``archive`` lists, read by ``lsar``; None when lsar cannot list it.

    Runs after the extraction: the extracting tool already stopped at the
    member limit, so the listing is bounded too. lsar is never given the
    password: it takes one only on its command line, which every user of the
    machine can read. Names are stored in the clear but in archives whose
    headers are encrypted (7z ``-mhe``), which lsar then does not list (None).
    """
    if shutil.which("lsar") is None:
        return None
    argv = ["lsar", "-j", "-nr", "--", str(archive)]
    result = run_watched(argv, folder, meter, timeout, output_bytes=LISTING_BYTES + 1)
    if len(result.stdout) > LISTING_BYTES:
        raise UnsafeArchive(f"its listing runs past {LISTING_BYTES:,} bytes; member names "
                            "cannot be checked, not read", file=meter.display)
    try:
        parsed = json.loads(result.stdout)
        entries = parsed["lsarContents"]
    except (ValueError, KeyError, TypeError):
        return None
    # lsar says where it failed in the listing itself (a cut or damaged archive, or one
    # it parses otherwise than the tool): what it listed before may not be all there is.
    failed = bool(parsed.get("lsarError"))
    if failed and not entries:
        return None
    encoding = parsed.get("lsarEncoding")
    listing = _sorted(entries, encoding if isinstance(encoding, str) else "")
    listing.complete = not failed
    return listing


def _sorted(entries: list[dict[str, Any]], encoding: str = "") -> Listing:
    listing = Listing(encoding=encoding)
    named = [(name, entry) for entry in entries
             if isinstance(name := entry.get("XADFileName"), str)]
    links = {_path_of(name) for name, entry in named if entry.get("XADIsLink")}
    for name, entry in named:
        through = _link_on_the_way(_path_of(name), links) if links else None
        if through is not None:
            listing.through_links.setdefault(name, through)
        if any(entry.get(flag) for flag in _NOT_FILES):
            continue
        safe, reason = safe_member_name(name)
        size = entry.get("XADFileSize")
        if safe is not None:
            if safe in listing.clean:
                listing.repeated.setdefault(safe, [listing.clean[safe]])
                listing.repeated[safe].append(size if isinstance(size, int) else None)
            listing.clean[safe] = size if isinstance(size, int) else None
        elif reason != "empty member name":
            listing.hostile.append(name)
    return listing


def _path_of(name: str) -> str:
    """``name`` as a path a tool writes: either slash, no ``.`` parts, no slash at the ends."""
    return "/".join(part for part in name.replace("\\", "/").split("/") if part not in ("", "."))


def _link_on_the_way(path: str, links: set[str]) -> str | None:
    """The link among ``links`` that is a folder ``path`` lies in, if one is."""
    parts = path.split("/")
    for depth in range(1, len(parts)):
        folder = "/".join(parts[:depth])
        if folder in links:
            return folder
    return None


#: Programs that never write a member through a link the archive made: bsdtar refuses
#: ("Cannot extract through symlink"), GNU tar makes such links last, 7-Zip drops
#: dangerous links, unar writes no file through one. GNU cpio (patool's tool for cpio
#: and, through rpm2cpio, rpm) follows them wherever they point.
WRITES_NOTHING_THROUGH_LINKS = frozenset({"bsdtar", "bsdcpio", "tar", "gtar", "unar", "7z",
                                          "7za", "7zr", "7zz", "7zzs"})


def refuse_writes_through_links(listing: Listing | None, program: str, display: str) -> None:
    """Refuse, before ``program`` runs, an archive it would write outside its folder.

    A member listed under a symbolic link of the same archive (``link`` pointing to
    any folder of the machine, then ``link/x``) is written where the link points by a
    tool that follows links: nothing of such an archive is extracted with it.
    """
    if listing is None or not listing.through_links or program in WRITES_NOTHING_THROUGH_LINKS:
        return
    member, link = next(iter(listing.through_links.items()))
    raise UnsafeArchive(
        f"member {member!r} lies under the symbolic link {link!r} of the same archive, and "
        f"{program}, the tool that extracts it, would write it wherever the link points: "
        f"the archive is not extracted with {program}", file=display)


#: Entries that are no regular file: their kind, not their name, decides (as in the core).
_NOT_FILES = ("XADIsDirectory", "XADIsLink", "XADIsHardLink", "XADIsResourceFork",
              "XADIsCharacterDevice", "XADIsBlockDevice", "XADIsFIFO")


def checked_members(root: Path, listing: Listing | None, display: str,
                    failure: GoblinError | None = None) -> Iterator[Member]:
    """The members a tool wrote under ``root``, with the names ``listing`` refuses refused.

    An archive whose names are all safe (or that lsar cannot list) is read as
    the tool wrote it. When the tool failed (``failure``: a damaged or cut
    archive, or a hostile name it refused itself), what it wrote whole, at the
    size listed and not named in its message, is still read; a listed member it
    did not write whole is refused with its message, which is raised at the end
    unless refused names explain it.
    """
    if failure is not None and (isinstance(failure, PasswordRequired) or listing is None):
        raise failure
    under_links = {name: link for name, link in listing.through_links.items()
                   if name in listing.clean} if listing is not None else {}
    if listing is None or (failure is None and not listing.hostile and not under_links):
        yield from folder_members(root)
        if listing is not None:
            yield from _copies_written_over(root, listing, display)
        return
    rewritten: dict[str, str] = {}
    for name in listing.hostile:
        yield Member(name=name, open=_never_opened, kind="file")
        for form in _rewrites(name):
            rewritten.setdefault(form, name)
    for name, link in under_links.items():
        # The tools that run on such an archive refuse to write it (bsdtar says "Cannot
        # extract through symlink"): refused for what it is, not as damage.
        yield _refused(Member(name=name, open=_never_opened), f"{display}/{name}",
                       f"it lies under {link!r}, a symbolic link of the same archive, which "
                       "is not followed: not written")
    decided: set[str] = set(under_links)
    lost = False
    for written in written_members(root):
        member = written.member
        where = f"{display}/{member.name}"
        listed = _listed_as(written, listing)
        if listed in under_links:
            continue  # refused above, wherever the tool put it
        decided.add(listed or member.name)
        if member.kind != "file":
            yield member
        elif safe_member_name(member.name)[0] is None:
            continue  # the tool kept the hostile name: refused above as the archive spells it
        elif member.name in rewritten and listed is not None:
            yield _refused(member, where, f"the refused member {rewritten[member.name]!r} comes "
                           "out under the same name: which of the two was written there cannot "
                           "be told")
        elif member.name in rewritten:
            continue  # what the tool made of a refused member, reported under its own name
        elif listed is None:
            yield _refused(member, where, "the archive lists no such name: a refused member's "
                           "name as the tool rewrote it")
        elif failure is not None and not _whole(member, listing.clean[listed], failure):
            lost = True
            yield _refused(member, where, failure.message, CorruptDocument)
        else:
            yield member
    yield from _copies_written_over(root, listing, display)
    if failure is None:
        return
    for name in sorted(listing.clean.keys() - decided):
        lost = True
        yield _refused(Member(name=name, open=_never_opened), f"{display}/{name}",
                       f"not written: {failure.message}", CorruptDocument)
    if lost or not (listing.hostile or under_links):
        raise failure  # the archive is damaged, even where every member came out whole


def _copies_written_over(root: Path, listing: Listing, display: str) -> Iterator[Member]:
    """The copies of a repeated name that the tool wrote one over the other, refused.

    Tools write one file per name (ar, cpio, unar with ``-s``): of the members
    an archive lists twice under one name, one file is on disk, the copy whose
    size it has when the sizes tell. A tool that kept every copy under other
    names (7-Zip's ``-aou``) wrote as many files as the archive lists: nothing
    was lost then.
    """
    if not listing.repeated or _files_under(root) >= _listed_files(listing):
        return
    for name, sizes in listing.repeated.items():
        path = root / name
        if not path.is_file() or path.is_symlink():
            continue  # not written at all: said as such where the tool failed
        written = path.lstat().st_size
        kept = sizes.index(written) if written in sizes else len(sizes) - 1
        for number, size in enumerate(sizes):
            if number == kept:
                continue
            where = f"{display}/{name}"
            told = f" ({size:,} bytes)" if size is not None else ""
            yield _refused(Member(name=name, open=_never_opened, size=size), where,
                           f"copy {number + 1} of {len(sizes)} of this name{told} was not "
                           "read: the archive lists the name more than once and the tool "
                           "that extracts it writes one file per name (the copy read is "
                           "the other one)", UnsupportedFormat)


def _files_under(root: Path) -> int:
    return sum(len(files) for _folder, _dirs, files in os.walk(root))


def _listed_files(listing: Listing) -> int:
    return len(listing.clean) + sum(len(sizes) - 1 for sizes in listing.repeated.values())


def _listed_as(written: Written, listing: Listing) -> str | None:
    """The name the listing gives what the tool wrote, None when it lists no such name.

    The listing's names are normalised as the core normalises them (a control
    character is ``_``); a name the tool wrote as legacy bytes is compared as lsar
    decoded it, whatever code page goblin decodes it in.
    """
    spellings = [written.member.name]
    if written.raw_name is not None and listing.encoding:
        with contextlib.suppress(LookupError):
            spellings.append(written.raw_name.decode(listing.encoding, "replace"))
    for spelling in spellings:
        safe = safe_member_name(spelling)[0]
        if safe is not None and safe in listing.clean:
            return safe
    return None


def _whole(member: Member, listed_size: int | None, failure: GoblinError) -> bool:
    """Whether a file a failing tool wrote is the whole member: the size listed, and not
    the file its message complains of (a CRC error leaves a file of the right size)."""
    if listed_size is not None and member.size != listed_size:
        return False
    return posixpath.basename(member.name) not in failure.message


def _rewrites(name: str) -> set[str]:
    """What tools make of a refused name: its safe parts (7-Zip, bsdtar), or unar's
    (which, for formats of one flat folder such as ARC, turns every slash into ``_``);
    cut at a NUL, as C programs read it."""
    cut = name.split("\x00", 1)[0]
    parts = [p for p in cut.replace("\\", "/").split("/") if p not in ("", ".")]
    if parts and len(parts[0]) == 2 and parts[0][1] == ":":
        parts = parts[1:]
    trimmed = "/".join(p for p in parts if p != "..")
    unar = "/".join("__Parent__" if p == ".." else p for p in parts)
    return {trimmed, unar, cut.replace("/", "_")} - {""}


def _never_opened() -> BinaryIO:
    raise AssertionError("a member whose name is refused is never opened")


def _refused(member: Member, where: str, reason: str,
             error: type[GoblinError] = UnsafeArchive) -> Member:
    def refuse() -> BinaryIO:
        raise error(reason, file=where)

    return Member(name=member.name, open=refuse, size=member.size, kind="file")
